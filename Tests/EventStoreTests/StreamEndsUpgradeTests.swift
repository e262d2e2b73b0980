import JournalCore
import Testing

@testable import EventStore

/// Journals written before the streams' ends were recorded (SQLite schema 3 and older,
/// PostgreSQL 2 and older): read as they are when opened read-only, upgraded in one transaction
/// when opened for writing.
@Suite("Stream ends: upgrades")
struct StreamEndsUpgradeTests {
    /// A version 3 file: a journal of today's schema without the stream ends (its columns and
    /// trigger), with version 3's trigger that refuses every update of a stream.
    static func makeVersion3(at path: String, events: Int) throws {
        let store = try TreeUpgradeTests.makeJournal(at: path, events: events)
        try store.withConnection { db in
            try db.execute(
                """
                DROP TRIGGER journal_streams_forward_only;
                ALTER TABLE journal_streams DROP COLUMN last_version;
                ALTER TABLE journal_streams DROP COLUMN last_position;
                CREATE TRIGGER journal_streams_no_update BEFORE UPDATE ON journal_streams
                    BEGIN SELECT RAISE(ABORT, 'journal streams are immutable'); END;
                PRAGMA user_version = 3;
                """)
        }
    }

    /// Each stream's (name, last version, last position) as `journal_streams` records them.
    static func recordedEnds(_ store: SQLiteEventStore) throws -> [String] {
        try store.withConnection { db in
            let statement = try db.prepare(
                "SELECT name, last_version, last_position FROM journal_streams ORDER BY name")
            var rows: [String] = []
            while try statement.step() {
                rows.append("\(statement.text(at: 0)) \(statement.int64(at: 1)) \(statement.int64(at: 2))")
            }
            return rows
        }
    }

    /// Each stream's last event as its events say, in the form of `recordedEnds`.
    static func storedEnds(_ store: any EventStore) throws -> [String] {
        try store.streams(category: nil).sorted { $0.rawValue < $1.rawValue }.map { stream in
            let last = try store.read(stream: stream, from: .max, direction: .backward, limit: 1)[0]
            return "\(stream) \(last.version) \(last.position)"
        }
    }

    static func triggers(_ store: SQLiteEventStore) throws -> [String] {
        try store.withConnection { db in
            let statement = try db.prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'journal_streams%' ORDER BY name")
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0)) }
            return names
        }
    }

    @Test("a version 3 SQLite journal opened read-only is read as it is: stream reads do not see a cut tail")
    func version3ReadOnly() throws {
        let path = TemporaryDirectory.make().file("j.db")
        try Self.makeVersion3(at: path, events: 300)
        // Stream 0's last 30 events (its last batch is 151…200; 201…300 follow, stream 1's
        // first of them linking to 200, stream 2's not).
        do {
            let db = try SQLiteConnection(path: path)
            defer { db.close() }
            try db.execute(
                "DROP TRIGGER journal_events_no_delete; DELETE FROM journal_events WHERE position BETWEEN 171 AND 200")
        }
        var readOnly = TreeUpgradeTests.configuration
        readOnly.readOnly = true
        let reader = try SQLiteEventStore(path: path, configuration: readOnly)
        #expect(try reader.readStream(Fixture.stream(0)).count == 70)
        #expect(try reader.readStream(Fixture.stream(2)).count == 100)
        let error = try #require(throws: EventStoreError.self) { try reader.verify() }
        #expect(error.code == .integrity && error.position == 171)
        #expect(try reader.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 3)
        #expect(try reader.treeSize() == 300)
    }

    @Test("a version 3 SQLite journal opened for writing records every stream's last event, in one upgrade")
    func version3Upgrade() throws {
        let path = TemporaryDirectory.make().file("j.db")
        try Self.makeVersion3(at: path, events: 700)
        let store = try SQLiteEventStore(path: path, configuration: TreeUpgradeTests.configuration)
        #expect(try store.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 4)
        #expect(try Self.triggers(store) == ["journal_streams_forward_only", "journal_streams_no_delete"])
        #expect(try Self.recordedEnds(store) == Self.storedEnds(store))
        #expect(try Self.recordedEnds(store).count == 3)
        try store.append(Fixture.events(1_000..<1_010), to: Fixture.stream(1), expectedVersion: .any)
        try store.append(Fixture.events(1_010..<1_011), to: Fixture.stream(7), expectedVersion: .noStream)
        #expect(try Self.recordedEnds(store) == Self.storedEnds(store))
        #expect(try store.verify().events == 711)
        // A stream's tail cut from the middle of the log is now seen by its reads.
        try SQLiteTampering(store: store).dropImmutabilityTriggers()
        #expect(!SQLiteTampering(store: store).sqlIsRefused("DELETE FROM journal_events WHERE position = 710"))
        CheckedReadsConformanceTests.expectIntegrity(at: 710, "stream 1") {
            _ = try store.readStream(Fixture.stream(1))
        }
    }

    @Test("a version 2 SQLite journal opened for writing gets its tree and its stream ends, in one upgrade")
    func version2Upgrade() throws {
        let path = TemporaryDirectory.make().file("j.db")
        try Self.makeVersion3(at: path, events: 300)
        do {
            let db = try SQLiteConnection(path: path)
            defer { db.close() }
            try db.execute(
                """
                DROP TRIGGER journal_tree_no_delete; DROP TRIGGER journal_tree_append_only;
                DROP TRIGGER journal_checkpoints_no_update; DROP TRIGGER journal_checkpoints_no_delete;
                DROP TABLE journal_tree; DROP TABLE journal_checkpoints;
                PRAGMA user_version = 2;
                """)
        }
        let store = try SQLiteEventStore(path: path, configuration: TreeUpgradeTests.configuration)
        #expect(try store.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 4)
        #expect(try Self.recordedEnds(store) == Self.storedEnds(store))
        try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [1, 256, 300])
        #expect(try store.verify().events == 300)
    }

    @Test("a journal load and a restore record every stream's last event")
    func journalLoadRecordsTheEnds() throws {
        let directory = TemporaryDirectory.make()
        let load = try SQLiteJournalLoad(path: directory.file("j.db"), configuration: TreeUpgradeTests.configuration)
        let preparer = try load.makePreparer()
        for batch in PreparedLoadTests.batches() { try load.append(preparer.prepare(batch)) }
        try load.append([StreamAppend(stream: Fixture.stream(90), events: Fixture.events(9_000..<9_003))])
        try load.finish()
        let loaded = try SQLiteEventStore(path: directory.file("j.db"), configuration: TreeUpgradeTests.configuration)
        #expect(try Self.recordedEnds(loaded) == Self.storedEnds(loaded))
        #expect(try Self.recordedEnds(loaded).count > 3)
        _ = try loaded.verify()
    }

    @Test(
        "a version 2 PostgreSQL journal: read-only it is read as it is, a writer records every stream's last event",
        .enabled(if: !PostgresTestServer.skipped))
    func postgresVersion2Upgrade() throws {
        let url = try PostgresTestServer.freshURL()
        var configuration = PostgresEventStore.Configuration(clock: FixedClock.epoch, dictionaryTrainingEvents: 40)
        do {
            let store = try PostgresEventStore(url: url, configuration: configuration)
            for n in stride(from: 0, to: 600, by: 50) {
                try store.append(Fixture.events(n..<(n + 50)), to: Fixture.stream(n / 50 % 3), expectedVersion: .any)
            }
            try store.withConnection { pg in
                try pg.execute(
                    """
                    DROP TRIGGER journal_streams_forward_only ON journal_streams;
                    DROP TRIGGER journal_streams_no_delete ON journal_streams;
                    ALTER TABLE journal_streams DROP COLUMN last_version, DROP COLUMN last_position;
                    CREATE TRIGGER journal_streams_immutable BEFORE UPDATE OR DELETE ON journal_streams
                        FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
                    DROP TRIGGER journal_meta_immutable ON journal_meta;
                    UPDATE journal_meta SET value = '2' WHERE key = 'schema_version';
                    CREATE TRIGGER journal_meta_immutable BEFORE UPDATE OR DELETE ON journal_meta
                        FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
                    """)
            }
        }
        configuration.readOnly = true
        do {
            let reader = try PostgresEventStore(url: url, configuration: configuration)
            #expect(try reader.verify().headPosition == 600)
            #expect(try reader.readStream(Fixture.stream(1)).count == 200)
            #expect(try reader.treeSize() == 600)
        }
        configuration.readOnly = false
        let store = try PostgresEventStore(url: url, configuration: configuration)
        let recorded = try store.withConnection { pg in
            let version = try pg.query("SELECT value FROM journal_meta WHERE key = 'schema_version'").text(0, 0)
            let rows = try pg.query("SELECT name, last_version, last_position FROM journal_streams ORDER BY name")
            return (
                version,
                (0..<rows.rowCount).map { "\(rows.text($0, 0)) \(rows.int64($0, 1)) \(rows.int64($0, 2))" }
            )
        }
        #expect(recorded.0 == "3")
        #expect(recorded.1 == (try Self.storedEnds(store)))
        try store.append(Fixture.events(1_000..<1_010), to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.verify().events == 610)
        #expect(PostgresTampering(store: store).sqlIsRefused("UPDATE journal_streams SET last_version = 0"))
        #expect(!PostgresTampering(store: store).sqlIsRefused("UPDATE journal_streams SET last_version = last_version"))
    }
}
