import Domain
import EventStore
import Glibc
import JournalCore
import Projections
import Simulator
import Testing

/// Not a test: fills a journal for the projections benchmark (docs/projections.md) when
/// `PROJECTIONS_BENCH_DB` names a file that does not exist yet; does nothing otherwise.
/// `PROJECTIONS_BENCH_JOURNEYS` sets the number of journeys (default 1,000,000, about 8.5 M events).
@Suite("Benchmark workload")
struct BenchmarkWorkloadTests {
    @Test func fillsABenchmarkJournalWhenAsked() throws {
        guard let path = getenv("PROJECTIONS_BENCH_DB").map({ String(cString: $0) }), access(path, F_OK) != 0 else {
            return
        }
        let journeys = getenv("PROJECTIONS_BENCH_JOURNEYS").flatMap { Int(String(cString: $0)) } ?? 1_000_000
        let store = try SQLiteEventStore(path: path, configuration: .init(synchronous: .off))
        let generator = JourneyGenerator(seed: 2026)
        var batch: [StreamAppend] = []
        var pending = 0
        var written = 0
        for i in 0..<journeys {
            let journey = generator.journey(i % 5 < 3 ? .threeDS : .card)
            let events = journey.events.map { event in
                ProposedEvent(
                    id: event.id, type: event.type, occurredAt: event.occurredAt,
                    data: Array(JSONWriter.string(.object(event.data)).utf8), recordedAt: event.occurredAt)
            }
            batch.append(
                StreamAppend(stream: try StreamName(journey.stream), expectedVersion: .noStream, events: events))
            pending += events.count
            if pending >= 20_000 {
                try store.append(batch)
                written += pending
                batch = []
                pending = 0
            }
        }
        if !batch.isEmpty { try store.append(batch) }
        written += pending
        print("benchmark journal: \(journeys) journeys, \(written) events in \(path)")
    }
}
