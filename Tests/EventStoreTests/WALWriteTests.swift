import EventStore
import Testing

/// The journal's SQLite VFS (CJournalVFS) gathers a WAL commit's frames into few writes. These
/// tests hold it to what SQLite needs: committed frames in the file before another connection
/// can see the commit, whatever `synchronous` is, and buffered frames in the file before SQLite
/// reads them back.
@Suite("SQLite WAL writes")
struct WALWriteTests {
    private func rows(_ db: SQLiteConnection) throws -> Int64 { try db.scalarInt("SELECT count(*) FROM t") ?? -1 }

    private func check(_ db: SQLiteConnection, _ pragma: String = "integrity_check") throws -> String {
        let statement = try db.prepare("PRAGMA \(pragma)")
        guard try statement.step() else { return "no answer" }
        return statement.text(at: 0)
    }

    @Test func aCommitsFramesReachTheFileInAFewWritesNotTwoPerFrame() throws {
        let path = TemporaryDirectory.make().file("wal.db")
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE t(i INTEGER PRIMARY KEY, v BLOB)")
        let before = try #require(db.walWrites)
        try db.transaction {
            let insert = try db.cached("INSERT INTO t VALUES (?, ?)")
            for i in 0..<1000 {
                insert.bind(Int64(i), at: 1)
                insert.bind(blob: [UInt8](repeating: UInt8(i % 251), count: 400), at: 2)
                try insert.run()
            }
        }
        let after = try #require(db.walWrites)
        let received = after.received - before.received
        let issued = after.issued - before.issued
        // About 100 frames of 4 KiB, each a header and a page: ~200 writes from SQLite, and at
        // most 31 frames per write to the file.
        #expect(received >= 200)
        #expect(issued >= 1 && issued * 10 <= received)
        #expect(try check(db) == "ok")
        #expect(try rows(db) == 1000)
    }

    @Test(arguments: [Int32(0), 1, 2])
    func everyCommitIsVisibleAtOnceToAnotherConnection(synchronous: Int32) throws {
        let path = TemporaryDirectory.make().file("wal.db")
        let writer = try SQLiteConnection(path: path, options: .init(synchronous: synchronous))
        try writer.execute("CREATE TABLE t(i INTEGER PRIMARY KEY, v BLOB)")
        let reader = try SQLiteConnection(path: path, options: .init(readOnly: true))
        let insert = try writer.cached("INSERT INTO t VALUES (?, ?)")
        for commit in 0..<60 {
            try writer.transaction {
                for row in 0..<(commit % 7 + 1) * 20 {
                    insert.bind(Int64(commit * 1000 + row), at: 1)
                    insert.bind(blob: [UInt8](repeating: UInt8(row % 251), count: 300), at: 2)
                    try insert.run()
                }
            }
            let count = try reader.scalarInt("SELECT count(*) FROM t WHERE i / 1000 = \(commit)")
            #expect(count == Int64((commit % 7 + 1) * 20))
        }
        #expect(try check(reader, "quick_check") == "ok")
    }

    @Test func framesSpilledInsideATransactionAreReadBackIntact() throws {
        // A page cache of 10 pages makes SQLite write frames before the commit and read them
        // back within the same transaction.
        let path = TemporaryDirectory.make().file("wal.db")
        let db = try SQLiteConnection(path: path)
        try db.execute("PRAGMA cache_size = 10")
        try db.execute("CREATE TABLE t(i INTEGER PRIMARY KEY, k TEXT UNIQUE, v BLOB)")
        try db.transaction {
            let insert = try db.cached("INSERT INTO t VALUES (?, ?, ?)")
            for i in 0..<3000 {
                insert.bind(Int64(i), at: 1)
                insert.bind("key-\((i * 7919) % 3001)", at: 2)
                insert.bind(blob: [UInt8](repeating: UInt8(i % 251), count: 200), at: 3)
                try insert.run()
            }
            #expect(try db.scalarInt("SELECT count(*) FROM t WHERE k >= 'key-1'") ?? 0 > 0)
            #expect(try db.scalarInt("SELECT sum(length(v)) FROM t") == 600_000)
        }
        let other = try SQLiteConnection(path: path, options: .init(readOnly: true))
        #expect(try rows(other) == 3000)
        #expect(try check(other) == "ok")
    }
}
