import Domain
import JournalCore
import Simulator
import Testing

/// `execute` is `decide` for a caller that keeps the state: the same events, and the state
/// folding them gives.
@Suite("Executed commands")
struct ExecutedCommandTests {
    /// An environment at `time` whose ids count up from zero, so that two calls give the same ids.
    static func environment(at time: Timestamp = Timestamp(millisecondsSinceEpoch: 1_795_939_200_000)) -> Environment {
        final class Counter: @unchecked Sendable { var next = 0 }
        let counter = Counter()
        return Environment(
            now: { time },
            newID: {
                counter.next += 1
                let digits = String(counter.next)
                return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
            })
    }

    @Test("execute gives decide's events and the state they fold to", arguments: Array(UInt64(1)...10))
    func executeGivesDecidesEventsAndTheStateTheyFoldTo(seed: UInt64) throws {
        let generator = JourneyGenerator(seed: seed)
        for index in 0..<40 {
            let journey = generator.journey(index % 2 == 0 ? .threeDS : .card)
            var threeDS = ThreeDSTransaction.initial
            var card = CardDigitization.initial
            // Each command runs at the time its first event was generated (the timeout rules).
            var produced = 0
            for command in journey.commands {
                let time = journey.events[min(produced, journey.events.count - 1)].occurredAt
                switch command {
                case let .threeDS(command):
                    let decided = try ThreeDSTransaction.decide(command, threeDS, Self.environment(at: time)).get()
                    var executed: [NewEvent<ThreeDSEvent>] = []
                    let folded = decided.reduce(threeDS) {
                        ThreeDSTransaction.evolve($0, $1.event, occurredAt: $1.occurredAt)
                    }
                    #expect(
                        ThreeDSTransaction.execute(command, &threeDS, Self.environment(at: time)) {
                            executed.append($0)
                        } == nil)
                    #expect(executed == decided)
                    #expect(threeDS == folded)
                    produced += decided.count
                case let .card(command):
                    let decided = try CardDigitization.decide(command, card, Self.environment(at: time)).get()
                    var executed: [NewEvent<CardEvent>] = []
                    let folded = decided.reduce(card) {
                        CardDigitization.evolve($0, $1.event, occurredAt: $1.occurredAt)
                    }
                    #expect(
                        CardDigitization.execute(command, &card, Self.environment(at: time)) { executed.append($0) }
                            == nil)
                    #expect(executed == decided)
                    #expect(card == folded)
                    produced += decided.count
                }
            }
        }
    }

    @Test func aCommandAlreadyTakenEffectEmitsNothingAndKeepsTheState() {
        let environment = Self.environment()
        let create = ThreeDSTransaction.Command.createTransaction(
            directoryServerID: "A000000003", messageVersion: .v2_2_0)
        var state = ThreeDSTransaction.initial
        var emitted = 0
        #expect(ThreeDSTransaction.execute(create, &state, environment) { _ in emitted += 1 } == nil)
        #expect(emitted == 1)
        let created = state
        #expect(ThreeDSTransaction.execute(create, &state, environment) { _ in emitted += 1 } == nil)
        #expect(emitted == 1)
        #expect(state == created)
    }

    @Test func aRefusedCommandEmitsNothingAndKeepsTheState() {
        var state = ThreeDSTransaction.initial
        var emitted = 0
        let rejection = ThreeDSTransaction.execute(.timeOut, &state, Self.environment()) { _ in emitted += 1 }
        #expect(rejection != nil)
        #expect(emitted == 0)
        #expect(state == ThreeDSTransaction.initial)
    }
}
