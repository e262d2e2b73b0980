extension PostgresJournal: JournalWriter {
    var isWriting: Bool { write != nil }
    var writeProgress: (written: Int, headPosition: Int64)? { write.map { ($0.written, $0.headPosition) } }

    /// The server's commit is durable when it answers.
    func commitGroup() throws(EventStoreError) -> DeferredSync? {
        try commitWrite()
        return nil
    }

    func endGroup() {}

    /// `BEGIN`, the lock and every lookup of the group in one round trip.
    func beginGroup(_ batches: [[StreamAppend]]) throws(EventStoreError) {
        var streams: [String] = []
        var ids: [String] = []
        for batch in batches {
            for part in batch {
                streams.append(part.stream.rawValue)
                for event in part.events { ids.append(event.id) }
            }
        }
        do {
            try beginWrite(streams: streams, ids: ids)
            try trainDictionaryIfDue()
        } catch {
            rollbackWrite()
            throw error
        }
    }

    /// A single append is failure-atomic by itself. For several parts, nothing is sent to the
    /// server until the commit (every lookup was done at `BEGIN`), so restoring this copy undoes
    /// a request that failed halfway through its parts.
    func appendGroupRequest(_ batch: [StreamAppend], abortsOnFailure: Bool) throws(EventStoreError)
        -> [AppendResult]
    {
        let snapshot = batch.count > 1 ? write : nil
        do {
            var results: [AppendResult] = []
            results.reserveCapacity(batch.count)
            for part in batch { results.append(try append(part)) }
            return results
        } catch {
            // When the server aborted the transaction (`write` is nil) there is nothing to restore.
            if write != nil, let snapshot { write = snapshot }
            throw error
        }
    }

    /// A request's undo is a copy of `write` taken only for requests of several parts.
    var requestUndoCostsEveryRequest: Bool { false }

    func beginTransaction() throws(EventStoreError) { try beginWrite() }

    /// A failed append leaves the transaction as it was: `PostgresJournal.append` publishes its
    /// changes only when it succeeds.
    func appendInTransaction(_ request: StreamAppend) throws(EventStoreError) -> AppendResult {
        try trainDictionaryIfDue()
        return try append(request)
    }
}
