/// The spellings in which the read models' SQL differs between the two engines, one instance
/// per engine, chosen once when the database opens (``ProjectionDatabase/sql``).
///
/// Every statement is written for its engine by the code that runs it: the parts both engines
/// spell alike are written once, the parts that differ come from here (parameters, column
/// types, clustered tables) or are written out per engine where the statement's shape differs
/// (`insertIgnoringConflicts`, the catalog queries). Nothing rewrites SQL text at run time: a
/// statement's text is what its engine receives (docs/decisions/read-model-sql.md).
///
/// | | SQLite | PostgreSQL |
/// |---|---|---|
/// | parameter `n` | `?n` | `$n` |
/// | integer column | `INTEGER` | `BIGINT` |
/// | text column | `TEXT` | `TEXT COLLATE "C"` (byte order, as SQLite compares) |
/// | table clustered on its key | `WITHOUT ROWID` | (nothing: a heap and its key's index) |
struct ReadModelSQL: Sendable, Equatable {
    enum Engine: Sendable, Equatable {
        case sqlite, postgres
    }

    let engine: Engine
    /// The type of an integer column.
    let integer: String
    /// The type of a text column: compared byte by byte on both engines, so range scans
    /// (`key >= 'req|' AND key < 'req}'`) and `ORDER BY` give the same rows.
    let text: String
    /// What follows the column list of a table stored in its primary key's order.
    let clustered: String

    static let sqlite = ReadModelSQL(engine: .sqlite, integer: "INTEGER", text: "TEXT", clustered: " WITHOUT ROWID")
    static let postgres = ReadModelSQL(
        engine: .postgres, integer: "BIGINT", text: "TEXT COLLATE \"C\"", clustered: "")

    var isPostgres: Bool { engine == .postgres }

    /// Parameter `n` (1-based).
    func p(_ n: Int) -> String {
        switch engine {
        case .sqlite: "?\(n)"
        case .postgres: "$\(n)"
        }
    }

    /// `count` parameters from `first` on, separated by commas: `?1,?2` or `$1,$2`.
    func parameters(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map(p).joined(separator: ",")
    }

    /// `INSERT INTO table(columns) VALUES(values)` that does nothing when the row's key exists.
    func insertIgnoringConflicts(_ table: String, _ columns: String, values: String) -> String {
        switch engine {
        case .sqlite: "INSERT OR IGNORE INTO \(table)(\(columns)) VALUES(\(values))"
        case .postgres: "INSERT INTO \(table)(\(columns)) VALUES(\(values)) ON CONFLICT DO NOTHING"
        }
    }
}
