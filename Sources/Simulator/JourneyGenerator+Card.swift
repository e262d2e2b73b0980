import Domain
import JournalCore

extension JourneyGenerator {
    /// A card digitization journey through one of the flow's paths: not eligible, green, red, or
    /// yellow with every ID&V method, OTP verdicts, app-to-app with and without cryptogram, issuer
    /// pushes, interruptions and resumes, ending activated, cancelled, expired or failed.
    public func cardDigitization() -> GeneratedJourney {
        beginJourney()
        var run = CardRun(stream: "card-" + caseVariant(random.uuid()), generator: self)
        let input: InputMethod = random.weighted([(.manual, 50), (.bankApp, 40), (.pushSession, 10)])
        if random.chance(6) {
            run.perform(.checkEligibility(inputMethod: input, outcome: .notEligible,
                                          errorCode: random.pick(["fpanNotEligible", "unknownBIN", "incorrectCVV",
                                                                  "cardAlreadyProvisionedInWallet", "deviceNotEligible"])))
            return run.finish("notEligible")
        }
        run.perform(.checkEligibility(inputMethod: input, outcome: .eligible))
        if random.chance(85) {
            wait(3_000...60_000)
            run.perform(.acceptTerms(tncDigest: random.hex(64)))
        }
        wait(500...5_000)
        run.perform(.requestDigitization(language: random.pick(["en", "fr", "de", "es", "it", "nl"]),
                                         pushTokenRef: random.chance(80) ? "ptr-" + random.hex(16) : nil))
        wait(1_000...8_000)
        let shares = input == .manual ? [("green", 10), ("yellow", 80), ("red", 10)] : [("green", 85), ("yellow", 12), ("red", 3)]
        // Yellow is where the paths are: the generator favours it so that every path is exercised.
        switch random.weighted(shares.map { ($0.0, $0.0 == "yellow" ? $0.1 * 3 : $0.1) }) {
        case "green":
            run.perform(.recordDecision(.approved(digitalCardID: "DC-" + random.hex(12))))
            return run.finish("approved")
        case "red":
            run.perform(.recordDecision(.declined))
            return run.finish("declined")
        default:
            run.perform(.recordDecision(.approvedWithIDV(digitalCardID: "DC-" + random.hex(12), methods: offeredMethods())))
            return run.activationLoop()
        }
    }

    /// A card stream's UUID may be in either case.
    private func caseVariant(_ uuid: String) -> String { random.chance(30) ? uuid.uppercased() : uuid }

    /// One to five distinct methods in a random order; appToApp with or without cryptogram.
    private func offeredMethods() -> [IDVMethod] {
        let types = random.shuffled(IDVMethodType.allCases)
        let count = random.weighted([(1, 15), (2, 35), (3, 30), (4, 12), (5, 8)])
        return types.prefix(count).enumerated().map { index, type in
            IDVMethod(id: "idv-\(index + 1)-" + random.hex(4), type: type,
                      withCryptogram: type == .appToApp ? random.chance(50) : nil)
        }
    }
}

/// The state of one card journey being generated.
struct CardRun {
    let stream: String
    unowned let generator: JourneyGenerator
    var state = CardDigitization.initial
    var events: [GeneratedEvent] = []
    var commands: [GeneratedCommand] = []
    /// Wrong OTPs left for the current code.
    var attemptsLeft: Int64 = 3

    init(stream: String, generator: JourneyGenerator) {
        self.stream = stream
        self.generator = generator
    }

    mutating func perform(_ command: CardDigitization.Command) {
        switch CardDigitization.decide(command, state, generator.environment) {
        case let .success(newEvents):
            commands.append(.card(command))
            for new in newEvents {
                guard case let .success(next) = CardDigitization.apply(state, new.event, occurredAt: new.occurredAt) else {
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
        return GeneratedJourney(stream: stream, category: .card, events: events, finalState: .card(state),
                                path: generator.path, commands: commands)
    }

    private mutating func note(_ step: String) { generator.path.append(step) }

    /// A non-activating push now and then, which changes no state.
    private mutating func maybeNoise() {
        if generator.random.chance(4) {
            generator.wait(1_000...600_000)
            perform(.receiveCPSNotification(messageCode: generator.random.pick(["CBP.info.tokenReplenished",
                                                                                "CBP.info.tokenODACertRenewed"])))
            note("cps:other")
        }
    }

    /// The common endings that may come at any non-terminal point after the yellow decision.
    private mutating func maybeEnd(interrupt: Int, cancel: Int, expire: Int, fail: Int, provisioned: Int) -> Bool {
        let roll = generator.random.int(below: 100)
        var bound = interrupt
        if roll < bound {
            generator.wait(10_000...900_000)
            perform(.interrupt(reason: generator.random.pick(["appTerminated", "backgrounded", "networkLost", "userLeft"])))
            note("interrupted")
            return false
        }
        bound += cancel
        if roll < bound {
            generator.wait(2_000...120_000)
            perform(.cancel)
            note("cancelled")
            return true
        }
        bound += expire
        if roll < bound {
            generator.wait(600_000...86_400_000)
            perform(.expire)
            note("expired")
            return true
        }
        bound += fail
        if roll < bound {
            generator.wait(1_000...60_000)
            perform(.fail(reason: generator.random.pick([.deviceUnsafe, .idvFailed, .other])))
            note("failed")
            return true
        }
        bound += provisioned
        if roll < bound {
            generator.wait(300_000...172_800_000)
            perform(.receiveCPSNotification(messageCode: CPSMessageCode.tokenProvisioned))
            note("activated:outOfBand")
            return true
        }
        return false
    }

    /// The pending activation, step by step, until a terminal event.
    mutating func activationLoop() -> GeneratedJourney {
        var rounds = 0
        while true {
            rounds += 1
            guard case let .pendingActivation(_, activation) = state else { return finish("end") }
            if rounds > 40 {
                perform(.expire)
                return finish("expired")
            }
            maybeNoise()
            switch activation.step {
            case .awaitingMethodSelection:
                if maybeEnd(interrupt: 4, cancel: 3, expire: 2, fail: 1, provisioned: 1) { return finish("end") }
                if case .pendingActivation(_, let now) = state, now.step == .interrupted { continue }
                let selectable = activation.selectableMethods
                guard !selectable.isEmpty else {
                    // After a resume only appToApp without cryptogram was offered: nothing left to select.
                    perform(generator.random.chance(50) ? .cancel : .expire)
                    return finish("noSelectableMethod")
                }
                generator.wait(3_000...60_000)
                let method = generator.random.pick(selectable)
                attemptsLeft = 3
                note("select:\(method.type.rawValue)" + (method.type == .appToApp ? (method.withCryptogram == true ? "+tav" : "-tav") : "")
                     + (activation.resumed ? ":afterResume" : ""))
                perform(.selectIDVMethod(idvID: method.id))
            case let .awaitingActivationRequired(required):
                if maybeEnd(interrupt: 3, cancel: 1, expire: 1, fail: 0, provisioned: 1) { return finish("end") }
                if case .pendingActivation(_, let now) = state, now.step == .interrupted { continue }
                generator.wait(300...3_000)
                switch required {
                case .otpNeeded:
                    perform(.reportActivationRequired(state: .otpNeeded))
                case .appToAppSelected:
                    perform(.reportActivationRequired(state: .appToAppSelected, scheme: generator.random.pick(["MASTERCARD", "VISA"]),
                                                      source: "com.issuer.bank", requestPayloadBytes: generator.random.int64(in: 200...2_000)))
                }
            case .otpNeeded:
                if maybeEnd(interrupt: 4, cancel: 2, expire: 2, fail: 0, provisioned: 1) { return finish("end") }
                if case .pendingActivation(_, let now) = state, now.step == .interrupted { continue }
                generator.wait(20_000...180_000)
                perform(.submitOTP(otpLength: generator.random.weighted([(Int64(6), 70), (8, 25), (4, 5)])))
            case .otpSubmitted:
                generator.wait(500...4_000)
                let verdict = generator.random.weighted([("accepted", 60), ("incorrect", 25), ("expired", 10), ("silent", 5)])
                switch verdict {
                case "accepted":
                    perform(.confirmActivation)
                    note("activated:otp")
                    return finish("activated")
                case "incorrect":
                    attemptsLeft -= 1
                    perform(.rejectOTP(reason: .incorrect, attemptsRemaining: attemptsLeft))
                    note(attemptsLeft == 0 ? "otp:exhausted" : "otp:incorrect")
                    if attemptsLeft == 0 && generator.random.chance(60) {
                        perform(.fail(reason: .otpAttemptsExhausted))
                        return finish("failed")
                    }
                case "expired":
                    perform(.rejectOTP(reason: .expired, attemptsRemaining: generator.random.chance(50) ? attemptsLeft : nil))
                    note("otp:expired")
                default:
                    // A wrong OTP reported without a count: back to otpNeeded.
                    perform(.rejectOTP(reason: .incorrect))
                    note("otp:incorrectNoCount")
                }
            case .appToAppSelected:
                if maybeEnd(interrupt: 5, cancel: 2, expire: 1, fail: 1, provisioned: 1) { return finish("end") }
                if case .pendingActivation(_, let now) = state, now.step == .interrupted { continue }
                generator.wait(5_000...120_000)
                let withTAV = activation.selectedMethod?.withCryptogram ?? false
                perform(.resumeAppToApp(withTAV: withTAV))
                note(withTAV ? "appToApp:resumedWithTAV" : "appToApp:resumedWithoutTAV")
            case .appToAppResumedWithTAV:
                generator.wait(500...5_000)
                perform(.confirmActivation)
                note("activated:tav")
                return finish("activated")
            case .awaitingIssuer:
                if maybeEnd(interrupt: 5, cancel: 5, expire: 20, fail: 2, provisioned: 0) { return finish("end") }
                if case .pendingActivation(_, let now) = state, now.step == .interrupted { continue }
                generator.wait(300_000...172_800_000)
                perform(.receiveCPSNotification(messageCode: CPSMessageCode.tokenProvisioned))
                note("activated:issuer")
                return finish("activated")
            case .interrupted:
                let choice = generator.random.weighted([("resume", 55), ("cancel", 15), ("expire", 15), ("push", 10), ("fail", 5)])
                switch choice {
                case "resume":
                    generator.wait(60_000...86_400_000)
                    perform(.resumeActivation)
                    note("resumed")
                case "cancel":
                    perform(.cancel)
                    return finish("cancelledWhileInterrupted")
                case "expire":
                    generator.wait(3_600_000...86_400_000)
                    perform(.expire)
                    return finish("expiredWhileInterrupted")
                case "push":
                    generator.wait(300_000...86_400_000)
                    perform(.receiveCPSNotification(messageCode: CPSMessageCode.tokenProvisioned))
                    return finish("activatedWhileInterrupted")
                default:
                    perform(.fail(reason: .other))
                    return finish("failedWhileInterrupted")
                }
            }
        }
    }
}
