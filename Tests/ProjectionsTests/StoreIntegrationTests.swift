import EventStore
import JournalCore
import Projections
import Testing

/// The read models live in the journal's own database (SQLite file or PostgreSQL schema),
/// beside the store's tables.
@Suite("Read models inside the journal's database")
struct StoreIntegrationTests {
    @Test(arguments: DatabaseBackend.all)
    func queriesOverTheStoreMatchTheReferenceAndTheJournalStillVerifies(backend: DatabaseBackend) throws {
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        var generator = LegalLogGenerator(seed: 77)
        let log = generator.log(transactions: 40, digitizations: 40)
        let store: any EventStore =
            PostgresURL.isPostgres(db.location)
            ? try PostgresEventStore(url: db.location)
            : try SQLiteEventStore(path: db.path, configuration: .init(synchronous: .off))
        // Append in log order, one event at a time per stream, as concurrent users would.
        for event in log {
            try store.append(
                [
                    ProposedEvent(
                        id: UUIDTextForTests.make(event.position), type: event.type,
                        occurredAt: event.occurredAt, data: event.data,
                        recordedAt: event.occurredAt)
                ],
                to: event.stream, expectedVersion: event.version == 0 ? .noStream : .exact(event.version - 1))
        }
        let engine = try ProjectionEngine(journal: db.location, source: StoreEventSource(store: store))
        defer { engine.close() }
        let reference = Reference(log)
        #expect(try engine.otp() == reference.otp(.all))
        #expect(try engine.timeouts() == reference.timeouts(.all))
        #expect(try engine.latency() == reference.latency(.all))
        // New events reach the read model at the next query.
        let more = LegalLogGenerator(seed: 78).logAfter(log)
        for event in more {
            try store.append(
                [
                    ProposedEvent(
                        id: UUIDTextForTests.make(event.position), type: event.type,
                        occurredAt: event.occurredAt, data: event.data,
                        recordedAt: event.occurredAt)
                ],
                to: event.stream, expectedVersion: event.version == 0 ? .noStream : .exact(event.version - 1))
        }
        let all = Reference(log + more)
        #expect(try engine.funnel() == all.funnel(.all))
        // Each query catches up only the projections it reads: `funnel` reads `3ds`; `events`
        // (the events a window covers) is built by the first `run`.
        let head = Int64(log.count + more.count)
        #expect(try engine.status().map(\.checkpoint) == [0, head, Int64(log.count), 0])
        #expect(try engine.idv() == all.idv(.all))
        #expect(try engine.run(.otp).events == head)
        #expect(try engine.status().filter { $0.name != .streams }.allSatisfy { $0.lag == 0 && $0.checkpoint == head })
        let report = try store.verify()
        #expect(report.events == Int64(log.count + more.count))
    }
}

enum UUIDTextForTests {
    static func make(_ n: Int64) -> String {
        "00000000-0000-4000-8000-" + String(n, radix: 16).leftPadded(12)
    }
}

extension LegalLogGenerator {
    /// A second workload on other streams, numbered after `log`.
    func logAfter(_ log: [RecordedEvent]) -> [RecordedEvent] {
        var copy = self
        let extra = copy.log(transactions: 10, digitizations: 10)
        let offset = Int64(log.count)
        return extra.map { event in
            var moved = event
            moved.position += offset
            // Other stream names than the first workload's.
            moved.stream = try! StreamName(event.stream.rawValue.replacingOccurrences("-0000-4000-", "-1111-4000-"))
            return moved
        }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
