import Domain
import JournalCore
import Simulator
import Testing

/// `execute` is `decide` plus the state: the same events, and the state folding them gives.
@Suite("Executed commands")
struct ExecutedCommandTests {
    /// An environment at `time` whose ids count up from zero, so that two calls give the same ids.
    static func environment(at time: Timestamp = Timestamp(millisecondsSinceEpoch: 1_795_939_200_000)) -> Environment {
        final class Counter: @unchecked Sendable { var next = 0 }
        let counter = Counter()
        return Environment(now: { time },
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
                    let executed = try ThreeDSTransaction.execute(command, threeDS, Self.environment(at: time)).get()
                    #expect(executed.events == decided)
                    #expect(executed.count == decided.count)
                    for (position, event) in decided.enumerated() { #expect(executed[position] == event) }
                    let folded = decided.reduce(threeDS) { ThreeDSTransaction.evolve($0, $1.event, occurredAt: $1.occurredAt) }
                    #expect(executed.state == folded)
                    threeDS = executed.state
                    produced += decided.count
                case let .card(command):
                    let decided = try CardDigitization.decide(command, card, Self.environment(at: time)).get()
                    let executed = try CardDigitization.execute(command, card, Self.environment(at: time)).get()
                    #expect(executed.events == decided)
                    #expect(executed.count == decided.count)
                    let folded = decided.reduce(card) { CardDigitization.evolve($0, $1.event, occurredAt: $1.occurredAt) }
                    #expect(executed.state == folded)
                    card = executed.state
                    produced += decided.count
                }
            }
        }
    }

    @Test func aCommandAlreadyTakenEffectExecutesToNoEventAndTheSameState() throws {
        let environment = Self.environment()
        let create = ThreeDSTransaction.Command.createTransaction(directoryServerID: "A000000003", messageVersion: .v2_2_0)
        let first = try ThreeDSTransaction.execute(create, ThreeDSTransaction.initial, environment).get()
        #expect(first.count == 1)
        let again = try ThreeDSTransaction.execute(create, first.state, environment).get()
        #expect(again.count == 0)
        #expect(again.events.isEmpty)
        #expect(again.state == first.state)
    }
}
