import EventStore
import JournalCore
import Testing

@testable import Projections

/// Over a store (a source that scans), the `3ds` and `card` rows are keyed by the store's
/// stream ids: a stream met again by another engine, or after its row was dropped from memory,
/// is read back by that integer key, never looked up by name (no name index is ever made).
@Suite("Rows keyed by the store's stream ids")
struct StoreStreamIDTests {
    private static func store(at db: TemporaryDatabase) throws -> any EventStore {
        PostgresURL.isPostgres(db.location)
            ? try PostgresEventStore(url: db.location)
            : try SQLiteEventStore(path: db.path, configuration: .init(synchronous: .off))
    }

    private static func append(_ events: ArraySlice<RecordedEvent>, to store: any EventStore) throws {
        for event in events {
            try store.append(
                [
                    ProposedEvent(
                        id: UUIDTextForTests.make(event.position), type: event.type,
                        occurredAt: event.occurredAt, data: event.data,
                        recordedAt: event.occurredAt)
                ],
                to: event.stream, expectedVersion: event.version == 0 ? .noStream : .exact(event.version - 1))
        }
    }

    @Test(
        "catch-ups by new engines, with rows dropped from memory and an interrupted rebuild, match the reference",
        arguments: DatabaseBackend.all)
    func catchUpsByNewEnginesOverAStoreMatchTheReference(backend: DatabaseBackend) throws {
        var generator = LegalLogGenerator(seed: 91)
        let log = generator.log(transactions: 50, digitizations: 50)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let store = try Self.store(at: db)
        var delivered = 0
        var step = 0
        while delivered < log.count {
            let next = min(log.count, delivered + 37 + step * 11)
            try Self.append(log[delivered..<next], to: store)
            delivered = next
            // A new engine each time (a new `journal query` process): the streams that go on
            // have rows stored by an earlier engine, found by their stream id.
            let engine = try ProjectionEngine(journal: db.location, source: StoreEventSource(store: store))
            defer { engine.close() }
            engine.batchSize = 16
            engine.limitStreamCache(to: 3)
            if step == 3 {
                try engine.rebuild(maxBatches: 2) // interrupted: the next engine resumes it
            } else {
                try engine.catchUp()
            }
            step += 1
        }
        let engine = try ProjectionEngine(journal: db.location, source: StoreEventSource(store: store))
        defer { engine.close() }
        try engine.catchUp()
        try CheckpointTests.expectMatchesReference(engine, log)
        // Every stream found again by its sid: the name index was never needed.
        for table in [
            ThreeDSProjection.streamTable(try engine.generation(.threeDS)),
            CardProjection.streamTable(try engine.generation(.card))
        ] {
            #expect(try !engine.db.indexExists(table + "_name"))
        }
        // Each row's sid is its stream's id in the store (the name is not kept).
        let scanner = try #require(store as? any EventScanning)
        let st = try engine.db.statement(
            "SELECT sid, name FROM \(ThreeDSProjection.streamTable(try engine.generation(.threeDS))) ORDER BY sid")
        var rows = 0
        while try st.step() {
            #expect(try scanner.streamName(id: st.int(0)).hasPrefix("3ds-"))
            #expect(st.text(1) == "")
            rows += 1
        }
        st.reset()
        #expect(rows == Set(log.filter { $0.stream.rawValue.hasPrefix("3ds-") }.map(\.stream)).count)
    }
}

extension ProjectionDatabase {
    /// True when an index of that name exists (tests).
    func indexExists(_ name: String) throws(ProjectionError) -> Bool {
        let sql =
            isPostgres
            ? "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1"
            : "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1"
        let st = try statement(sql)
        st.bind(1, name)
        defer { st.reset() }
        return try st.step()
    }
}
