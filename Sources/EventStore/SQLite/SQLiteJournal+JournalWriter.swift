extension SQLiteJournal: JournalWriter {
    var isWriting: Bool { write != nil }
    var writeProgress: (written: Int, headPosition: Int64)? { write.map { ($0.written, $0.headPosition) } }

    func beginGroup(_ batches: [[StreamAppend]]) throws(EventStoreError) { try beginWrite() }

    /// Each request runs under its own savepoint, so one request's conflict does not fail the
    /// others; a lone single append needs none (its failure rolls the transaction back).
    // Not inlined: Swift 6.3.1's optimizer (CopyPropagation) crashed on `GroupCommit.run` with this
    // body and its savepoint closure inlined into it.
    @inline(never)
    func appendGroupRequest(_ batch: [StreamAppend], alone: Bool) throws(EventStoreError) -> [AppendResult] {
        if alone {
            do {
                return [try append(batch[0])]
            } catch {
                rollbackWrite()
                throw error
            }
        }
        return try withSavepoint { () throws(EventStoreError) in
            var results: [AppendResult] = []
            results.reserveCapacity(batch.count)
            for part in batch { results.append(try append(part)) }
            return results
        }
    }

    func beginTransaction() throws(EventStoreError) { try beginWrite() }

    func appendInTransaction(_ request: StreamAppend) throws(EventStoreError) -> AppendResult {
        try withSavepoint { () throws(EventStoreError) in try append(request) }
    }
}
