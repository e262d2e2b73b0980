import EventStore
import Testing

@testable import Projections

/// `RowInserter` writes many rows per statement on SQLite: the rows must land as one statement
/// per row would have written them, whatever their number and however often a key repeats.
@Suite("Many rows per INSERT statement")
struct RowInserterTests {
    @Test(
        "upserts of repeated keys, in statements of many rows, add up as one row per statement would",
        arguments: DatabaseBackend.all,
        [
            0, 1, RowInserter.rowsPerStatement - 1, RowInserter.rowsPerStatement,
            RowInserter.rowsPerStatement + 1, 2 * RowInserter.rowsPerStatement + 70
        ])
    func repeatedKeysAddUpWhateverTheRowCount(backend: DatabaseBackend, count: Int) throws {
        let file = try TemporaryDatabase(backend)
        defer { file.remove() }
        let db = try ProjectionDatabase(location: file.location)
        defer { db.close() }
        // `pj_meta`: the table a write transaction locks on PostgreSQL.
        try db.execute("CREATE TABLE IF NOT EXISTS pj_meta(name TEXT PRIMARY KEY)")
        try db.execute(
            "CREATE TABLE t(k \(db.sql.text) NOT NULL PRIMARY KEY, n \(db.sql.integer) NOT NULL)\(db.sql.clustered)")
        let inserter = RowInserter(
            db, "INSERT INTO t(k, n)", columns: 2,
            tail: "ON CONFLICT(k) DO UPDATE SET n = t.n + excluded.n")
        // Row i adds i + 1 to key "k(i mod 5)": every key repeats within one statement.
        try db.transaction { () throws(ProjectionError) in
            try inserter.insert(count: count) { st, row, at in
                st.bind(at + 1, "k\(row % 5)")
                st.bind(at + 2, Int64(row + 1))
            }
        }
        var expected: [String: Int64] = [:]
        for row in 0..<count { expected["k\(row % 5)", default: 0] += Int64(row + 1) }
        var stored: [String: Int64] = [:]
        let st = try db.statement("SELECT k, n FROM t")
        while try st.step() { stored[st.text(0)] = st.int(1) }
        st.reset()
        #expect(stored == expected)
    }

    @Test("the statement text holds one tuple of numbered parameters per row, the tail once")
    func statementTextHasOneTuplePerRow() throws {
        let file = try TemporaryDatabase(.sqlite)
        defer { file.remove() }
        let db = try ProjectionDatabase(location: file.location)
        defer { db.close() }
        let inserter = RowInserter(db, "INSERT INTO t(a, b)", columns: 2, tail: "ON CONFLICT(a) DO NOTHING")
        #expect(inserter.sql(rows: 1) == "INSERT INTO t(a, b) VALUES(?1,?2) ON CONFLICT(a) DO NOTHING")
        #expect(inserter.sql(rows: 3) == "INSERT INTO t(a, b) VALUES(?1,?2),(?3,?4),(?5,?6) ON CONFLICT(a) DO NOTHING")
    }
}
