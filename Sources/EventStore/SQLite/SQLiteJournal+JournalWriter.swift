extension SQLiteJournal: JournalWriter {
    var isWriting: Bool { write != nil }
    var writeProgress: (written: Int, headPosition: Int64)? { write.map { ($0.written, $0.headPosition) } }

    /// With `synchronous=FULL` in WAL mode, a group commits with `NORMAL` (no sync at the commit;
    /// checkpoints still sync) and its leader syncs the WAL after releasing the writer
    /// (`commitGroup`), so the next group's appends overlap the sync.
    func beginGroup(_ batches: [[StreamAppend]]) throws(EventStoreError) {
        if !groupSyncDeferred, try defersGroupSync() {
            try run("deferring the group's sync") { () throws(SQLiteError) in
                try sql.execute("PRAGMA synchronous = NORMAL")
            }
            groupSyncDeferred = true
        }
        try beginWrite()
    }

    func commitGroup() throws(EventStoreError) -> DeferredSync? {
        try commitWrite()
        return groupSyncDeferred ? DeferredSync(walPath: path + "-wal") : nil
    }

    /// Back to the configured `synchronous` for every other commit of the connection (a
    /// `write { }`, a witness's checkpoint); when that fails, the next group tries again and
    /// `write { }` refuses to begin (`beginTransaction`).
    func endGroup() {
        guard groupSyncDeferred else { return }
        if (try? sql.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")) != nil {
            groupSyncDeferred = false
        }
    }

    /// Whether groups sync after the commit: a file journal in WAL mode with `synchronous=FULL`.
    private func defersGroupSync() throws(EventStoreError) -> Bool {
        if let known = walJournal { return known && configuration.synchronous == .full }
        let mode: String? = try run("reading the journal mode") { () throws(SQLiteError) in
            let statement = try sql.cached("PRAGMA journal_mode")
            defer { statement.reset() }
            return try statement.step() ? statement.text(at: 0) : nil
        }
        walJournal = mode?.lowercased() == "wal" && !configuration.readOnly && !configuration.buildsNewJournal
        return walJournal == true && configuration.synchronous == .full
    }

    /// Each request is undone by itself when it fails, so one request's conflict does not fail
    /// the others, unless its failure may roll the transaction back (`abortsOnFailure`). A
    /// request of one stream's new events needs no undo (`appendInTransaction`); others run
    /// under a savepoint, which makes SQLite copy each page the request changes into a
    /// statement journal first (a file once past 64 KiB), and costs two statements.
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
        guard abortsOnFailure else {
            if batch.count == 1 { return [try appendInTransaction(batch[0])] }
            return try withSavepoint(appendParts)
        }
        do {
            return try appendParts()
        } catch {
            rollbackWrite()
            throw error
        }
    }

    var requestUndoCostsEveryRequest: Bool { true }

    func beginTransaction() throws(EventStoreError) {
        if groupSyncDeferred {
            endGroup()
            if groupSyncDeferred {
                throw EventStoreError(code: .io, message: "\(path): could not restore synchronous after a group commit")
            }
        }
        try beginWrite()
    }

    /// Under a savepoint only when an event's id is stored already (an idempotent retry, or a
    /// conflict that may be found after earlier events of the request were written). An append
    /// of new events fails before its first write (a rule of `EventRules`, an expected-version
    /// conflict), leaving the transaction as it was, or while writing, by SQLite's own failure (a
    /// full disk, an I/O error), which ends the whole transaction.
    func appendInTransaction(_ request: StreamAppend) throws(EventStoreError) -> AppendResult {
        guard write?.savepoints == 0, try hasOnlyNewEvents(request) else {
            return try withSavepoint { () throws(EventStoreError) in try append(request) }
        }
        let changes = sql.totalChanges
        do {
            let result = try append(request, eventsAreNew: true)
            try maintainBetweenAppends()
            return result
        } catch {
            if write != nil && sql.totalChanges != changes { rollbackWrite() }
            throw error
        }
    }

    /// Whether no event of `request` is stored (in the journal or this transaction) and no id
    /// appears twice in it.
    private func hasOnlyNewEvents(_ request: StreamAppend) throws(EventStoreError) -> Bool {
        if request.events.count > 1 && Set(request.events.lazy.map(\.id)).count != request.events.count {
            return false
        }
        for event in request.events where try positionInWrite(of: EventIDKey(event.id), id: event.id) != nil {
            return false
        }
        return true
    }
}
