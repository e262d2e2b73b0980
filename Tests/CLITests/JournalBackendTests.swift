import EventStore
import JournalCore
import Testing
@testable import journal

/// How commands open a SQLite journal: bulk writers keep a longer WAL between checkpoints.
@Suite("Journal backend")
struct JournalBackendTests {
    static func open(_ runner: JournalRunner, bulk: Bool) throws -> SQLiteEventStore {
        let store = try JournalBackend.sqlite(path: runner.database).open(
            reading: false, clock: { Timestamp(millisecondsSinceEpoch: 0) }, busyTimeoutMilliseconds: 100,
            isSameContent: { _, _ in false }, bulk: bulk)
        return try #require(store as? SQLiteEventStore)
    }

    @Test func bulkWritersCheckpointEvery100000WALPagesAndOthersEvery10000() throws {
        let runner = try JournalRunner()
        #expect(try Self.open(runner, bulk: true).configuration.walAutocheckpointPages == 100_000)
        #expect(try Self.open(runner, bulk: false).configuration.walAutocheckpointPages == 10_000)
    }

    @Test func aBulkWriterLeavesNoWALBehindWhenItExits() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["simulate", "--seed", "3", "--transactions", "200", "--digitizations", "40"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!runner.exists("journal.db-wal"))
        #expect(try runner.run(["verify"]).status == 0)
    }
}
