import Domain
import JournalCore

extension JourneyGenerator {
    /// A 3DS transaction through one of the flow's paths: frictionless, abandoned, or a challenge
    /// with screens of every UI type ending completed (Y/N), cancelled, timed out, or failed with a
    /// protocol or runtime error, at any point the rules allow.
    public func threeDSTransaction() -> GeneratedJourney {
        beginJourney()
        var run = ThreeDSRun(stream: "3ds-" + random.uuid(), generator: self)

        let custom = random.chance(2)
        let directoryServer = custom ? "C" + random.hex(9).uppercased() : random.pick(DirectoryServer.known.map(\.id))
        let warnings: [String]? = random.chance(5) ? [random.pick(["SW01", "SW02", "SW03", "SW04", "SW05"])] : nil
        run.perform(.createTransaction(directoryServerID: directoryServer,
                                       messageVersion: random.weighted([(.v2_1_0, 10), (.v2_2_0, 60), (.v2_3_0, 10), (.v2_3_1, 20)]),
                                       customCertificate: custom ? true : nil, warnings: warnings))
        if random.chance(2) { return run.close("abandoned:created") }
        wait(20...400)
        run.perform(.createAuthRequestParameters(sdkReferenceNumber: "3DS_LOA_SDK_JRNL_020200_00042",
                                                 deviceDataBytes: random.chance(3) ? Int64(0) : random.int64(in: 900...4_000),
                                                 sdkAppIDRef: random.chance(50) ? "app-" + random.hex(8) : nil))
        if random.chance(2) { return run.close("abandoned:authParameters") }
        wait(300...2_500)
        let status: TransStatus = random.weighted([(.C, 55), (.D, 5), (.Y, 25), (.N, 4), (.U, 3), (.A, 4), (.R, 2), (.I, 2)])
        path.append("ares:\(status.rawValue)")
        run.perform(.recordAuthResponse(threeDSServerTransID: random.uuid(), acsTransID: random.uuid(), transStatus: status,
                                        transStatusReason: status == .N || status == .R ? random.pick(["01", "07", "11"]) : nil))
        wait(50...800)
        guard status.requiresChallenge else { return run.close("frictionless") }
        if random.chance(3) { return run.close("abandoned:ares") }
        let timeout: Int64 = random.weighted([(300, 70), (600, 20), (900, 10)])
        run.perform(.startChallenge(timeoutSeconds: timeout, acsReferenceNumber: "3DS_LOA_ACS_JRNL_020200_00" + random.hex(3)))
        if let ended = run.maybeFail(percentRuntime: 2, percentProtocol: 0, percentTimeout: 1) { return ended }
        wait(200...1_500)
        run.perform(.sendChallengeRequest(action: .initial))
        return run.challengeLoop()
    }
}

/// The state of one 3DS journey being generated.
struct ThreeDSRun {
    let stream: String
    unowned let generator: JourneyGenerator
    var state = ThreeDSTransaction.initial
    var events: [GeneratedEvent] = []
    var commands: [GeneratedCommand] = []

    init(stream: String, generator: JourneyGenerator) {
        self.stream = stream
        self.generator = generator
    }

    mutating func perform(_ command: ThreeDSTransaction.Command) {
        switch ThreeDSTransaction.decide(command, state, generator.environment) {
        case let .success(newEvents):
            commands.append(.threeDS(command))
            for new in newEvents {
                guard case let .success(next) = ThreeDSTransaction.apply(state, new.event, occurredAt: new.occurredAt) else {
                    // decide checked every event; a failure here is a bug in the domain.
                    preconditionFailure("decide produced an event its own rules refuse")
                }
                state = next
                events.append(generator.makeEvent(stream: stream, id: new.id, type: new.event.typeName,
                                                  data: new.event.data, occurredAt: new.occurredAt))
            }
        case let .failure(rejection):
            // The generator only issues commands its state allows; a rejection is a generator bug.
            preconditionFailure("the generator issued a command the domain refuses: \(rejection.reason)")
        }
    }

    mutating func finish(_ label: String) -> GeneratedJourney {
        generator.path.append(label)
        return GeneratedJourney(stream: stream, category: .threeDS, events: events, finalState: .threeDS(state),
                                path: generator.path, commands: commands)
    }

    mutating func close(_ label: String) -> GeneratedJourney {
        perform(.close)
        return finish(label)
    }

    /// With the given chances, ends the challenge with a runtime error, a protocol error or a timeout.
    mutating func maybeFail(percentRuntime: Int, percentProtocol: Int, percentTimeout: Int) -> GeneratedJourney? {
        let roll = generator.random.int(below: 100)
        if roll < percentRuntime {
            generator.wait(100...10_000)
            let (code, message) = generator.random.pick([
                ("STDSRuntimeErrorCodeEncryptionError", "JWS signature could not be verified"),
                ("STDSRuntimeErrorCodeParsingError", "acsURL missing in signed content"),
                ("402", "Read timed out after 10 s"), ("1002", "network connection lost"),
            ])
            perform(.reportRuntimeError(errorCode: code, errorMessage: message))
            return finish("runtimeError")
        }
        if roll < percentRuntime + percentProtocol {
            generator.wait(100...5_000)
            let (code, description, detail): (String, String, String?) = generator.random.pick([
                ("101", "Message received is invalid", "CRes"), ("201", "Required data element missing", "acsUiType"),
                ("203", "Data element not in the required format", "challengeInfoText"),
                ("302", "Data could not be decrypted", nil), ("301", "Transaction ID not recognized", "sdkTransID"),
                ("102", "Message version not supported", nil),
            ])
            perform(.reportProtocolError(errorCode: code, errorComponent: generator.random.weighted([(.C, 60), (.A, 35), (.S, 5)]),
                                         errorDescription: description, errorDetail: detail,
                                         errorMessageType: generator.random.chance(50) ? "CRes" : nil,
                                         sentToACS: generator.random.chance(70)))
            return finish("protocolError")
        }
        if roll < percentRuntime + percentProtocol + percentTimeout {
            if let challenge = state.challenge, generator.now < challenge.deadline {
                generator.wait(0...60_000)
                if generator.now < challenge.deadline {
                    generator.wait((challenge.deadline.millisecondsSinceEpoch - generator.now.millisecondsSinceEpoch)...(challenge.deadline.millisecondsSinceEpoch - generator.now.millisecondsSinceEpoch + 5_000))
                }
            }
            perform(.timeOut)
            return finish("timedOut")
        }
        return nil
    }

    /// Responses and user actions until the challenge ends.
    mutating func challengeLoop() -> GeneratedJourney {
        var screens = 0
        while true {
            // A request is in flight.
            if let ended = maybeFail(percentRuntime: 3, percentProtocol: 3, percentTimeout: 1) { return ended }
            generator.wait(300...4_000)
            guard let (_, inFlightAction) = state.requestInFlight else { preconditionFailure("no request in flight") }
            if inFlightAction == .cancel {
                let status: ChallengeTransStatus = generator.random.weighted([(.N, 90), (.Y, 10)])
                perform(.receiveChallengeResponse(.final(status)))
                return finish("cancelled")
            }
            let finalChance = screens == 0 ? 5 : (screens >= 8 ? 100 : 45)
            if generator.random.chance(finalChance) {
                let status: ChallengeTransStatus = generator.random.weighted([(.Y, 80), (.N, 20)])
                perform(.receiveChallengeResponse(.final(status)))
                return finish("completed\(status.rawValue)")
            }
            let uiType: ACSUIType = generator.random.weighted([
                (.text, 50), (.singleSelect, 10), (.multiSelect, 5), (.oob, 15), (.html, 10), (.htmlOOB, 5), (.information, 5),
            ])
            generator.path.append("ui:\(uiType.rawValue)")
            perform(.receiveChallengeResponse(.screen(uiType)))
            screens += 1
            // The screen is shown; the cardholder acts, or the challenge ends.
            if let ended = maybeFail(percentRuntime: 1, percentProtocol: 1, percentTimeout: 3) { return ended }
            generator.wait(uiType == .oob || uiType == .htmlOOB ? 5_000...90_000 : 2_000...45_000)
            if generator.random.chance(8) {
                generator.path.append("action:cancel")
                perform(.cancelChallenge)
                continue
            }
            let action: ChallengeAction
            switch uiType {
            case .text: action = generator.random.weighted([(.submitText, 80), (.resend, 20)])
            case .singleSelect, .multiSelect: action = .submitSelection
            case .oob: action = .oobContinue
            case .html: action = .htmlForm
            case .htmlOOB: action = generator.random.pick([ChallengeAction.oobContinue, .htmlForm])
            case .information: action = .continue
            }
            generator.path.append("action:\(action.rawValue)")
            if action == .submitText {
                let empty = generator.random.chance(3)
                perform(.sendChallengeRequest(action: action, entryLength: empty ? nil : generator.random.pick([Int64(6), 8]),
                                              noEntry: empty ? true : nil))
            } else {
                perform(.sendChallengeRequest(action: action))
            }
        }
    }
}
