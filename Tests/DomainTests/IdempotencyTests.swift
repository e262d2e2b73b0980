import Domain
import JournalCore
import Simulator
import Testing

/// The Equinox property: run a command, fold its events, run it again: nothing new.
@Suite("Command idempotency")
struct IdempotencyTests {
    /// A fixed clock and incrementing ids, as in TCA's `.incrementing`.
    final class TestEnvironment {
        var now: Timestamp
        var counter = 0
        init(now: Timestamp) { self.now = now }
        var environment: Environment {
            Environment(
                now: { [unowned self] in self.now },
                newID: { [unowned self] in
                    self.counter += 1
                    let digits = String(self.counter)
                    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
                })
        }
    }

    /// Commands that record an occurrence each time, by design (documented on `decide`).
    static func isOccurrence(_ command: CardDigitization.Command) -> Bool {
        switch command {
        case .rejectOTP: return true
        case let .receiveCPSNotification(code): return code != CPSMessageCode.tokenProvisioned
        case .checkEligibility, .acceptTerms, .requestDigitization, .recordDecision, .selectIDVMethod,
            .reportActivationRequired, .submitOTP, .resumeAppToApp, .confirmActivation, .interrupt, .resumeActivation,
            .cancel, .expire, .fail:
            return false
        }
    }

    @Test("run, fold, run again yields nothing", arguments: Array(UInt64(1)...UInt64(20)))
    func runFoldRunAgainYieldsNothing(seed: UInt64) throws {
        let generator = JourneyGenerator(seed: seed)
        for index in 0..<40 {
            let journey = generator.journey(index % 2 == 0 ? .threeDS : .card)
            var eventIndex = 0
            var threeDS = ThreeDSTransaction.initial
            var card = CardDigitization.initial
            for command in journey.commands {
                let time = journey.events[eventIndex].occurredAt
                let test = TestEnvironment(now: time)
                switch command {
                case let .threeDS(command):
                    let first = try ThreeDSTransaction.decide(command, threeDS, test.environment).get()
                    #expect(!first.isEmpty)
                    for new in first {
                        #expect(new.event.typeName == journey.events[eventIndex].type)
                        #expect(new.event.data == journey.events[eventIndex].data)
                        threeDS = try ThreeDSTransaction.apply(threeDS, new.event, occurredAt: new.occurredAt).get()
                        eventIndex += 1
                    }
                    let again = ThreeDSTransaction.decide(command, threeDS, test.environment)
                    #expect(again == .success([]), "seed \(seed): \(command) repeated gave \(again)")
                case let .card(command):
                    let first = try CardDigitization.decide(command, card, test.environment).get()
                    #expect(first.count == 1)
                    for new in first {
                        #expect(new.event.typeName == journey.events[eventIndex].type)
                        card = try CardDigitization.apply(card, new.event, occurredAt: new.occurredAt).get()
                        eventIndex += 1
                    }
                    let again = CardDigitization.decide(command, card, test.environment)
                    if !Self.isOccurrence(command) {
                        #expect(again == .success([]), "seed \(seed): \(command) repeated gave \(again)")
                    }
                }
            }
            #expect(eventIndex == journey.events.count)
        }
    }

    @Test func decideUsesTheInjectedClockAndIDs() throws {
        let test = TestEnvironment(now: t0)
        let events = try ThreeDSTransaction.decide(
            .createTransaction(directoryServerID: "A000000004", messageVersion: .v2_2_0),
            .empty, test.environment
        ).get()
        #expect(events.map(\.id) == ["00000000-0000-4000-8000-000000000001"])
        #expect(events.map(\.occurredAt) == [t0])
    }

    @Test func aFinalResponseEndsTheChallengeInOneDecision() throws {
        var state = try #require(
            try fold(threeDSStream, TDS.textScreen + [TDS.request("001", "submitText")]).threeDSState)
        let test = TestEnvironment(now: t0.adding(milliseconds: 60_000))
        let events = try ThreeDSTransaction.decide(.receiveChallengeResponse(.final(.Y)), state, test.environment).get()
        #expect(events.map(\.event.typeName) == ["ChallengeResponseReceived", "ChallengeCompleted"])
        for new in events { state = ThreeDSTransaction.evolve(state, new.event, occurredAt: new.occurredAt) }
        #expect(state.outcomeKey == .completedY)
    }

    @Test func commandsTheRulesRefuseAreRejectedWithTheRule() throws {
        let showing = try #require(try fold(threeDSStream, TDS.textScreen).threeDSState)
        let test = TestEnvironment(now: t0.adding(milliseconds: 10_000))
        let early = ThreeDSTransaction.decide(.timeOut, showing, test.environment)
        #expect(early.failureRule == .threeDSTimeout)
        let wrongAction = ThreeDSTransaction.decide(
            .sendChallengeRequest(action: .oobContinue), showing, test.environment)
        #expect(wrongAction.failureRule == .threeDSRequestAction)
        let shortTimeout = ThreeDSTransaction.decide(
            .startChallenge(timeoutSeconds: 120, acsReferenceNumber: "r"),
            try #require(try fold(threeDSStream, [TDS.created, TDS.params, TDS.ares("C")]).threeDSState),
            test.environment)
        #expect(shortTimeout.failureRule == .catalog)
        #expect(shortTimeout.failureReason == "ChallengeStarted.timeoutSeconds must be >= 300, got 120")
        let otpState = try #require(try fold(cardStream, Card.otpNeeded).cardState)
        let longOTP = CardDigitization.decide(.submitOTP(otpLength: 20), otpState, test.environment)
        #expect(longOTP.failureReason == "OTPSubmitted.otpLength must be between 4 and 12, got 20")
        let unknown = CardDigitization.decide(.selectIDVMethod(idvID: "x"), otpState, test.environment)
        #expect(unknown.failureRule == .cardMethodSelection)
    }
}

extension Result {
    var failureRule: Rejection.Rule? {
        if case let .failure(error) = self { return (error as? Rejection)?.rule }
        return nil
    }

    var failureReason: String? {
        if case let .failure(error) = self { return (error as? Rejection)?.reason }
        return nil
    }
}
