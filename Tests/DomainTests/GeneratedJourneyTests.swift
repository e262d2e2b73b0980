import Domain
import JournalCore
import Simulator
import Testing

/// Many seeded journeys of both flows: all legal, all paths covered, all reproducible.
@Suite("Generated journeys")
struct GeneratedJourneyTests {
    static let seeds: [UInt64] = Array(1...40)
    static let journeysPerSeed = 50

    static func journeys(seed: UInt64) -> [GeneratedJourney] {
        let generator = JourneyGenerator(seed: seed)
        return (0..<journeysPerSeed).map { index in generator.journey(index % 2 == 0 ? .threeDS : .card) }
    }

    @Test("every generated sequence folds without rejection", arguments: seeds)
    func everyGeneratedSequenceFoldsWithoutRejection(seed: UInt64) throws {
        for journey in Self.journeys(seed: seed) {
            var state = try JourneyState.initial(for: journey.stream)
            #expect(state.category == journey.category)
            for event in journey.events {
                #expect(event.stream == journey.stream)
                #expect(UUIDText.isUUID(event.id))
                #expect(SensitiveDataGuard.check(data: event.data, meta: nil) == nil)
                do {
                    try state.apply(type: event.type, data: event.data, occurredAt: event.occurredAt)
                } catch {
                    Issue.record("seed \(seed) \(journey.stream) \(event.type): \(error.reason)")
                    break
                }
            }
            #expect(state == journey.finalState)
            #expect(state.isTerminal, "seed \(seed): \(journey.path)")
        }
    }

    @Test func theSameSeedGivesTheSameJourneys() {
        #expect(Self.journeys(seed: 7) == Self.journeys(seed: 7))
        #expect(Self.journeys(seed: 7) != Self.journeys(seed: 8))
    }

    @Test func everyPathOfBothFlowsIsCovered() {
        var steps = Set<String>()
        var types = Set<String>()
        var threeDSOutcomes = Set<String>()
        var cardOutcomes = Set<String>()
        for seed in Self.seeds {
            for journey in Self.journeys(seed: seed) {
                steps.formUnion(journey.path)
                types.formUnion(journey.events.map(\.type))
                switch journey.finalState {
                case let .threeDS(state): threeDSOutcomes.insert(state.outcomeKey.rawValue)
                case let .card(state): cardOutcomes.insert(state.outcomeKey.rawValue)
                }
            }
        }
        #expect(types == Set(ThreeDSEvent.typeNames + CardEvent.typeNames))
        #expect(threeDSOutcomes == Set(ThreeDSTransaction.OutcomeKey.allCases.map(\.rawValue)).subtracting(["open"]))
        #expect(cardOutcomes == Set(CardDigitization.OutcomeKey.allCases.map(\.rawValue)).subtracting(["open"]))
        let expected = [
            "ares:Y", "ares:N", "ares:U", "ares:A", "ares:C", "ares:D", "ares:R", "ares:I",
            "frictionless", "abandoned:created", "abandoned:authParameters", "abandoned:ares",
            "ui:01", "ui:02", "ui:03", "ui:04", "ui:05", "ui:06", "ui:07",
            "action:submitText", "action:resend", "action:submitSelection", "action:oobContinue", "action:htmlForm",
            "action:continue", "action:cancel", "completedY", "completedN", "cancelled", "timedOut", "protocolError",
            "runtimeError",
            "notEligible", "approved", "declined", "select:otpBySMS", "select:otpByEmail", "select:customerService",
            "select:webService", "select:appToApp+tav", "select:appToApp-tav", "select:otpBySMS:afterResume",
            "select:appToApp+tav:afterResume", "otp:incorrect", "otp:incorrectNoCount", "otp:expired", "otp:exhausted",
            "appToApp:resumedWithTAV", "appToApp:resumedWithoutTAV", "activated:otp", "activated:tav",
            "activated:issuer",
            "activated:outOfBand", "interrupted", "resumed", "cps:other", "cancelledWhileInterrupted",
            "expiredWhileInterrupted", "activatedWhileInterrupted", "failedWhileInterrupted", "expired", "failed"
        ]
        for step in expected { #expect(steps.contains(step), "path step never generated: \(step)") }
    }

    @Test func generatedStreamNamesFollowTheCategoryRules() throws {
        var upper = false
        for journey in Self.journeys(seed: 3) {
            #expect(try StreamCategory.of(stream: journey.stream) == journey.category)
            if journey.category == .card && journey.stream != journey.stream.lowercased() { upper = true }
        }
        #expect(upper, "card streams use both letter cases")
    }
}
