/// A failed libpq call: PostgreSQL's SQLSTATE (when the server sent one), its primary message and
/// what was being done.
///
/// Only the server's *primary* message is kept: the DETAIL field of, say, a unique violation
/// quotes the key values, which may be event data. Bound parameters never appear, and connection
/// strings are redacted (`PostgresURL.redacted`) before they reach a message.
package struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505`, `40P01`, …), or nil for a client-side failure
    /// (connection lost, protocol error).
    package var sqlState: String?
    /// What was being done: `connect`, `prepare`, `execute`, `pipeline`, ….
    package var operation: String
    /// The server's primary message or libpq's own message.
    package var message: String

    package init(sqlState: String?, operation: String, message: String) {
        self.sqlState = sqlState
        self.operation = operation
        self.message = message
    }

    /// The SQLSTATE class (the first two characters), e.g. `23` for integrity constraint violations.
    package var sqlStateClass: Substring? { sqlState?.prefix(2) }

    /// `23505 unique_violation`.
    package var isUniqueViolation: Bool { sqlState == "23505" }

    package var description: String {
        "PostgreSQL \(operation) failed\(sqlState.map { " (SQLSTATE \($0))" } ?? ""): \(message)"
    }
}
