import EventStore
import Foundation
import JournalCore
import Testing

@testable import JournalApp

/// How commands open a SQLite journal: bulk writers keep a longer WAL between checkpoints, and
/// `journal simulate` loads a new journal in one go.
@Suite("Journal backend")
struct JournalBackendTests {
    static func open(_ runner: JournalRunner, bulk: Bool) throws -> SQLiteEventStore {
        let store = try JournalBackend.sqlite(path: runner.database).open(
            reading: false, create: true, clock: { Timestamp(millisecondsSinceEpoch: 0) }, busyTimeoutMilliseconds: 100,
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

    @Test func simulateIntoANewFileThatFailsLeavesNothingAtThePath() throws {
        let runner = try JournalRunner()
        // A file limited to 60 pages: the simulation fills it before the end.
        let result = try runner.run(
            ["simulate", "--seed", "3", "--transactions", "2000", "--digitizations", "400"],
            environment: ["JOURNAL_MAX_PAGE_COUNT": "60"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("full"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runner.folder.path) == [])
    }

    @Test func simulateIntoAnExistingJournalAppendsToItTheUsualWay() throws {
        let runner = try JournalRunner()
        let first = try runner.run(["simulate", "--seed", "3", "--transactions", "40", "--digitizations", "10"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runner.folder.path) == ["journal.db"])
        let head = try Self.open(runner, bulk: false).headPosition()
        let second = try runner.run([
            "simulate", "--seed", "4", "--transactions", "40", "--digitizations", "10",
            "--into-existing"
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let store = try Self.open(runner, bulk: false)
        #expect(try store.headPosition() > head)
        #expect(try store.verify().headPosition == store.headPosition())
        // The same simulation again finds every event stored: nothing is appended.
        let again = try runner.run([
            "simulate", "--seed", "4", "--transactions", "40", "--digitizations", "10",
            "--into-existing"
        ])
        #expect(again.stdout.contains(": 0 events appended"), "\(again.stdout)")
    }
}
