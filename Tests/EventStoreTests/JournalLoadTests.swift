import EventStore
import Foundation
import JournalCore
import Testing

/// `SQLiteJournalLoad`: a new journal written in one go appears complete at its path, holding
/// the same rows as one appended to the usual way, or does not appear at all.
@Suite("SQLite journal load")
struct JournalLoadTests {
    static func configuration() -> SQLiteEventStore.Configuration {
        var configuration = SQLiteEventStore.Configuration(clock: FixedClock.epoch, dictionaryTrainingEvents: 40)
        configuration.synchronous = .normal
        return configuration
    }

    /// Batches of appends to many streams, interleaved, with meta on some events and payloads
    /// long enough to be compressed once the dictionary is trained (after 40 events).
    static func batches(streams: Int = 30, rounds: Int = 6) -> [[StreamAppend]] {
        var batches: [[StreamAppend]] = []
        var n = 0
        for round in 0..<rounds {
            var batch: [StreamAppend] = []
            for s in 0..<streams where (s + round) % 3 != 0 || round == 0 {
                let count = 1 + (s + round) % 3
                let events = (0..<count).map { _ -> ProposedEvent in
                    n += 1
                    let padding = String(repeating: "challenge-", count: n % 7)
                    return Fixture.event(
                        n, data: #"{"n":\#(n),"text":"\#(padding)"}"#,
                        meta: n % 4 == 0 ? #"{"sdk":"3ds","n":\#(n)}"# : nil)
                }
                batch.append(StreamAppend(stream: Fixture.stream(s), expectedVersion: .any, events: events))
            }
            batches.append(batch)
        }
        return batches
    }

    static func journalMode(_ db: SQLiteConnection) throws -> String? {
        let statement = try db.cached("PRAGMA journal_mode")
        defer { statement.reset() }
        return try statement.step() ? statement.text(at: 0) : nil
    }

    static func files(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test
    func aLoadedJournalHoldsTheRowsOfTheSameAppendsMadeTheUsualWay() throws {
        let directory = TemporaryDirectory.make()
        let usual = try SQLiteEventStore(path: directory.file("usual.db"), configuration: Self.configuration())
        let load = try SQLiteJournalLoad(path: directory.file("loaded.db"), configuration: Self.configuration())
        for batch in Self.batches() {
            let expected = try usual.append(batch)
            #expect(try load.append(batch) == expected)
        }
        #expect(try load.finish() == usual.headPosition())

        let loaded = try SQLiteEventStore(path: directory.file("loaded.db"), configuration: Self.configuration())
        let rows = try loaded.readAll(from: 1, limit: .max)
        #expect(rows.count > 200)
        #expect(rows == (try usual.readAll(from: 1, limit: .max)))
        let report = try loaded.verify()
        #expect(report.headHash == (try usual.verify()).headHash)
        let codecs = try loaded.withConnection { db in
            try db.scalarInt("SELECT count(*) FROM journal_events WHERE codec > 0")
        }
        #expect(codecs ?? 0 > 0)
        #expect(try Self.files(in: directory).filter { $0.contains(".loading-") } == [])
    }

    @Test
    func aFinishedLoadIsAWALJournalWhoseIDIndexCoversTheWholeLog() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        let load = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        for batch in Self.batches() { try load.append(batch) }
        let head = try load.finish()

        let store = try SQLiteEventStore(path: path, configuration: Self.configuration())
        let (mode, through, indexed) = try store.withConnection { db in
            (
                try Self.journalMode(db), try db.scalarInt("SELECT through FROM journal_id_index"),
                try db.scalarInt("SELECT count(*) FROM journal_event_ids")
            )
        }
        #expect(mode == "wal")
        #expect(through == head)
        #expect(indexed == head)
        // Ids are found through the index: a retry is idempotent, other content is refused.
        let first = try #require(try store.readAll(from: 1, limit: 1).first)
        let retry = ProposedEvent(
            id: first.id, type: first.type, occurredAt: first.occurredAt, data: first.data,
            meta: first.meta)
        #expect(try store.append([retry], to: first.stream, expectedVersion: .any).written == 0)
        let other = ProposedEvent(id: first.id, type: first.type, occurredAt: first.occurredAt, data: Array("{}".utf8))
        let error = try #require(throws: EventStoreError.self) {
            try store.append([other], to: first.stream, expectedVersion: .any)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(try store.headPosition() == head)
    }

    static func schema(_ store: SQLiteEventStore) throws -> [String] {
        try store.withConnection { db in
            let statement = try db.cached(
                "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
            defer { statement.reset() }
            var rows: [String] = []
            while try statement.step() { rows.append(statement.text(at: 0)) }
            return rows
        }
    }

    @Test
    func aLoadedJournalHasTheSchemaOfAJournalCreatedTheUsualWayStreamNameIndexIncluded() throws {
        let directory = TemporaryDirectory.make()
        let usual = try SQLiteEventStore(path: directory.file("usual.db"), configuration: Self.configuration())
        let load = try SQLiteJournalLoad(path: directory.file("loaded.db"), configuration: Self.configuration())
        for batch in Self.batches(rounds: 2) {
            try usual.append(batch)
            try load.append(batch)
        }
        try load.finish()
        let loaded = try SQLiteEventStore(path: directory.file("loaded.db"), configuration: Self.configuration())
        let schema = try Self.schema(loaded)
        #expect(schema.contains { $0.hasPrefix("index journal_streams_name: CREATE UNIQUE INDEX") })
        #expect(schema == (try Self.schema(usual)))
        // The index is there and unique: a stream name cannot be stored twice.
        #expect(throws: SQLiteError.self) {
            try loaded.withConnection { db in
                try db.execute("INSERT INTO journal_streams(name) VALUES ('\(Fixture.stream(0).rawValue)')")
            }
        }
    }

    /// Streams are found without a name index past the writer's caches: a transaction that
    /// forgets its streams (every 3 here) and batches that go on with them later, including a
    /// stream first created in a refused batch, whose id the next new stream takes.
    @Test
    func aLoadFindsItsStreamsPastTheCachesAndAfterARefusedBatch() throws {
        let directory = TemporaryDirectory.make()
        var configuration = Self.configuration()
        configuration.transactionStreamMemory = 3
        let usual = try SQLiteEventStore(path: directory.file("usual.db"), configuration: configuration)
        let load = try SQLiteJournalLoad(path: directory.file("loaded.db"), configuration: configuration)
        var n = 1000
        func next(_ count: Int) -> [ProposedEvent] {
            defer { n += count }
            return Fixture.events(n..<(n + count))
        }
        // One transaction: 12 new streams, then each of them again.
        let first =
            (0..<12).map { StreamAppend(stream: Fixture.stream($0), expectedVersion: .noStream, events: next(1)) }
            + (0..<12).map { StreamAppend(stream: Fixture.stream($0), expectedVersion: .exact(0), events: next(2)) }
        #expect(try load.append(first) == usual.append(first))
        // A refused batch creates stream 50 and takes it back; stream 51 gets its id.
        let refused = [
            StreamAppend(stream: Fixture.stream(50), expectedVersion: .noStream, events: next(1)),
            StreamAppend(stream: Fixture.stream(3), expectedVersion: .exact(0), events: next(1))
        ]
        #expect(throws: EventStoreError.self) { try load.append(refused) }
        #expect(throws: EventStoreError.self) { try usual.append(refused) }
        let later =
            [StreamAppend(stream: Fixture.stream(51), expectedVersion: .noStream, events: next(1))]
            + (0..<12).map { StreamAppend(stream: Fixture.stream($0), expectedVersion: .exact(2), events: next(1)) }
            + [
                StreamAppend(stream: Fixture.stream(50), expectedVersion: .noStream, events: next(2)),
                StreamAppend(stream: Fixture.stream(51), expectedVersion: .exact(0), events: next(1)),
                StreamAppend(stream: Fixture.stream(50), expectedVersion: .exact(1), events: next(1))
            ]
        #expect(try load.append(later) == usual.append(later))
        // A stream that exists is not created again, whatever the caches forgot.
        let conflict = try #require(throws: EventStoreError.self) {
            try load.append([StreamAppend(stream: Fixture.stream(7), expectedVersion: .noStream, events: next(1))])
        }
        #expect(conflict.code == .conflict)
        #expect(try load.finish() == usual.headPosition())
        let loaded = try SQLiteEventStore(path: directory.file("loaded.db"), configuration: configuration)
        #expect(try loaded.readAll(from: 1, limit: .max) == usual.readAll(from: 1, limit: .max))
        #expect(try loaded.streams(category: nil).count == 14)
        #expect(try loaded.verify().headHash == usual.verify().headHash)
    }

    @Test
    func anIDThatOccursTwiceFailsTheLoadAndLeavesNothing() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        let load = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        try load.append([
            StreamAppend(stream: Fixture.stream(1), expectedVersion: .noStream, events: Fixture.events(0..<5))
        ])
        try load.append([
            StreamAppend(stream: Fixture.stream(2), expectedVersion: .noStream, events: [Fixture.event(3)])
        ])
        let error = try #require(throws: EventStoreError.self) { try load.finish() }
        #expect(error.code == .duplicateIDConflict)
        #expect(error.eventID == Fixture.uuid(3))
        #expect(error.position == 4)
        #expect(error.message.contains(Fixture.stream(2).rawValue))
        #expect(try Self.files(in: directory) == [])
        #expect(throws: EventStoreError.self) { try load.finish() }
    }

    @Test
    func aLoadRefusesAPathThatExists() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        try Data("not mine".utf8).write(to: URL(fileURLWithPath: path))
        #expect(!SQLiteJournalLoad.canStart(at: path))
        #expect(!SQLiteJournalLoad.canStart(at: ":memory:"))
        let error = try #require(throws: EventStoreError.self) {
            _ = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        }
        #expect(error.code == .invalidInput)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not mine")
        #expect(try Self.files(in: directory) == ["j.db"])
    }

    @Test
    func aFileThatAppearsDuringTheLoadIsNotReplaced() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        let load = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        for batch in Self.batches(rounds: 2) { try load.append(batch) }
        try Data("another writer".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: EventStoreError.self) { try load.finish() }
        #expect(error.code == .conflict)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "another writer")
        #expect(try Self.files(in: directory) == ["j.db"])
    }

    @Test
    func aLoadDroppedWithoutFinishingRemovesItsFile() throws {
        let directory = TemporaryDirectory.make()
        do {
            let load = try SQLiteJournalLoad(path: directory.file("j.db"), configuration: Self.configuration())
            try load.append(Self.batches(rounds: 1)[0])
            #expect(try Self.files(in: directory).count == 1)
            #expect(load.loadingPath.hasPrefix(directory.file("j.db.loading-")))
        }
        #expect(try Self.files(in: directory) == [])
    }

    @Test
    func aRefusedBatchWritesNothingAndTheLoadGoesOn() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        let load = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        try load.append([
            StreamAppend(stream: Fixture.stream(1), expectedVersion: .noStream, events: Fixture.events(0..<3))
        ])
        let error = try #require(throws: EventStoreError.self) {
            try load.append([
                StreamAppend(stream: Fixture.stream(2), expectedVersion: .noStream, events: Fixture.events(3..<5)),
                StreamAppend(stream: Fixture.stream(1), expectedVersion: .exact(0), events: Fixture.events(5..<6))
            ])
        }
        #expect(error.code == .conflict)
        try load.append([
            StreamAppend(stream: Fixture.stream(1), expectedVersion: .exact(2), events: Fixture.events(6..<7))
        ])
        #expect(try load.finish() == 4)
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration())
        #expect(try store.lastVersion(of: Fixture.stream(2)) == nil)
        #expect(try store.readAll(from: 1, limit: .max).map(\.id) == [0, 1, 2, 6].map { Fixture.uuid($0) })
        #expect(try store.verify().events == 4)
    }

    @Test
    func aLoadRefusesAPathWithAnEarlierDatabasesWALLeftBehind() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        try Data("stale frames".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        let error = try #require(throws: EventStoreError.self) {
            _ = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        }
        #expect(error.code == .invalidInput)
        #expect(error.message.contains("j.db-wal exists"))
        #expect(try Self.files(in: directory) == ["j.db-wal"])

        // Left there while the load ran: the journal is not put in place.
        try FileManager.default.removeItem(atPath: path + "-wal")
        let load = try SQLiteJournalLoad(path: path, configuration: Self.configuration())
        try load.append(Self.batches(rounds: 1)[0])
        try Data("stale frames".utf8).write(to: URL(fileURLWithPath: path + "-journal"))
        let late = try #require(throws: EventStoreError.self) { try load.finish() }
        #expect(late.code == .invalidInput)
        #expect(try Self.files(in: directory) == ["j.db-journal"])
    }
}
