import EventStore
import Testing

@testable import Projections

/// Each engine's statements are written in its own spelling (``ReadModelSQL``) and run as
/// written: nothing translates them on the way.
@Suite("Read-model SQL per engine")
struct ReadModelSQLTests {
    @Test("each engine numbers parameters in its own spelling")
    func parametersAreSpelledPerEngine() {
        #expect(ReadModelSQL.sqlite.parameters(3) == "?1,?2,?3")
        #expect(ReadModelSQL.postgres.parameters(3) == "$1,$2,$3")
        #expect(ReadModelSQL.postgres.parameters(2, from: 4) == "$4,$5")
    }

    @Test(
        "a row inserted again with an existing key is ignored, and many rows insert in order, on either engine",
        arguments: DatabaseBackend.all)
    func insertsRunAsWrittenForTheirEngine(_ backend: DatabaseBackend) throws {
        let db = try ProjectionDatabase(location: try backend.makeLocation())
        defer { db.close() }
        let sql = db.sql
        #expect(sql == (backend.name == "PostgreSQL" ? .postgres : .sqlite))
        try db.execute(
            """
            CREATE TABLE \(ProjectionDatabase.lockTable)(name \(sql.text) PRIMARY KEY);
            CREATE TABLE t(k \(sql.text) PRIMARY KEY, n \(sql.integer) NOT NULL)\(sql.clustered);
            CREATE TABLE r(i \(sql.integer) PRIMARY KEY, v \(sql.text))
            """)
        let ignore = sql.insertIgnoringConflicts("t", "k, n", values: sql.parameters(2))
        try db.transaction { () throws(ProjectionError) in
            for (key, n) in [("a", 1), ("b", 2), ("a", 3)] as [(String, Int64)] {
                let st = try db.statement(ignore)
                st.bind(1, key)
                st.bind(2, n)
                try st.run()
            }
            // 300 rows: two SQLite statements of 128 rows and 44 single rows; one per row on
            // PostgreSQL, coalesced by its backend.
            try RowInserter(db, "INSERT INTO r(i, v)", columns: 2).insert(count: 300) { st, row, at in
                st.bind(at + 1, Int64(row))
                st.bind(at + 2, row.isMultiple(of: 7) ? nil : "v\(row)" as String?)
            }
        }
        #expect(try db.scalarInt("SELECT n FROM t WHERE k = 'a'") == 1)
        #expect(try db.scalarInt("SELECT sum(n) FROM t") == 3)
        #expect(try db.scalarInt("SELECT count(*) FROM r WHERE v = 'v' || i") == 257)
        let nulls = (0..<300).filter { $0.isMultiple(of: 7) }
        #expect(try db.scalarInt("SELECT sum(i) FROM r WHERE v IS NULL") == Int64(nulls.reduce(0, +)))
    }
}
