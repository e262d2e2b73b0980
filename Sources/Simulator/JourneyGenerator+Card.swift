import Domain
import JournalCore

extension JourneyGenerator {
    /// A card digitization journey: not eligible, green, red, or yellow with every ID&V method,
    /// OTP verdicts, app-to-app with and without cryptogram, issuer pushes, interruptions and
    /// resumes, ending activated, cancelled, expired or failed.
    func makeCardDigitization() -> GeneratedJourney {
        // "card-" and a UUID, uppercased in 30 % of journeys (SDKs write either case).
        var run = CardRun(stream: random.prefixedUUID("card-", uppercasePercent: 30), generator: self)
        let input = draw(profile.inputMethods)
        if roll(profile.notEligible) {
            run.perform(
                .checkEligibility(inputMethod: input, outcome: .notEligible, errorCode: draw(profile.eligibilityErrors))
            )
            return run.finish("notEligible")
        }
        run.perform(.checkEligibility(inputMethod: input, outcome: .eligible))
        if roll(profile.termsAccepted) {
            wait(profile.thinkTimeCard)
            run.perform(.acceptTerms(tncDigest: random.hex(64)))
        }
        wait(profile.thinkTimeCard)
        run.perform(
            .requestDigitization(
                language: random.pick(["en", "fr", "de", "es", "it", "nl"]),
                pushTokenRef: random.chance(80) ? "ptr-" + random.hex(16) : nil))
        wait(profile.serverLatency)
        switch draw(input == .manual ? profile.decisionManual : profile.decisionFromApp) {
        case .green:
            run.perform(.recordDecision(.approved(digitalCardID: "DC-" + random.hex(12))))
            return run.finish("approved")
        case .red:
            run.perform(.recordDecision(.declined))
            return run.finish("declined")
        case .yellow:
            run.perform(
                .recordDecision(.approvedWithIDV(digitalCardID: "DC-" + random.hex(12), methods: offeredMethods())))
            return run.activationLoop()
        }
    }

    /// Distinct method types drawn from the profile's shares; appToApp with or without cryptogram.
    private func offeredMethods() -> [IDVMethod] {
        let count = draw(profile.methodsOffered)
        var types: [IDVMethodType] = []
        types.reserveCapacity(count)
        // Each type from the shares of the types not drawn yet.
        while types.count < count, let type = profile.methodTypes.draw(&random, excluding: { types.contains($0) }) {
            types.append(type)
        }
        var methods: [IDVMethod] = []
        methods.reserveCapacity(types.count)
        for (index, type) in types.enumerated() {
            let prefix = index < Self.methodIDPrefixes.count ? Self.methodIDPrefixes[index] : "idv-\(index + 1)-"
            methods.append(
                IDVMethod(
                    id: prefix + random.hex(4), type: type,
                    withCryptogram: type == .appToApp ? roll(profile.appToAppWithCryptogram) : nil))
        }
        return methods
    }

    /// `idv-1-` to `idv-5-` (a journey offers at most five methods).
    private static let methodIDPrefixes = (1...5).map { "idv-\($0)-" }
}

/// The state of one card journey being generated.
struct CardRun {
    let stream: String
    // The generator runs the journey and outlives it: no reference counting on every step.
    unowned(unsafe) let generator: JourneyGenerator
    /// The generator's environment, copied once per journey (not for every command).
    let environment: Environment
    var state = CardDigitization.initial
    var events: [GeneratedEvent] = []
    var commands: [GeneratedCommand] = []
    /// Wrong OTPs left for the current code, and submissions made with it.
    var attemptsLeft: Int64 = 3
    var attemptsMade = 0

    init(stream: String, generator: JourneyGenerator) {
        self.stream = stream
        self.generator = generator
        environment = generator.environment
        if !generator.packsEvents { events.reserveCapacity(12) }
    }

    mutating func perform(_ command: consuming CardDigitization.Command) {
        // Recorded first (a rejected command stops the run anyway), then consumed by execute.
        if generator.recordsDetails { commands.append(.card(command)) }
        // execute checks every event against the catalog and the rules, and applies it.
        let generator = self.generator
        let stream = self.stream
        var collected: [GeneratedEvent] = []
        swap(&collected, &events)
        let rejection = CardDigitization.execute(consume command, &state, environment) { new in
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
            stream: stream, category: .card, events: events, finalState: .card(state),
            path: generator.path, commands: commands)
    }

    private var profile: CompiledProfile { generator.profile }
    private func note(_ step: @autoclosure () -> String) { generator.note(step()) }

    /// A non-activating push now and then, which changes no state.
    private mutating func maybeNoise() {
        if generator.roll(profile.otherNotification) {
            generator.wait(profile.thinkTimeCard)
            perform(
                .receiveCPSNotification(
                    messageCode: generator.random.pick([
                        "CBP.info.tokenReplenished",
                        "CBP.info.tokenODACertRenewed"
                    ])))
            note("cps:other")
        }
    }

    /// The endings (and the interruption) that may come at any non-terminal point after the
    /// yellow decision, with the profile's per-step chances. True when the journey ended.
    private mutating func maybeEnd() -> Bool {
        let roll = generator.random.int(below: 10_000)
        var bound = profile.interruption.basisPoints
        if roll < bound {
            generator.wait(profile.thinkTimeCard)
            perform(
                .interrupt(reason: generator.random.pick(["appTerminated", "backgrounded", "networkLost", "userLeft"])))
            note("interrupted")
            return false
        }
        bound += profile.cancel.basisPoints
        if roll < bound {
            generator.wait(profile.thinkTimeCard)
            perform(.cancel)
            note("cancelled")
            return true
        }
        bound += profile.expiry.basisPoints
        if roll < bound {
            generator.wait(profile.expiryDelay)
            perform(.expire)
            note("expired")
            return true
        }
        bound += profile.failure.basisPoints
        if roll < bound {
            generator.wait(profile.serverLatency)
            perform(.fail(reason: generator.random.pick([.deviceUnsafe, .idvFailed, .other])))
            note("failed")
            return true
        }
        bound += profile.outOfBandActivation.basisPoints
        if roll < bound {
            generator.wait(profile.issuerDelay)
            perform(.receiveCPSNotification(messageCode: CPSMessageCode.tokenProvisioned))
            note("activated:outOfBand")
            return true
        }
        return false
    }

    private var isInterrupted: Bool {
        if case let .pendingActivation(_, activation) = state { return activation.step == .interrupted }
        return false
    }

    /// The pending activation, step by step, until a terminal event.
    mutating func activationLoop() -> GeneratedJourney {
        var rounds = 0
        while true {
            rounds += 1
            guard case let .pendingActivation(_, activation) = state else { return finish("end") }
            if rounds > 40 {
                generator.wait(profile.expiryDelay)
                perform(.expire)
                return finish("expired")
            }
            maybeNoise()
            if activation.step != .interrupted && activation.step != .otpSubmitted
                && activation.step != .appToAppResumedWithTAV
            {
                if maybeEnd() { return finish("end") }
                if isInterrupted { continue }
            }
            switch activation.step {
            case .awaitingMethodSelection:
                let selectable = activation.selectableMethods
                guard !selectable.isEmpty else {
                    // After a resume only appToApp without cryptogram was offered: nothing left to select.
                    generator.wait(profile.thinkTimeCard)
                    perform(generator.random.chance(50) ? .cancel : .expire)
                    return finish("noSelectableMethod")
                }
                generator.wait(profile.thinkTimeCard)
                let method = generator.random.pick(selectable)
                attemptsLeft = profile.otpAttemptsPerCode
                attemptsMade = 0
                note(
                    "select:\(method.type.rawValue)"
                        + (method.type == .appToApp ? (method.withCryptogram == true ? "+tav" : "-tav") : "")
                        + (activation.resumed ? ":afterResume" : ""))
                perform(.selectIDVMethod(idvID: method.id))
            case let .awaitingActivationRequired(required):
                generator.wait(profile.serverLatency)
                switch required {
                case .otpNeeded:
                    perform(.reportActivationRequired(state: .otpNeeded))
                case .appToAppSelected:
                    perform(
                        .reportActivationRequired(
                            state: .appToAppSelected, scheme: generator.random.pick(["MASTERCARD", "VISA"]),
                            source: "com.issuer.bank", requestPayloadBytes: generator.random.int64(in: 200...2_000)))
                }
            case .otpNeeded:
                let byEmail = activation.selectedMethod?.type == .otpByEmail
                generator.wait(byEmail ? profile.emailDelay : profile.smsDelay)
                perform(.submitOTP(otpLength: generator.random.weighted([(Int64(6), 70), (8, 25), (4, 5)])))
            case .otpSubmitted:
                generator.wait(profile.serverLatency)
                let success = profile.otpSuccessByAttempt[min(attemptsMade, profile.otpSuccessByAttempt.count - 1)]
                attemptsMade += 1
                if generator.roll(success) {
                    perform(.confirmActivation)
                    note("activated:otp")
                    return finish("activated")
                }
                if generator.roll(profile.otpExpired) {
                    perform(
                        .rejectOTP(
                            reason: .expired, attemptsRemaining: generator.random.chance(50) ? attemptsLeft : nil))
                    note("otp:expired")
                    continue
                }
                attemptsLeft -= 1
                if attemptsLeft > 0 && generator.roll(profile.otpCountMissing) {
                    // A wrong code reported without a count: back to otpNeeded.
                    perform(.rejectOTP(reason: .incorrect))
                    note("otp:incorrectNoCount")
                    continue
                }
                perform(.rejectOTP(reason: .incorrect, attemptsRemaining: attemptsLeft))
                note(attemptsLeft == 0 ? "otp:exhausted" : "otp:incorrect")
                if attemptsLeft == 0 && generator.roll(profile.failAfterExhausted) {
                    perform(.fail(reason: .otpAttemptsExhausted))
                    return finish("failed")
                }
            case .appToAppSelected:
                generator.wait(profile.appToAppDelay)
                let withTAV = activation.selectedMethod?.withCryptogram ?? false
                perform(.resumeAppToApp(withTAV: withTAV))
                note(withTAV ? "appToApp:resumedWithTAV" : "appToApp:resumedWithoutTAV")
            case .appToAppResumedWithTAV:
                generator.wait(profile.serverLatency)
                perform(.confirmActivation)
                note("activated:tav")
                return finish("activated")
            case .awaitingIssuer:
                if generator.roll(profile.issuerCompletion) {
                    generator.wait(profile.issuerDelay)
                    perform(.receiveCPSNotification(messageCode: CPSMessageCode.tokenProvisioned))
                    note("activated:issuer")
                    return finish("activated")
                }
                generator.wait(profile.expiryDelay)
                perform(.expire)
                return finish("expired")
            case .interrupted:
                switch generator.draw(profile.afterInterruption) {
                case .resume:
                    generator.wait(profile.resumeDelay)
                    perform(.resumeActivation)
                    note("resumed")
                case .cancel:
                    generator.wait(profile.resumeDelay)
                    perform(.cancel)
                    return finish("cancelledWhileInterrupted")
                case .expire:
                    generator.wait(profile.expiryDelay)
                    perform(.expire)
                    return finish("expiredWhileInterrupted")
                case .issuerActivates:
                    generator.wait(profile.issuerDelay)
                    perform(.receiveCPSNotification(messageCode: CPSMessageCode.tokenProvisioned))
                    return finish("activatedWhileInterrupted")
                case .fail:
                    generator.wait(profile.serverLatency)
                    perform(.fail(reason: .other))
                    return finish("failedWhileInterrupted")
                }
            }
        }
    }
}
