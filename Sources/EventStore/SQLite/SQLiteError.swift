import CSQLite

/// A failed SQLite call: the (extended) result code, SQLite's own message and what was being done.
///
/// The statement text may appear in the description; bound values never do, so payload bytes and
/// identifiers passed as parameters cannot leak into logs.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_FSYNC`, …).
    public var extendedCode: Int32
    /// What was being done: `open`, `prepare`, `step`, `exec`, `bind`, ….
    public var operation: String
    /// SQLite's message (`sqlite3_errmsg`), e.g. `UNIQUE constraint failed: …`.
    public var message: String
    /// The statement's SQL text, without bound values.
    public var sql: String?

    public init(extendedCode: Int32, operation: String, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.operation = operation
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …).
    public var resultCode: Int32 { extendedCode & 0xFF }

    // Extended codes are C macro expressions, which Swift does not import.
    /// `SQLITE_CONSTRAINT_UNIQUE`
    public static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`
    public static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    /// `SQLITE_CONSTRAINT_TRIGGER`
    public static let constraintTrigger: Int32 = SQLITE_CONSTRAINT | (7 << 8)

    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    public var isFull: Bool { resultCode == SQLITE_FULL }
    public var isReadOnly: Bool { resultCode == SQLITE_READONLY }
    public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT }
    public var isUniqueViolation: Bool {
        extendedCode == SQLiteError.constraintUnique || extendedCode == SQLiteError.constraintPrimaryKey
    }
    public var isConstraint: Bool { resultCode == SQLITE_CONSTRAINT }

    public var description: String {
        var text = "SQLite \(operation) failed (\(extendedCode)): \(message)"
        if let sql { text += " [\(sql.prefix(120))]" }
        return text
    }
}
