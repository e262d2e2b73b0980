import JournalCore

extension SQLiteJournal {
    /// Walks the whole log in one read transaction (a consistent snapshot) and checks the rule
    /// written in `ChainHasher.swift` (`ChainVerifier`), then that the stored Merkle tree is the
    /// tree of the log (`TreeVerifier`). Throws `.integrity` with the first bad position.
    func verify(progress: (_ checked: Int64) -> Void = { _ in }) throws(EventStoreError) -> VerifyReport {
        let inTransaction = write != nil
        if !inTransaction {
            try run("starting a read transaction") { () throws(SQLiteError) in try sql.begin(.deferred) }
        }
        defer { if !inTransaction { sql.rollback() } }

        // Inside a write transaction (a `:memory:` journal read from `write { }`), its gathered
        // leaves go into the tiles first, or the tree is not checked (under a savepoint).
        var checkTree = hasTree
        if let state = write, !state.leafHashes.isEmpty {
            if state.savepoints == 0 { try flushTree() } else { checkTree = false }
        }
        let head = try self.head()
        var verifier = ChainVerifier(hasher: hasher)
        var tree = TreeVerifier(hasher: hasher)
        let storedTile = { (level: Int, index: Int64) throws(EventStoreError) -> [UInt8] in
            try self.treeTile(level: level, index: index)
        }
        let statement = try run("reading the log") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events ORDER BY position")
        }
        defer { statement.reset() }
        var checked: Int64 = 0
        while try run("reading the log", { () throws(SQLiteError) in try statement.step() }) {
            checked += 1
            if checked & 0xFFF == 0 { progress(checked) }
            var decoded: RecordedEvent?
            try verifier.check(
                position: statement.int64(at: 0), streamID: statement.int64(at: 1),
                version: statement.int64(at: 2)
            ) { () throws(EventStoreError) in
                let event = try decodeRow(statement, stream: nil)
                decoded = event
                return event
            }
            if checkTree, let decoded { try tree.add(decoded, storedTile: storedTile) }
        }
        let report = try verifier.finish(headPosition: head.position, headHash: head.hash)
        if checkTree { try tree.finish(storedTile: storedTile) }
        if !legacyIDIndex { try verifyIDIndex(headPosition: head.position) }
        return report
    }

    /// The id index must cover exactly positions 1…through, one row each (rows removed or added
    /// behind the store's back would let a duplicate id in, or refuse a new one).
    private func verifyIDIndex(headPosition: Int64) throws(EventStoreError) {
        let (through, rows) = try run("reading the event id index") { () throws(SQLiteError) in
            (
                try sql.scalarInt("SELECT through FROM journal_id_index WHERE singleton = 1") ?? -1,
                try sql.scalarInt("SELECT count(*) FROM journal_event_ids") ?? -1
            )
        }
        guard through >= 0, through <= headPosition, rows == through else {
            throw EventStoreError(
                code: .integrity,
                message:
                    "\(path): the event id index should hold the \(through) events it covers (head "
                    + "\(headPosition)) but holds \(rows)"
            )
        }
    }
}
