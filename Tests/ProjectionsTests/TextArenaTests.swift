import EventStore
import Testing

@testable import Projections

/// The writers bind a batch's texts from one buffer, without a copy: the stored values must be
/// those the string binds store on SQLite (empty text is not NULL, a NUL ends the text), on both
/// engines (PostgreSQL refuses a NUL in a string bind: the arena's text ends there as on SQLite),
/// in statements of many rows.
@Suite("Texts bound from a batch's arena")
struct TextArenaTests {
    static let texts: [String?] = [
        "", nil, "A000000004", "2.2.0", "é|%25", "a\u{0}b", String(repeating: "xyz", count: 400),
        "01", nil, "Y"
    ]

    @Test(
        "arena texts are stored as the string binds store them on SQLite, on both engines",
        arguments: DatabaseBackend.all)
    func arenaTextsEqualStringBinds(backend: DatabaseBackend) throws {
        let file = try TemporaryDatabase(backend)
        defer { file.remove() }
        let db = try ProjectionDatabase(location: file.location)
        defer { db.close() }
        try db.execute("CREATE TABLE IF NOT EXISTS pj_meta(name TEXT PRIMARY KEY)")
        try db.execute("CREATE TABLE a(i INTEGER PRIMARY KEY, v TEXT)")
        try db.execute("CREATE TABLE s(i INTEGER PRIMARY KEY, v TEXT)")
        // Two statements of `rowsPerStatement` rows and ten single-row ones on SQLite.
        let count = 2 * RowInserter.rowsPerStatement + 10
        let values = (0..<count).map { Self.texts[$0 % Self.texts.count] }
        var arena = TextArena()
        let spans = values.map { arena.add($0) }
        try db.transaction { () throws(ProjectionError) in
            try arena.withBytes { (bytes) throws(ProjectionError) in
                try RowInserter(db, "INSERT INTO a(i, v)", columns: 2).insert(count: values.count) { st, row, at in
                    st.bind(at + 1, Int64(row))
                    st.bind(at + 2, spans[row], in: bytes)
                }
            }
            guard !db.isPostgres else { return }
            try RowInserter(db, "INSERT INTO s(i, v)", columns: 2).insert(count: values.count) { st, row, at in
                st.bind(at + 1, Int64(row))
                st.bind(at + 2, values[row])
            }
        }
        func stored(_ table: String) throws -> [String?] {
            let st = try db.statement("SELECT v FROM \(table) ORDER BY i")
            defer { st.reset() }
            var result: [String?] = []
            while try st.step() { result.append(st.optionalText(0)) }
            return result
        }
        let fromArena = try stored("a")
        let cut = values.map { $0.map { String($0.prefix { $0 != "\u{0}" }) } }
        #expect(fromArena == cut)
        if !db.isPostgres { #expect(fromArena == (try stored("s"))) }
        #expect(fromArena[0] == "" && fromArena[1] == nil && fromArena[5] == "a")
    }
}
