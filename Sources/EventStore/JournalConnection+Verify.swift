import JournalCore

extension JournalConnection {
    /// Walks the whole log in one read transaction (a consistent snapshot) and checks the rule
    /// written in `ChainHasher.swift` (`ChainVerifier`). Throws `.integrity` with the first bad position.
    func verify() throws(EventStoreError) -> VerifyReport {
        let inTransaction = write != nil
        if !inTransaction {
            try run("starting a read transaction") { () throws(SQLiteError) in try sql.begin(.deferred) }
        }
        defer { if !inTransaction { sql.rollback() } }

        let head = try self.head()
        var verifier = ChainVerifier(hasher: hasher)
        let statement = try run("reading the log") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events ORDER BY position")
        }
        defer { statement.reset() }
        while try run("reading the log", { () throws(SQLiteError) in try statement.step() }) {
            try verifier.check(position: statement.int64(at: 0), streamID: statement.int64(at: 1),
                               version: statement.int64(at: 2)) { () throws(EventStoreError) in
                try decodeRow(statement, stream: nil)
            }
        }
        return try verifier.finish(headPosition: head.position, headHash: head.hash)
    }
}
