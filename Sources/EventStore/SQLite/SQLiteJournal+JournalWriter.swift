extension SQLiteJournal: JournalWriter {
    var isWriting: Bool { write != nil }
    var writeProgress: (written: Int, headPosition: Int64)? { write.map { ($0.written, $0.headPosition) } }

    func beginGroup(_ batches: [[StreamAppend]]) throws(EventStoreError) { try beginWrite() }

    /// Each request runs under its own savepoint, so one request's conflict does not fail the
    /// others, unless its failure may roll the transaction back (`abortsOnFailure`). A savepoint
    /// makes SQLite copy each page the request changes into a statement journal first (a file
    /// once past 64 KiB), and costs two statements.
    // Not inlined: Swift 6.3.1's optimizer (CopyPropagation) crashed on `GroupCommit.run` with this
    // body and its savepoint closure inlined into it.
    @inline(never)
    func appendGroupRequest(_ batch: [StreamAppend], abortsOnFailure: Bool) throws(EventStoreError)
        -> [AppendResult]
    {
        func appendParts() throws(EventStoreError) -> [AppendResult] {
            var results: [AppendResult] = []
            results.reserveCapacity(batch.count)
            for part in batch { results.append(try append(part)) }
            return results
        }
        guard abortsOnFailure else { return try withSavepoint(appendParts) }
        do {
            return try appendParts()
        } catch {
            rollbackWrite()
            throw error
        }
    }

    var requestUndoCostsEveryRequest: Bool { true }

    func beginTransaction() throws(EventStoreError) { try beginWrite() }

    func appendInTransaction(_ request: StreamAppend) throws(EventStoreError) -> AppendResult {
        try withSavepoint { () throws(EventStoreError) in try append(request) }
    }
}
