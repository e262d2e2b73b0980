import CSQLite
import EventStore
import Testing

@Suite("SQLite wrapper")
struct SQLiteConnectionTests {
    @Test func sqliteKeepsNoMemoryStatisticsOnceAConnectionIsOpen() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(i INTEGER); INSERT INTO t VALUES (1)")
        // With statistics on, every allocation is counted under a global mutex and the
        // current memory in use is above zero while a connection is open.
        var current: Int64 = -1
        var highwater: Int64 = -1
        #expect(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highwater, 0) == SQLITE_OK)
        #expect(current == 0)
    }

    @Test func statementsBindStepAndReadColumns() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(i INTEGER, s TEXT, b BLOB, d REAL)")
        let insert = try db.cached("INSERT INTO t VALUES (?, ?, ?, ?)")
        insert.bind(Int64(42), at: 1)
        insert.bind("héllo", at: 2)
        insert.bind(blob: [0, 1, 255], at: 3)
        insert.bind(2.5, at: 4)
        try insert.run()
        let select = try db.prepare("SELECT i, s, b, d, NULL FROM t")
        #expect(try select.step())
        #expect(select.int64(at: 0) == 42)
        #expect(select.text(at: 1) == "héllo")
        #expect(select.blob(at: 2) == [0, 1, 255])
        #expect(select.double(at: 3) == 2.5)
        #expect(select.isNull(at: 4))
        #expect(try select.step() == false)
    }

    @Test func boundTextStopsAtItsFirstNulAndAnEmptyTextIsNotNull() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(n INTEGER, s TEXT)")
        let insert = try db.cached("INSERT INTO t VALUES (?, ?)")
        let texts = ["", "a", "smol", "héllo wörld, a text longer than fifteen bytes", "ab\u{0}cd", "\u{0}x"]
        for (n, text) in texts.enumerated() {
            insert.bind(Int64(n), at: 1)
            insert.bind(text, at: 2)
            try insert.run()
        }
        let select = try db.prepare("SELECT s, s IS NULL, length(CAST(s AS BLOB)) FROM t ORDER BY n")
        var read: [String] = []
        while try select.step() {
            #expect(select.int64(at: 1) == 0)
            read.append(select.text(at: 0))
            #expect(select.int64(at: 2) == Int64(read.last!.utf8.count))
        }
        #expect(read == ["", "a", "smol", "héllo wörld, a text longer than fifteen bytes", "ab", ""])
    }

    @Test func errorsCarryTheExtendedCodeAndTheStatementButNoBoundValues() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(k TEXT PRIMARY KEY)")
        let insert = try db.cached("INSERT INTO t VALUES (?)")
        insert.bind("secret-value", at: 1)
        try insert.run()
        insert.bind("secret-value", at: 1)
        let error = try #require(throws: SQLiteError.self) { try insert.run() }
        #expect(error.extendedCode == SQLiteError.constraintPrimaryKey)
        #expect(error.isUniqueViolation)
        #expect(error.sql == "INSERT INTO t VALUES (?)")
        #expect(!error.description.contains("secret-value"))
        let syntax = try #require(throws: SQLiteError.self) { try db.prepare("SELEC 1") }
        #expect(syntax.resultCode == SQLITE_ERROR)
    }

    @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
        struct Stop: Error {}
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t(i INTEGER)")
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        #expect(db.isAutocommit)
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
    }

    @Test func anotherConnectionKeepsItsTablesInTheJournalFile() throws {
        let path = TemporaryDirectory.make().file("journal.db")
        let store = try SQLiteEventStore(path: path)
        try store.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        let projections = try SQLiteConnection(path: path)
        try projections.execute("CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER)")
        try projections.transaction { try projections.execute("INSERT INTO counts VALUES ('events', 1)") }
        try store.append([Fixture.event(1)], to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.verify().events == 2)
        let reopened = try SQLiteEventStore(path: path)
        #expect(try reopened.headPosition() == 2)
        #expect(try projections.scalarInt("SELECT n FROM counts") == 1)
    }
}
