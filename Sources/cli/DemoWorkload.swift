import Domain
import EventStore
import JournalCore
import Simulator

/// The demo's synthetic traffic: journeys from the domain's seeded generator (every path of the
/// 3DS and card rules), appended in one transaction. The same seed gives the same events.
enum DemoWorkload {
    static let seed: UInt64 = 2026

    /// Appends `transactions` 3DS streams and `digitizations` card streams; returns the number of
    /// events appended.
    static func append(transactions: Int, digitizations: Int, to store: any TransactionalEventStore) throws -> Int {
        let generator = JourneyGenerator(seed: seed)
        var appended = 0
        try store.write { transaction in
            let total = transactions + digitizations
            for index in 0..<total {
                // Spread the card journeys evenly among the 3DS ones, as real traffic mixes them.
                let isCard = (index + 1) * digitizations / total > index * digitizations / total
                let category: StreamCategory = isCard ? .card : .threeDS
                let journey = generator.journey(category)
                let events = journey.events.map { event in
                    var data: [UInt8] = []
                    JSONWriter.write(.object(event.data), into: &data)
                    return ProposedEvent(id: event.id, type: event.type, occurredAt: event.occurredAt, data: data)
                }
                try transaction.append(events, to: try StreamName(journey.stream), expectedVersion: .noStream)
                appended += events.count
            }
        }
        return appended
    }
}
