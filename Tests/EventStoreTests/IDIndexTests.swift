import EventStore
import JournalCore
import Testing

/// The batched id index of the SQLite journal (schema version 2): the writer's memory of the
/// log's tail, the copy into `journal_event_ids`, other writers, rollbacks and the upgrade of a
/// version 1 file.
@Suite("SQLite id index")
struct IDIndexTests {
    static func configuration(every events: Int64) -> SQLiteEventStore.Configuration {
        var configuration = SQLiteEventStore.Configuration(clock: FixedClock.epoch, dictionaryTrainingEvents: 0)
        configuration.synchronous = .normal
        configuration.idIndex = IDIndexPolicy(minimum: events, maximum: events)
        return configuration
    }

    static func through(_ store: SQLiteEventStore) throws -> Int64? {
        try store.withConnection { db in try db.scalarInt("SELECT through FROM journal_id_index") }
    }

    static func indexedCount(_ store: SQLiteEventStore) throws -> Int64? {
        try store.withConnection { db in try db.scalarInt("SELECT count(*) FROM journal_event_ids") }
    }

    @Test
    func theTailIsCopiedIntoTheIndexOnceItReachesThePolicyLength() throws {
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"), configuration: Self.configuration(every: 10))
        for n in 0..<25 { try store.append([Fixture.event(n)], to: Fixture.stream(n % 4), expectedVersion: .any) }
        #expect(try Self.through(store) == 20)
        #expect(try Self.indexedCount(store) == 20)
        // Duplicates are found wherever their id is: in the index (3) and in the tail (23).
        for n in [3, 23] {
            let again = try store.append([Fixture.event(n)], to: Fixture.stream(n % 4), expectedVersion: .any)
            #expect(again.written == 0)
            #expect(again.positions == [Int64(n + 1)])
        }
        #expect(try store.event(withID: Fixture.uuid(3))?.position == 4)
        #expect(try store.event(withID: Fixture.uuid(23))?.position == 24)
        #expect(try store.event(withID: Fixture.uuid(99)) == nil)
    }

    @Test
    func aWriterSeesTheIDsAnotherWriterCommitted() throws {
        let path = TemporaryDirectory.make().file("j.db")
        let first = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 1_000))
        let second = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 1_000))
        try first.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .any)
        try second.append(Fixture.events(3..<6), to: Fixture.stream(2), expectedVersion: .any)
        // `first` has an old memory of the tail; its next transaction catches up with `second`'s.
        let again = try first.append([Fixture.event(4)], to: Fixture.stream(2), expectedVersion: .any)
        #expect(again.written == 0 && again.positions == [5])
        let error = try #require(throws: EventStoreError.self) {
            try first.append([Fixture.event(5)], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(try first.headPosition() == 6)
    }

    @Test
    func aWriterSeesTheIndexAnotherWriterCopied() throws {
        let path = TemporaryDirectory.make().file("j.db")
        let first = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 1_000))
        let second = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 4))
        try first.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .any)
        try second.append(Fixture.events(3..<8), to: Fixture.stream(2), expectedVersion: .any)
        #expect(try Self.through(second) == 8)
        for n in [1, 6] {
            let stream = n < 3 ? Fixture.stream(1) : Fixture.stream(2)
            #expect(try first.append([Fixture.event(n)], to: stream, expectedVersion: .any).positions == [Int64(n + 1)])
        }
        try first.append([Fixture.event(8)], to: Fixture.stream(1), expectedVersion: .any)
        #expect(try first.headPosition() == 9)
    }

    @Test
    func aRolledBackTransactionForgetsTheIDsItWroteAndTheCopyItMade() throws {
        struct Abort: Error {}
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"), configuration: Self.configuration(every: 3))
        try store.append(Fixture.events(0..<2), to: Fixture.stream(1), expectedVersion: .any)
        #expect(throws: Abort.self) {
            try store.write { transaction in
                for n in 2..<9 {
                    try transaction.append([Fixture.event(n)], to: Fixture.stream(1), expectedVersion: .any)
                }
                throw Abort()
            }
        }
        #expect(try store.headPosition() == 2)
        #expect(try Self.through(store) == 0)
        // The same ids are new again, not duplicates of events that were never committed.
        let result = try store.append(Fixture.events(2..<9), to: Fixture.stream(1), expectedVersion: .exact(1))
        #expect(result.written == 7)
        #expect(result.positions == Array(3...9))
    }

    @Test
    func aSavepointRollbackForgetsOnlyItsOwnIDs() throws {
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"), configuration: Self.configuration(every: 1_000))
        try store.write { transaction in
            try transaction.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .noStream)
            // Conflicts: this append's savepoint rolls back, the transaction goes on.
            #expect(throws: EventStoreError.self) {
                try transaction.append(
                    [Fixture.event(1), Fixture.event(2)], to: Fixture.stream(1), expectedVersion: .exact(5))
            }
            #expect(throws: EventStoreError.self) {
                try transaction.append(
                    [Fixture.event(1), Fixture.event(0, data: #"{"other":1}"#)],
                    to: Fixture.stream(2), expectedVersion: .any)
            }
            let later = try transaction.append([Fixture.event(1)], to: Fixture.stream(2), expectedVersion: .any)
            #expect(later.written == 1)
        }
        #expect(try store.headPosition() == 2)
    }

    @Test
    func aVersion1JournalIsUpgradedWhenOpenedForWriting() throws {
        let path = TemporaryDirectory.make().file("j.db")
        do {
            let store = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 1_000))
            try store.append(Fixture.events(0..<5), to: Fixture.stream(1), expectedVersion: .any)
            // Back to the version 1 layout: a unique index on the id column, no id tables (and
            // no tree, which came in version 3).
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
        // Read-only, a version 1 file is read as it is (nothing may be written, not even an upgrade).
        do {
            var readOnly = Self.configuration(every: 1_000)
            readOnly.readOnly = true
            let reader = try SQLiteEventStore(path: path, configuration: readOnly)
            #expect(try reader.event(withID: Fixture.uuid(4))?.position == 5)
            #expect(try reader.event(withID: Fixture.uuid(40)) == nil)
            #expect(try reader.verify().headPosition == 5)
            #expect(try reader.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 1)
        }
        let store = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 1_000))
        #expect(try store.withConnection { db in try db.scalarInt("PRAGMA user_version") } == 4)
        #expect(try Self.through(store) == 5)
        #expect(try Self.indexedCount(store) == 5)
        #expect(try store.append([Fixture.event(2)], to: Fixture.stream(1), expectedVersion: .any).positions == [3])
        #expect(try store.event(withID: Fixture.uuid(4))?.position == 5)
        _ = try store.verify()
    }

    @Test
    func aLongTransactionForgetsItsStreamsAndStillAppendsExactly() throws {
        struct Abort: Error {}
        var configuration = Self.configuration(every: 1_000)
        configuration.transactionStreamMemory = 3
        let path = TemporaryDirectory.make().file("j.db")
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        try store.append([Fixture.event(0)], to: Fixture.stream(0), expectedVersion: .noStream)
        // A rolled-back transaction that spilled: none of its streams may stay cached.
        #expect(throws: Abort.self) {
            try store.write { transaction in
                for n in 1...8 {
                    try transaction.append([Fixture.event(100 + n)], to: Fixture.stream(n), expectedVersion: .noStream)
                }
                // Found again by SQL after the spill: this transaction's own, uncommitted row.
                try transaction.append([Fixture.event(200)], to: Fixture.stream(1), expectedVersion: .exact(0))
                throw Abort()
            }
        }
        try store.write { transaction in
            for round in 0..<3 {
                for n in 0...8 {
                    let expected: ExpectedVersion =
                        n == 0 ? .exact(Int64(round)) : (round == 0 ? .noStream : .exact(Int64(round - 1)))
                    try transaction.append(
                        [Fixture.event(1_000 + 10 * round + n)], to: Fixture.stream(n), expectedVersion: expected)
                }
            }
            // Stale expectations are still caught after the maps were emptied.
            #expect(throws: EventStoreError.self) {
                try transaction.append([Fixture.event(9_999)], to: Fixture.stream(4), expectedVersion: .exact(0))
            }
        }
        for n in 0...8 {
            let history = try store.read(stream: Fixture.stream(n), from: 0, direction: .forward, limit: 100)
            #expect(history.map(\.version) == (n == 0 ? [0, 1, 2, 3] : [0, 1, 2]))
        }
        #expect(
            try store.append([Fixture.event(2_000)], to: Fixture.stream(5), expectedVersion: .exact(2)).written == 1)
        _ = try store.verify()
        // Another connection sees the same streams: no event points at a rolled-back stream row.
        let other = try SQLiteEventStore(path: path, configuration: configuration)
        _ = try other.verify()
        #expect(try other.read(stream: Fixture.stream(1), from: 0, direction: .forward, limit: 100).count == 3)
    }

    @Test
    func verifyFindsRowsRemovedFromTheIDIndexBehindTheStoresBack() throws {
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"), configuration: Self.configuration(every: 4))
        try store.append(Fixture.events(0..<10), to: Fixture.stream(1), expectedVersion: .any)
        _ = try store.verify()
        try store.withConnection { db in
            try db.execute(
                """
                DROP TRIGGER journal_event_ids_no_delete;
                DELETE FROM journal_event_ids WHERE position = 3;
                """)
        }
        let error = try #require(throws: EventStoreError.self) { try store.verify() }
        #expect(error.code == .integrity)
        #expect(error.message.contains("event id index"))
    }

    @Test
    func theIDIndexRefusesUpdatesDeletesAndGoingBack() throws {
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"), configuration: Self.configuration(every: 2))
        try store.append(Fixture.events(0..<4), to: Fixture.stream(1), expectedVersion: .any)
        for sql in [
            "UPDATE journal_event_ids SET position = 9", "DELETE FROM journal_event_ids",
            "UPDATE journal_id_index SET through = 1", "DELETE FROM journal_id_index"
        ] {
            #expect(throws: SQLiteError.self, "\(sql)") { try store.withConnection { db in try db.execute(sql) } }
        }
    }
}
