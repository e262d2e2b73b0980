import Domain
import EventStore
import JournalCore
import Simulator

/// A workload from the domain's simulator (every event passed the domain's rules), its
/// journeys interleaved by occurredAt the way concurrent users' events reach the journal.
enum SimulatorWorkload {
    static func log(seed: UInt64, transactions: Int, digitizations: Int) -> [RecordedEvent] {
        let generator = JourneyGenerator(seed: seed)
        var journeys: [GeneratedJourney] = []
        for i in 0..<(transactions + digitizations) {
            // Alternate categories while both have journeys left.
            let threeDS =
                i % 2 == 0
                ? journeys.count(where: { $0.category == .threeDS }) < transactions
                : journeys.count(where: { $0.category == .card }) >= digitizations
            journeys.append(generator.journey(threeDS ? .threeDS : .card))
        }
        var cursors = [Int](repeating: 0, count: journeys.count)
        var builder = LogBuilder()
        while true {
            var next: Int?
            for j in journeys.indices where cursors[j] < journeys[j].events.count {
                let t = journeys[j].events[cursors[j]].occurredAt
                if next.map({ t < journeys[$0].events[cursors[$0]].occurredAt }) ?? true { next = j }
            }
            guard let j = next else { break }
            let event = journeys[j].events[cursors[j]]
            builder.add(
                event.stream, event.type, ms: event.occurredAt.millisecondsSinceEpoch,
                JSONWriter.string(.object(event.data)))
            cursors[j] += 1
        }
        return builder.events
    }
}
