import JournalCore
import Testing

@testable import EventStore

/// The tree of journals written before it existed (upgraded when opened for writing, refused
/// with `.needsUpgrade` when opened read-only), and of journals built by a load.
@Suite("Merkle tree: upgrades and journal loads")
struct TreeUpgradeTests {
    static let configuration: SQLiteEventStore.Configuration = {
        var configuration = SQLiteEventStore.Configuration(clock: FixedClock.epoch, dictionaryTrainingEvents: 40)
        configuration.synchronous = .normal
        return configuration
    }()

    /// A journal of `events` events in batches of 50 over three streams.
    static func makeJournal(at path: String, events: Int) throws -> SQLiteEventStore {
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        for n in stride(from: 0, to: events, by: 50) {
            try store.append(
                Fixture.events(n..<min(n + 50, events)), to: Fixture.stream(n / 50 % 3), expectedVersion: .any)
        }
        return store
    }

    /// A version 2 file: a version 3 journal with the tree's tables taken out. Returns the root
    /// its tree had.
    @discardableResult
    static func makeVersion2(at path: String, events: Int) throws -> TreeHead {
        let store = try makeJournal(at: path, events: events)
        let head = try store.treeHead()
        try store.withConnection { db in
            try db.execute(
                """
                DROP TRIGGER journal_tree_no_delete; DROP TRIGGER journal_tree_append_only;
                DROP TRIGGER journal_checkpoints_no_update; DROP TRIGGER journal_checkpoints_no_delete;
                DROP TABLE journal_tree; DROP TABLE journal_checkpoints;
                PRAGMA user_version = 2;
                """)
        }
        return head
    }

    @Test("a version 2 SQLite journal opened read-only is read as it is, and its tree asks for an upgrade")
    func version2ReadOnly() throws {
        let path = TemporaryDirectory.make().file("j.db")
        try Self.makeVersion2(at: path, events: 300)
        var readOnly = Self.configuration
        readOnly.readOnly = true
        let reader = try SQLiteEventStore(path: path, configuration: readOnly)
        #expect(try reader.verify().headPosition == 300)
        let error = try #require(throws: EventStoreError.self) { try reader.treeSize() }
        #expect(error.code == .needsUpgrade)
        #expect(error.message.contains("open it once with a command that writes"))
        #expect(try reader.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 2)
        for attempt in [
            { _ = try reader.subtreeHash(level: 0, index: 0) }, { _ = try reader.checkpoints() },
            { _ = try reader.leafLine(position: 1) }
        ] {
            #expect(throws: EventStoreError.self) { try attempt() }
        }
    }

    @Test("a version 2 SQLite journal opened for writing gets the tree of its log, in one upgrade")
    func version2Upgrade() throws {
        let path = TemporaryDirectory.make().file("j.db")
        let before = try Self.makeVersion2(at: path, events: 700)
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration)
        #expect(try store.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 4)
        #expect(try store.treeHead() == before)
        try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [1, 256, 699, 700])
        try store.append(Fixture.events(1_000..<1_010), to: Fixture.stream(1), expectedVersion: .any)
        try TreeConformanceTests.expectTreeMatchesLog(store)
        #expect(SQLiteEventStore.immutabilityTriggers.contains("journal_tree_append_only"))
        #expect(
            try store.withConnection { db in
                try db.scalarInt(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'journal_tree%'")
            } == 2)
    }

    @Test(
        "an upgrade across several check batches and tree flushes gets the root the appends made",
        .timeLimit(.minutes(2)))
    func version2UpgradeOfManyBatches() throws {
        let path = TemporaryDirectory.make().file("j.db")
        let events = ScanChainCheck.batchEvents * 4 + SQLiteJournal.treeFlushLeaves / 3 + 17
        let before = try Self.makeVersion2(at: path, events: events)
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration)
        #expect(try store.treeHead() == before)
        try TreeConformanceTests.expectTreeMatchesLog(
            store,
            sizes: [
                ScanChainCheck.batchEvents, ScanChainCheck.batchEvents + 1, SQLiteJournal.treeFlushLeaves,
                SQLiteJournal.treeFlushLeaves + 1, events
            ].map(Int64.init))
    }

    @Test("a version 1 SQLite journal is upgraded through version 2 to 4")
    func version1Upgrade() throws {
        let path = TemporaryDirectory.make().file("j.db")
        try Self.makeVersion2(at: path, events: 30)
        do {
            let store = try SQLiteEventStore(path: path, configuration: Self.configuration)
            try store.withConnection { db in
                try db.execute(
                    """
                    DROP TRIGGER journal_tree_no_delete; DROP TRIGGER journal_tree_append_only;
                    DROP TRIGGER journal_checkpoints_no_update; DROP TRIGGER journal_checkpoints_no_delete;
                    DROP TABLE journal_tree; DROP TABLE journal_checkpoints;
                    DROP TRIGGER journal_event_ids_no_update; DROP TRIGGER journal_event_ids_no_delete;
                    DROP TRIGGER journal_id_index_no_delete; DROP TRIGGER journal_id_index_forward_only;
                    DROP TABLE journal_event_ids; DROP TABLE journal_id_index;
                    CREATE UNIQUE INDEX journal_events_event_id ON journal_events(event_id);
                    PRAGMA user_version = 1;
                    """)
            }
        }
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration)
        #expect(try store.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 4)
        try TreeConformanceTests.expectTreeMatchesLog(store)
        _ = try store.verify()
    }

    @Test(
        "a version 1 PostgreSQL journal: read-only it asks for an upgrade, a writer gets the tree of its log",
        .enabled(if: !PostgresTestServer.skipped))
    func postgresVersion1Upgrade() throws {
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
                    DROP TABLE journal_tree; DROP TABLE journal_checkpoints; DROP FUNCTION journal_tree_append_only();
                    DROP TRIGGER journal_meta_immutable ON journal_meta;
                    UPDATE journal_meta SET value = '1' WHERE key = 'schema_version';
                    CREATE TRIGGER journal_meta_immutable BEFORE UPDATE OR DELETE ON journal_meta
                        FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
                    """)
            }
        }
        configuration.readOnly = true
        do {
            let reader = try PostgresEventStore(url: url, configuration: configuration)
            #expect(try reader.verify().headPosition == 600)
            let error = try #require(throws: EventStoreError.self) { try reader.treeSize() }
            #expect(error.code == .needsUpgrade)
        }
        configuration.readOnly = false
        let store = try PostgresEventStore(url: url, configuration: configuration)
        try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [1, 256, 600])
        let version = try store.withConnection { pg in
            try pg.query("SELECT value FROM journal_meta WHERE key = 'schema_version'").text(0, 0)
        }
        #expect(version == "3")
        try store.append(Fixture.events(1_000..<1_010), to: Fixture.stream(1), expectedVersion: .any)
        try TreeConformanceTests.expectTreeMatchesLog(store)
        #expect(PostgresTampering(store: store).sqlIsRefused("DELETE FROM journal_tree"))
    }

    @Test("a journal load stores the leaf hashes its preparer computed ahead, and computes them once it cannot")
    func journalLoadHashedAhead() throws {
        let pair = try PreparedLoadTests.Pair()
        let preparer = try pair.load.makePreparer()
        let batches = PreparedLoadTests.journeys(0..<6)
        var events = 0
        for (index, batch) in batches.enumerated() {
            if index == 4 {
                #expect(pair.load.hashesTakenAhead == events)
                // Refused: the head is then not where the preparer assumes it, and the writer
                // hashes what follows itself.
                var stale = batch
                stale[3].expectedVersion = .exact(99)
                #expect(throws: EventStoreError.self) { try pair.load.append(preparer.prepare(stale)) }
            }
            try pair.usual.append(batch)
            events += try pair.load.append(preparer.prepare(batch))
        }
        #expect(pair.load.hashesTakenAhead < events)
        try pair.load.finish()
        let loaded = try pair.loaded()
        try TreeConformanceTests.expectTreeMatchesLog(loaded)
        #expect(try TreeConformanceTests.tiles(loaded) == TreeConformanceTests.tiles(pair.usual))
    }

    @Test("a load batch of more leaves than a tree flush takes, made on another thread, stores the usual tree")
    func journalLoadFlushAfterLeavesMadeElsewhere() throws {
        // The leaf hashes of events hashed ahead are made on another thread and put in place
        // before the commit moves them into the tree: here more than one flush's worth, then an
        // append left to the writer (no recordedAt), whose leaf the writer makes itself.
        let pair = try PreparedLoadTests.Pair()
        let preparer = try pair.load.makePreparer()
        let streams = SQLiteJournal.treeFlushLeaves / 8 + 1
        var batch = (0..<streams).map { s in
            StreamAppend(
                stream: Fixture.stream(s), expectedVersion: .noStream,
                events: (0..<8).map { k in
                    Fixture.event(8 * s + k, recordedAt: Fixture.time.adding(milliseconds: Int64(8 * s + k)))
                })
        }
        batch.append(
            StreamAppend(
                stream: Fixture.stream(streams), expectedVersion: .noStream, events: [Fixture.event(9 * streams)]))
        try pair.usual.append(batch)
        #expect(try pair.load.append(preparer.prepare(batch)) == 8 * streams + 1)
        #expect(pair.load.hashesTakenAhead == 8 * streams)
        try pair.load.finish()
        let loaded = try pair.loaded()
        try TreeConformanceTests.expectTreeMatchesLog(loaded)
        #expect(try TreeConformanceTests.tiles(loaded) == TreeConformanceTests.tiles(pair.usual))
    }

    @Test("a journal load of mixed batches (some appends left to its writer) stores the usual tree")
    func journalLoadMixed() throws {
        let pair = try PreparedLoadTests.Pair()
        let preparer = try pair.load.makePreparer()
        for batch in PreparedLoadTests.batches() {
            try pair.usual.append(batch)
            try pair.load.append(preparer.prepare(batch))
        }
        try pair.load.finish()
        let loaded = try pair.loaded()
        try TreeConformanceTests.expectTreeMatchesLog(loaded)
        #expect(try TreeConformanceTests.tiles(loaded) == TreeConformanceTests.tiles(pair.usual))
    }

    @Test("a journal load of appends left to its writer keeps the tree too")
    func journalLoadUsualPath() throws {
        let directory = TemporaryDirectory.make()
        let load = try SQLiteJournalLoad(path: directory.file("j.db"), configuration: Self.configuration)
        for n in stride(from: 0, to: 300, by: 30) {
            try load.append([
                StreamAppend(
                    stream: Fixture.stream(n / 30), expectedVersion: .noStream,
                    events: Fixture.events(n..<(n + 30)))
            ])
        }
        try load.finish()
        let loaded = try SQLiteEventStore(path: directory.file("j.db"), configuration: Self.configuration)
        try TreeConformanceTests.expectTreeMatchesLog(loaded, sizes: [255, 256, 300])
    }

    /// A journal whose tiles are in a `WITHOUT ROWID` table, as earlier builds made them: the
    /// same rows and triggers. Returns the tiles and the tree head it has.
    static func makeWithoutRowidTree(at path: String, events: Int) throws -> (tiles: [String], head: TreeHead) {
        let store = try makeJournal(at: path, events: events)
        let made = (tiles: try TreeConformanceTests.tiles(store), head: try store.treeHead())
        try store.withConnection { db in
            try db.execute(
                """
                DROP TRIGGER journal_tree_no_delete; DROP TRIGGER journal_tree_append_only;
                ALTER TABLE journal_tree RENAME TO journal_tree_rows;
                CREATE TABLE journal_tree(
                    level INTEGER NOT NULL,
                    idx INTEGER NOT NULL,
                    hashes BLOB NOT NULL CHECK (length(hashes) BETWEEN 32 AND 8192 AND length(hashes) % 32 = 0),
                    PRIMARY KEY (level, idx)
                ) WITHOUT ROWID;
                INSERT INTO journal_tree SELECT level, idx, hashes FROM journal_tree_rows;
                DROP TABLE journal_tree_rows;
                \(SQLiteEventStore.treeTriggersSchema)
                """)
        }
        #expect(try store.withConnection { db in try SQLiteEventStore.treeIsWithoutRowid(db) })
        return made
    }

    @Test("a new SQLite journal keeps its tiles in a rowid table")
    func newJournalTreeLayout() throws {
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"), configuration: Self.configuration)
        #expect(try store.withConnection { db in try SQLiteEventStore.treeIsWithoutRowid(db) } == false)
    }

    @Test("tiles in a WITHOUT ROWID table are read as they are, and move to a rowid table when a writer opens the file")
    func withoutRowidTreeMoves() throws {
        let path = TemporaryDirectory.make().file("j.db")
        let made = try Self.makeWithoutRowidTree(at: path, events: 700)
        var readOnly = Self.configuration
        readOnly.readOnly = true
        do {
            let reader = try SQLiteEventStore(path: path, configuration: readOnly)
            #expect(try reader.treeHead() == made.head)
            #expect(try TreeConformanceTests.tiles(reader) == made.tiles)
            #expect(try reader.withConnection { db in try SQLiteEventStore.treeIsWithoutRowid(db) })
        }
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration)
        let schema = try store.withConnection { db in
            (
                withoutRowid: try SQLiteEventStore.treeIsWithoutRowid(db),
                version: try db.scalarInt("PRAGMA user_version"),
                treeTriggers: try db.scalarInt(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'journal_tree%'"),
                leftovers: try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'journal_tree_%'")
            )
        }
        #expect(!schema.withoutRowid)
        #expect(schema.version == 4)
        #expect(schema.treeTriggers == 2)
        #expect(schema.leftovers == 2) // the two triggers, no other table
        #expect(try store.treeHead() == made.head)
        #expect(try TreeConformanceTests.tiles(store) == made.tiles)
        let tamper = SQLiteTampering(store: store)
        #expect(tamper.sqlIsRefused("DELETE FROM journal_tree"))
        #expect(tamper.sqlIsRefused("UPDATE journal_tree SET hashes = substr(hashes, 33) WHERE level = 0 AND idx = 0"))
        try store.append(Fixture.events(1_000..<1_100), to: Fixture.stream(1), expectedVersion: .any)
        try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [1, 256, 700, 800])
        #expect(try store.verify().headPosition == 800)
    }

    @Test("a writer that cannot lock the file to move WITHOUT ROWID tiles opens all the same; a later one moves them")
    func withoutRowidTreeMoveWaitsForTheLock() throws {
        let path = TemporaryDirectory.make().file("j.db")
        let made = try Self.makeWithoutRowidTree(at: path, events: 300)
        let other = try SQLiteConnection(path: path)
        try other.begin(.immediate)
        var impatient = Self.configuration
        impatient.busyTimeoutMilliseconds = 50
        do {
            let store = try SQLiteEventStore(path: path, configuration: impatient)
            #expect(try store.withConnection { db in try SQLiteEventStore.treeIsWithoutRowid(db) })
            #expect(try store.treeHead() == made.head)
            other.rollback()
            try store.append(Fixture.events(1_000..<1_010), to: Fixture.stream(1), expectedVersion: .any)
            try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [300, 310])
        }
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration)
        #expect(try store.withConnection { db in try SQLiteEventStore.treeIsWithoutRowid(db) } == false)
        try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [1, 256, 310])
    }
}
