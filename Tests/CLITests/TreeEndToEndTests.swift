import EventStore
import Foundation
import JournalCore
import Testing

/// The journal's Merkle tree through the commands that write in bulk: `journal simulate` (a new
/// journal is loaded in one go) and `journal copy`, which checks that both journals have the
/// same tree root. Serialized: the PostgreSQL server one test starts must not inherit the pipes of
/// another test's `journal` run (its reader would then never see the end of its output).
@Suite("Merkle tree end to end", .serialized)
struct TreeEndToEndTests {
    /// MTH over the leaf lines (RFC 6962 §2.1), naively.
    static func naiveRoot(_ lines: ArraySlice<String>) throws -> [UInt8] {
        switch lines.count {
        case 0: return try EventHashing.sha256([])
        case 1: return try EventHashing.sha256([0] + Array(lines.first!.utf8))
        default:
            var split = 1
            while split * 2 < lines.count { split *= 2 }
            let middle = lines.startIndex + split
            return try EventHashing.sha256([1] + naiveRoot(lines[..<middle]) + naiveRoot(lines[middle...]))
        }
    }

    static func open(_ path: String) throws -> SQLiteEventStore {
        var configuration = SQLiteEventStore.Configuration()
        configuration.readOnly = true
        return try SQLiteEventStore(path: path, configuration: configuration)
    }

    @Test("journal simulate into a new journal stores the tree of the lines journal export prints")
    func simulateIntoANewJournal() throws {
        let runner = try JournalRunner()
        let simulate = try runner.run(["simulate", "--seed", "5", "--transactions", "60", "--digitizations", "20"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let lines = try runner.run(["export"]).stdoutLines
        #expect(lines.count > 300)
        let store = try Self.open(runner.database)
        #expect(try store.treeHead() == TreeHead(size: Int64(lines.count), root: Self.naiveRoot(lines[...])))
        #expect(try store.treeRoot(size: 256) == Self.naiveRoot(lines[..<256]))

        // More simulated events appended the usual way to the existing journal.
        let again = try runner.run([
            "simulate", "--seed", "6", "--transactions", "10", "--digitizations", "5",
            "--into-existing"
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let more = try runner.run(["export"]).stdoutLines
        #expect(more.count > lines.count)
        #expect(try Self.open(runner.database).treeHead().root == Self.naiveRoot(more[...]))
    }

    @Test("journal copy gives the copy the same tree root and says so")
    func copyKeepsTheRoot() throws {
        let runner = try JournalRunner()
        #expect(
            try runner.run(["simulate", "--seed", "5", "--transactions", "30", "--digitizations", "10"]).status == 0)
        let copy = try runner.run(
            ["copy", "--from", runner.database, "--to", runner.path("copy.db"), "--format", "json"],
            db: false)
        #expect(copy.status == 0, "\(copy.stderr)")
        let root = try Self.open(runner.database).treeHead().root
        #expect(try Self.open(runner.path("copy.db")).treeHead().root == root)
        #expect(copy.stdout.contains(#""treeRoot":"\#(Base64.encode(root))""#), "\(copy.stdout)")
    }

    /// Caught by the verify of the source, which checks the tree, before the roots are compared.
    @Test("journal copy fails with exit 4 when the source's stored tree is not the tree of its events")
    func copyRefusesAnotherRoot() throws {
        let runner = try JournalRunner()
        #expect(
            try runner.run(["simulate", "--seed", "5", "--transactions", "30", "--digitizations", "10"]).status == 0)
        do {
            let store = try SQLiteEventStore(path: runner.database)
            var tile = try store.treeTile(level: 0, index: 0)
            tile[0] ^= 1
            try store.withConnection { db in
                try db.execute("DROP TRIGGER journal_tree_append_only")
                let update = try db.prepare("UPDATE journal_tree SET hashes = ? WHERE level = 0 AND idx = 0")
                update.bind(blob: tile, at: 1)
                try update.run()
            }
        }
        let copy = try runner.run(["copy", "--from", runner.database, "--to", runner.path("copy.db")], db: false)
        #expect(copy.status == 4)
        #expect(copy.stderr.contains("Merkle tree"), "\(copy.stderr)")
    }

    @Test(
        "journal simulate into PostgreSQL and into SQLite give the same tree root",
        .enabled(if: !PostgresCLIServer.skipped))
    func sameRootOnBothBackends() throws {
        let runner = try JournalRunner()
        let url = try PostgresCLIServer.freshURL()
        let arguments = ["simulate", "--seed", "3", "--transactions", "20", "--digitizations", "10"]
        #expect(try runner.run(arguments + ["--db", url], db: false).status == 0)
        #expect(try runner.run(arguments).status == 0)
        var configuration = PostgresEventStore.Configuration()
        configuration.readOnly = true
        let postgres = try PostgresEventStore(url: url, configuration: configuration)
        let sqlite = try Self.open(runner.database)
        #expect(try postgres.treeHead() == sqlite.treeHead())
        #expect(try postgres.treeHead().size > 100)
    }
}
