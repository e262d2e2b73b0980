/// Runs one `INSERT` shape for many rows: on SQLite, ``rowsPerStatement`` rows per statement
/// (`VALUES(…),(…),…`, one step and one reset for them all instead of one per row); on
/// PostgreSQL, one row per statement (its backend coalesces runs of single-row inserts itself,
/// see `PostgresMultiRowInsert`).
///
/// SQLite applies the rows of a multi-row `VALUES` in order, one after the other, as separate
/// statements would: an `ON CONFLICT … DO UPDATE` tail sees the rows before it, even with the
/// same key in one statement.
struct RowInserter {
    let db: ProjectionDatabase
    /// `INSERT INTO t(c1, …, cn)`.
    let head: String
    let columns: Int
    /// Empty, or an `ON CONFLICT …` clause without parameters.
    let tail: String

    /// 128: a quarter of the statement runs (step, VDBE setup, reset) of 32 rows for the same
    /// rows; much larger statements leave more of a batch's remainder to go one row per
    /// statement (BENCHMARKS.md, "Rebuild path"). 16 columns × 128 rows = 2,048 parameters, far
    /// below SQLite's 32,766.
    static let rowsPerStatement = 128

    init(_ db: ProjectionDatabase, _ head: String, columns: Int, tail: String = "") {
        self.db = db
        self.head = head
        self.columns = columns
        self.tail = tail
    }

    /// The statement text for `rows` rows.
    func sql(rows: Int) -> String {
        let values = (0..<rows).map { "(" + db.sql.parameters(columns, from: $0 * columns + 1) + ")" }
            .joined(separator: ",")
        return tail.isEmpty ? "\(head) VALUES\(values)" : "\(head) VALUES\(values) \(tail)"
    }

    /// Inserts `count` rows; `bind(statement, row, offset)` binds row `row`'s columns at
    /// `offset + 1 … offset + columns`.
    func insert(count: Int, _ bind: (Statement, Int, Int32) -> Void) throws(ProjectionError) {
        guard count > 0 else { return }
        var row = 0
        let per = db.isPostgres ? 1 : Self.rowsPerStatement
        if count >= per && per > 1 {
            let many = try db.statement(sql(rows: per))
            while count - row >= per {
                // No `reset()` (it clears the bindings, one by one): `run()` leaves the statement
                // reset, and every parameter is bound again below.
                for k in 0..<per { bind(many, row + k, Int32(k * columns)) }
                try many.run()
                row += per
            }
        }
        guard row < count else { return }
        let one = try db.statement(sql(rows: 1))
        while row < count {
            one.reset()
            bind(one, row, 0)
            try one.run()
            row += 1
        }
    }
}
