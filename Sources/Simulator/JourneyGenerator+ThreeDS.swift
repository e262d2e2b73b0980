import Domain
import JournalCore

extension JourneyGenerator {
    /// A 3DS transaction: frictionless, abandoned, or a challenge whose outcome is drawn first
    /// (completed Y/N, cancelled, timed out, protocol or runtime error) and whose screens are
    /// then played until that outcome, every step through the domain's commands.
    func makeThreeDSTransaction() -> GeneratedJourney {
        var run = ThreeDSRun(stream: random.prefixedUUID("3ds-"), generator: self)
        let custom = roll(profile.customDirectoryServer)
        let directoryServer = custom ? draw(profile.customDirectoryServers) : draw(profile.directoryServers)
        let version = draw(profile.messageVersions)
        let warnings: [String]? = roll(profile.warnings) ? [random.pick(["SW01", "SW02", "SW03", "SW04", "SW05"])] : nil
        run.perform(
            .createTransaction(
                directoryServerID: directoryServer, messageVersion: version,
                customCertificate: custom ? true : nil, warnings: warnings))
        if roll(profile.abandonAfterCreate) { return run.close("abandoned:created") }
        wait(profile.sdkStep)
        run.perform(
            .createAuthRequestParameters(
                sdkReferenceNumber: "3DS_LOA_SDK_JRNL_020200_00042",
                deviceDataBytes: roll(profile.noDeviceData) ? 0 : random.int64(in: 900...4_000),
                sdkAppIDRef: random.chance(50) ? "app-" + random.hex(8) : nil))
        if roll(profile.abandonAfterAuthParameters) { return run.close("abandoned:authParameters") }
        wait(profile.authLatency)
        let status = draw(profile.authResponse)
        note("ares:\(status.rawValue)")
        run.perform(
            .recordAuthResponse(
                threeDSServerTransID: random.uuid(), acsTransID: random.uuid(), transStatus: status,
                transStatusReason: status == .N || status == .R ? random.pick(["01", "07", "11"]) : nil))
        wait(profile.sdkStep)
        guard status.requiresChallenge else { return run.close("frictionless") }
        if roll(profile.abandonBeforeChallenge) { return run.close("abandoned:ares") }
        let timeout = draw(profile.timeoutSeconds)
        run.perform(
            .startChallenge(timeoutSeconds: timeout, acsReferenceNumber: "3DS_LOA_ACS_JRNL_020200_00" + random.hex(3)))
        let steps = challengeSteps(version: version)
        let outcome = draw(profile.challengeOutcome)
        return run.playChallenge(steps: steps, outcome: outcome)
    }

    /// The screens a cardholder goes through and what they answer on each, when nothing goes wrong.
    private func challengeSteps(version: MessageVersion) -> [ChallengeStep] {
        let has23 = version == .v2_3_0 || version == .v2_3_1
        var steps: [ChallengeStep] = []
        if roll(profile.extraScreen) {
            // A first round before the step-up: an information screen (2.3) or a choice of channel.
            if has23 && random.chance(50) {
                steps.append(ChallengeStep(screen: .information, action: .continue))
            } else {
                steps.append(ChallengeStep(screen: .singleSelect, action: .submitSelection))
            }
        }
        let screen = draw(has23 ? profile.uiTypes : profile.uiTypesBefore23)
        switch screen {
        case .text:
            let submissions = draw(profile.otpSubmissions)
            let resendBefore = roll(profile.resend) ? random.int(below: submissions) : -1
            for index in 0..<submissions {
                if index == resendBefore { steps.append(ChallengeStep(screen: .text, action: .resend)) }
                steps.append(ChallengeStep(screen: .text, action: .submitText))
            }
        case .singleSelect, .multiSelect:
            steps.append(ChallengeStep(screen: screen, action: .submitSelection))
        case .oob:
            steps.append(ChallengeStep(screen: .oob, action: .oobContinue))
            // Tapped "continue" before approving in the banking app: the ACS shows the screen again.
            if random.chance(10) { steps.append(ChallengeStep(screen: .oob, action: .oobContinue)) }
        case .html:
            steps.append(ChallengeStep(screen: .html, action: .htmlForm))
        case .htmlOOB:
            steps.append(ChallengeStep(screen: .htmlOOB, action: random.chance(60) ? .oobContinue : .htmlForm))
        case .information:
            steps.append(ChallengeStep(screen: .information, action: .continue))
        }
        return steps
    }
}

/// One round of a challenge: the screen the ACS shows and the cardholder's answer.
struct ChallengeStep {
    var screen: ACSUIType
    var action: ChallengeAction
}

/// The state of one 3DS journey being generated.
struct ThreeDSRun {
    let stream: String
    // The generator runs the journey and outlives it: no reference counting on every step.
    unowned(unsafe) let generator: JourneyGenerator
    /// The generator's environment, copied once per journey (not for every command).
    let environment: Environment
    var state = ThreeDSTransaction.initial
    var events: [GeneratedEvent] = []
    var commands: [GeneratedCommand] = []

    init(stream: String, generator: JourneyGenerator) {
        self.stream = stream
        self.generator = generator
        environment = generator.environment
        if !generator.packsEvents { events.reserveCapacity(12) }
    }

    mutating func perform(_ command: consuming ThreeDSTransaction.Command) {
        // Recorded first (a rejected command stops the run anyway), then consumed by execute.
        if generator.recordsDetails { commands.append(.threeDS(command)) }
        // execute checks every event against the catalog and the rules, and applies it.
        let generator = self.generator
        let stream = self.stream
        var collected: [GeneratedEvent] = []
        swap(&collected, &events)
        let rejection = ThreeDSTransaction.execute(consume command, &state, environment) { new in
            generator.emit(new, stream: stream, into: &collected)
        }
        swap(&collected, &events)
        if let rejection {
            // The generator only issues commands its state allows; a rejection is a generator bug.
            preconditionFailure("the generator issued a command the domain refuses: \(rejection.reason)")
        }
    }

    mutating func finish(_ label: String) -> GeneratedJourney {
        generator.note(label)
        return GeneratedJourney(
            stream: stream, category: .threeDS, events: events, finalState: .threeDS(state),
            path: generator.path, commands: commands)
    }

    mutating func close(_ label: String) -> GeneratedJourney {
        perform(.close)
        return finish(label)
    }

    /// The challenge's deadline on the true clock (the device clock's skew cancels out).
    private var deadline: Timestamp {
        guard let challenge = state.challenge else { preconditionFailure("no challenge started") }
        return challenge.deadline.adding(milliseconds: -generator.skew)
    }

    /// Waits `milliseconds` unless that passes the deadline; then the challenge times out.
    private mutating func wait(_ milliseconds: Int64) -> Bool {
        if generator.now.adding(milliseconds: milliseconds) < deadline {
            generator.wait(milliseconds)
            return true
        }
        return false
    }

    /// Waits for the deadline (and the SDK's timer a little after), then times out.
    private mutating func timeOut() -> GeneratedJourney {
        let late = deadline.millisecondsSinceEpoch - generator.now.millisecondsSinceEpoch
        generator.wait(max(0, late) + generator.random.int64(in: 0...3_000))
        perform(.timeOut)
        return finish("timedOut")
    }

    /// Plays `steps` until `outcome`: the final response, a cancel on a screen, a timeout at any
    /// running point, or an error while a response is awaited.
    mutating func playChallenge(steps: [ChallengeStep], outcome: CompiledProfile.ChallengeOutcome) -> GeneratedJourney {
        let random = { [generator] (bound: Int) in generator.random.int(below: bound) }
        // Where the journey leaves the happy path: a response index (0 = the answer to the
        // initial request) or a screen index.
        let responses = steps.count + 1
        switch outcome {
        case .timedOut:
            // Before the first request (1 in 10), with a request in flight (1 in 10), or on a screen.
            let roll = random(10)
            if roll == 0 { return timeOut() }
            let onScreen = roll > 1
            return play(
                steps, stopAtResponse: onScreen ? nil : random(responses),
                stopAtScreen: onScreen ? random(steps.count) : nil,
                ending: outcome)
        case .protocolError, .runtimeError:
            if outcome == .runtimeError && random(10) == 0 {
                // A setup failure in doChallenge, before any request.
                guard wait(generator.profile.sdkStep.draw(&generator.random)) else { return timeOut() }
                return runtimeError()
            }
            return play(steps, stopAtResponse: random(responses), stopAtScreen: nil, ending: outcome)
        case .cancelled:
            return play(steps, stopAtResponse: nil, stopAtScreen: random(steps.count), ending: outcome)
        case .completedY, .completedN:
            return play(steps, stopAtResponse: nil, stopAtScreen: nil, ending: outcome)
        }
    }

    private mutating func play(
        _ steps: [ChallengeStep], stopAtResponse: Int?, stopAtScreen: Int?,
        ending: CompiledProfile.ChallengeOutcome
    ) -> GeneratedJourney {
        let profile = generator.profile
        guard wait(profile.sdkStep.draw(&generator.random)) else { return timeOut() }
        perform(.sendChallengeRequest(action: .initial))
        var index = 0
        while true {
            // A request is in flight.
            guard wait(profile.creqToCres.draw(&generator.random)) else { return timeOut() }
            if stopAtResponse == index {
                switch ending {
                case .protocolError: return protocolError()
                case .runtimeError: return runtimeError()
                case .timedOut: return timeOut()
                case .completedY, .completedN, .cancelled: preconditionFailure("not an ending at a response")
                }
            }
            if case .awaitingResponse(_, .cancel)? = state.challenge?.step {
                perform(.receiveChallengeResponse(.final(generator.random.chance(95) ? .N : .Y)))
                return finish("cancelled")
            }
            guard index < steps.count else {
                let status: ChallengeTransStatus = ending == .completedN ? .N : .Y
                perform(.receiveChallengeResponse(.final(status)))
                return finish("completed\(status.rawValue)")
            }
            let step = steps[index]
            generator.note("ui:\(step.screen.rawValue)")
            perform(.receiveChallengeResponse(.screen(step.screen)))
            // The screen is shown; the cardholder acts.
            let outOfBand = step.action == .oobContinue
            guard wait((outOfBand ? profile.oobTime : profile.thinkTime3DS).draw(&generator.random)) else {
                return timeOut()
            }
            if stopAtScreen == index {
                if ending == .timedOut { return timeOut() }
                generator.note("action:cancel")
                perform(.cancelChallenge)
                index += 1
                continue
            }
            generator.note("action:\(step.action.rawValue)")
            if step.action == .submitText {
                let empty = generator.random.chance(2)
                perform(
                    .sendChallengeRequest(
                        action: .submitText,
                        entryLength: empty ? nil : (generator.random.chance(80) ? 6 : 8),
                        noEntry: empty ? true : nil))
            } else {
                perform(.sendChallengeRequest(action: step.action))
            }
            index += 1
        }
    }

    private mutating func protocolError() -> GeneratedJourney {
        let code = generator.draw(generator.profile.protocolErrorCodes)
        let (description, detail, component) = Self.protocolErrorDetails(code, random: &generator.random)
        perform(
            .reportProtocolError(
                errorCode: code, errorComponent: component, errorDescription: description,
                errorDetail: detail, errorMessageType: component == .C ? "CRes" : "Erro",
                sentToACS: component == .C))
        generator.note("protocolError:\(code)")
        return finish("protocolError")
    }

    private mutating func runtimeError() -> GeneratedJourney {
        let code = generator.draw(generator.profile.runtimeErrorCodes)
        perform(.reportRuntimeError(errorCode: code, errorMessage: Self.runtimeErrorMessage(code)))
        generator.note("runtimeError:\(code)")
        return finish("runtimeError")
    }

    /// The description, detail and component the SDK reports for a code (its documented error codes).
    static func protocolErrorDetails(_ code: String, random: inout SeededRandom)
        -> (description: String, detail: String?, component: ErrorComponent)
    {
        // The SDK finds most errors in a CRes (component C, Erro sent to the ACS); an ACS may
        // also send its own Erro (component A, not echoed).
        let component: ErrorComponent = random.chance(80) ? .C : .A
        switch code {
        case "101": return ("Message Received Invalid", "CRes", component)
        case "102": return ("Message Version Number Not Supported", "messageVersion", .A)
        case "201":
            return (
                "Required Data Element Missing", random.pick(["oobContinueLabel", "acsUiType", "acsTransID"]), component
            )
        case "202": return ("Critical Message Extension Not Recognised", "messageExtension", component)
        case "203":
            return (
                "Format of one or more Data Elements is Invalid according to the Specification",
                random.pick(["whyInfoText", "messageVersion", "challengeInfoText", "acsHTML"]), component
            )
        case "207": return ("Invalid Shipping Address", nil, .A)
        case "301": return ("Transaction ID Not Recognized", "sdkTransID", component)
        case "302": return ("Data Decryption Failure", nil, component)
        case "402": return ("Transaction Timed Out", "CRes read timed out after 10 s", .C)
        default: return ("Error \(code)", nil, component)
        }
    }

    static func runtimeErrorMessage(_ code: String) -> String {
        switch code {
        case "1002": return "Read timed out after 10 s waiting for the CRes"
        case "-1009": return "The Internet connection appears to be offline."
        case "3840": return "JSON text did not start with array or object"
        case "2000": return "No response and no error from the ACS"
        case "204": return "Assertion failed: a CReq is already in flight"
        case "STDSRuntimeErrorCodeEncryptionError": return "acsSignedContent failed the certificate chain check"
        case "STDSRuntimeErrorCodeParsingError": return "acsURL missing in signed content"
        default: return "Runtime error \(code)"
        }
    }
}
