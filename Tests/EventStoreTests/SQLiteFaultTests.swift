import CSQLite
import EventStore
import Foundation
import JournalCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faults that depend on SQLite files: typed errors, nothing partial.
@Suite("SQLite faults")
struct SQLiteFaultTests {
    private func writeFile(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func aFileThatIsNotADatabaseThrowsNotAJournal() {
        let path = TemporaryDirectory.make().file("notes.txt")
        writeFile(path, Array(String(repeating: "this is not SQLite\n", count: 300).utf8))
        let error = #expect(throws: EventStoreError.self) { try SQLiteEventStore(path: path) }
        #expect(error?.code == .notAJournal)
        #expect(error?.message.contains(path) == true)
    }

    @Test func anotherSQLiteDatabaseThrowsNotAJournalAndIsLeftAlone() throws {
        let path = TemporaryDirectory.make().file("other.db")
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)")
        }
        let error = #expect(throws: EventStoreError.self) { try SQLiteEventStore(path: path) }
        #expect(error?.code == .notAJournal)
        let db = try SQLiteConnection(path: path)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_schema") == 1)
    }

    @Test func creatingAJournalBesideAnEarlierDatabasesWALIsRefused() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("j.db")
        // A journal whose WAL still holds a commit, then deleted without its WAL.
        let earlier = directory.file("earlier.db")
        do {
            let db = try SQLiteConnection(path: earlier)
            try db.execute("PRAGMA wal_autocheckpoint = 0; CREATE TABLE customers(id INTEGER PRIMARY KEY)")
            let wal = try #require(FileManager.default.contents(atPath: earlier + "-wal"))
            writeFile(path + "-wal", Array(wal))
        }
        let error = #expect(throws: EventStoreError.self) { try SQLiteEventStore(path: path) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("j.db-wal exists without") == true)
        #expect(access(path, F_OK) != 0)
        unlink(path + "-wal")
        let store = try SQLiteEventStore(path: path)
        try store.append(Fixture.events(0..<2), to: Fixture.stream(1), expectedVersion: .noStream)
        #expect(
            try store.withConnection { db in
                try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'customers'")
            } == 0)
    }

    @Test func aMissingFileWithoutCreationThrowsMissingAndCreatesNothing() {
        let path = TemporaryDirectory.make().file("absent.db")
        var configuration = SQLiteEventStore.Configuration()
        configuration.createIfMissing = false
        let error = #expect(throws: EventStoreError.self) {
            try SQLiteEventStore(path: path, configuration: configuration)
        }
        #expect(error?.code == .missing)
        configuration.readOnly = true
        let readOnly = #expect(throws: EventStoreError.self) {
            try SQLiteEventStore(path: path, configuration: configuration)
        }
        #expect(readOnly?.code == .missing)
        #expect(access(path, F_OK) != 0)
    }

    @Test func aReadOnlyStoreReadsButRefusesAppends() throws {
        let path = TemporaryDirectory.make().file("journal.db")
        do {
            let store = try SQLiteEventStore(path: path)
            try store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .any)
        }
        var configuration = SQLiteEventStore.Configuration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        #expect(try store.readStream(Fixture.stream(1)).count == 3)
        #expect(try store.verify().events == 3)
        let error = #expect(throws: EventStoreError.self) {
            try store.append([Fixture.event(9)], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(error?.code == .readOnly)
        let inTransaction = #expect(throws: EventStoreError.self) {
            try store.write { tx in try tx.append([Fixture.event(9)], to: Fixture.stream(1), expectedVersion: .any) }
        }
        #expect(inTransaction?.code == .readOnly)
    }

    /// A journal of at most 40 pages, which a few hundred `filler` events fill.
    private static func smallJournal() throws -> (path: String, store: SQLiteEventStore) {
        let path = TemporaryDirectory.make().file("journal.db")
        var configuration = SQLiteEventStore.Configuration()
        configuration.maxPageCount = 40
        configuration.dictionaryTrainingEvents = 0
        return (path, try SQLiteEventStore(path: path, configuration: configuration))
    }

    private static func filler(_ n: Int) -> ProposedEvent {
        ProposedEvent(
            id: Fixture.uuid(n), type: "Filler", occurredAt: Fixture.time,
            data: [UInt8](repeating: UInt8(ascii: "x"), count: 400))
    }

    /// `write { }` whose body runs `appends` until one throws, then carries on as a careless
    /// caller would: one more append, and a normal return. What the failed append threw, whether
    /// the later append threw too, and what `write` threw (nil when it committed).
    private static func writeIgnoringAFailedAppend(
        _ store: SQLiteEventStore, _ appends: (any EventStoreTransaction) throws -> Void
    ) -> (append: EventStoreError?, laterAppendThrew: Bool, write: EventStoreError?) {
        var failed: EventStoreError?
        var laterAppendThrew = false
        do {
            try store.write { tx in
                do { try appends(tx) } catch { failed = error as? EventStoreError }
                do {
                    try tx.append([Fixture.event(9_999)], to: Fixture.stream(99), expectedVersion: .any)
                } catch {
                    laterAppendThrew = true
                }
            }
            return (failed, laterAppendThrew, nil)
        } catch {
            return (failed, laterAppendThrew, error as? EventStoreError)
        }
    }

    @Test func aFullDiskThrowsFullAndNoPartialAppendIsVisible() throws {
        let (path, store) = try Self.smallJournal()
        var appended = 0
        var failure: EventStoreError?
        for batch in 0..<200 {
            let events = (0..<10).map { n in Self.filler(batch * 10 + n) }
            do {
                try store.append(events, to: Fixture.stream(batch % 5), expectedVersion: .any)
                appended += 10
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(error.code == .full)
        #expect(error.backendCode == String(SQLITE_FULL))
        #expect(appended > 0)
        #expect(try store.headPosition() == Int64(appended))
        #expect(try store.verify().events == Int64(appended))
        // Still usable for reads, and a reopened journal is intact.
        let reopened = try SQLiteEventStore(path: path)
        #expect(try reopened.verify().events == Int64(appended))
    }

    @Test func aFullDiskInsideAWriteTransactionEndsItAndLeavesTheJournalAsBefore() throws {
        let (_, store) = try Self.smallJournal()
        try store.append([Fixture.event(0)], to: Fixture.stream(0), expectedVersion: .noStream)
        let outcome = Self.writeIgnoringAFailedAppend(store) { tx in
            for n in 1..<2_000 { try tx.append([Self.filler(n)], to: Fixture.stream(n % 5 + 1), expectedVersion: .any) }
        }
        #expect(outcome.append?.code == .full)
        #expect(outcome.laterAppendThrew)
        #expect(outcome.write?.message.contains("aborted") == true)
        #expect(try store.headPosition() == 1)
        #expect(try store.verify().events == 1)
        try store.append([Fixture.event(5_001)], to: Fixture.stream(0), expectedVersion: .exact(0))
        #expect(try store.verify().events == 2)
    }

    @Test func anAppendThatFailsAfterCreatingItsStreamEndsTheTransaction() throws {
        let store = try SQLiteEventStore(path: TemporaryDirectory.make().file("journal.db"))
        // A statement-level failure that SQLite survives: the stream row is written, the event
        // row refused, and the transaction stays open.
        try store.withConnection { db in
            try db.execute(
                """
                CREATE TEMP TRIGGER refuse_second BEFORE INSERT ON journal_events WHEN NEW.position = 2
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        let outcome = Self.writeIgnoringAFailedAppend(store) { tx in
            try tx.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .noStream)
            try tx.append([Fixture.event(1)], to: Fixture.stream(2), expectedVersion: .noStream)
        }
        #expect(outcome.append != nil)
        #expect(outcome.laterAppendThrew)
        #expect(outcome.write?.message.contains("aborted") == true)
        #expect(try store.headPosition() == 0)
        #expect(try StreamCreationTests.streamRows(store, Fixture.stream(2)) == 0)
    }

    @Test func aSecondWriterWaitingBeyondTheBusyTimeoutGetsBusy() throws {
        let path = TemporaryDirectory.make().file("journal.db")
        let store = try SQLiteEventStore(path: path)
        var configuration = SQLiteEventStore.Configuration()
        configuration.busyTimeoutMilliseconds = 50
        let other = try SQLiteEventStore(path: path, configuration: configuration)
        try store.write { tx in
            try tx.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
            let error = #expect(throws: EventStoreError.self) {
                try other.append([Fixture.event(1)], to: Fixture.stream(2), expectedVersion: .any)
            }
            #expect(error?.code == .busy)
        }
        try other.append([Fixture.event(1)], to: Fixture.stream(2), expectedVersion: .any)
        #expect(try other.verify().events == 2)
    }
}
