import CSQLite

/// A failed SQLite call: the (extended) result code, SQLite's own message and what was being done.
///
/// The statement text may appear in the description; bound values never do, so payload bytes and
/// identifiers passed as parameters cannot leak into logs.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_FSYNC`, …).
    package var extendedCode: Int32
    /// What was being done: `open`, `prepare`, `step`, `exec`, `bind`, ….
    package var operation: String
    /// SQLite's message (`sqlite3_errmsg`), e.g. `UNIQUE constraint failed: …`.
    package var message: String
    /// The statement's SQL text, without bound values.
    package var sql: String?

    package init(extendedCode: Int32, operation: String, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.operation = operation
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …).
    package var resultCode: Int32 { extendedCode & 0xFF }

    // Extended codes are C macro expressions, which Swift does not import.
    /// `SQLITE_CONSTRAINT_UNIQUE`
    package static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`
    package static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
    /// `SQLITE_CONSTRAINT_TRIGGER`
    package static let constraintTrigger: Int32 = SQLITE_CONSTRAINT | (7 << 8)

    package var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }
    package var isFull: Bool { resultCode == SQLITE_FULL }
    package var isReadOnly: Bool { resultCode == SQLITE_READONLY }
    package var isNotADatabase: Bool { resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT }
    package var isUniqueViolation: Bool {
        extendedCode == SQLiteError.constraintUnique || extendedCode == SQLiteError.constraintPrimaryKey
    }
    package var isConstraint: Bool { resultCode == SQLITE_CONSTRAINT }

    package var description: String {
        var text = "SQLite \(operation) failed (\(extendedCode)): \(message)"
        if let sql { text += " [\(sql.prefix(120))]" }
        return text
    }
}
