/// What the backend-neutral write path (`GroupCommit`, `WriteTransaction`) needs from a
/// backend's writer session: `SQLiteJournal` (SQLite) and `PostgresJournal` (PostgreSQL).
/// Not thread-safe; `GroupCommit` hands the writer to one thread at a time.
protocol JournalWriter: AnyObject {
    /// True while a write transaction is open (false once the backend aborted it).
    var isWriting: Bool { get }
    /// The events written so far and the head position of the open write transaction.
    var writeProgress: (written: Int, headPosition: Int64)? { get }

    /// Opens the one transaction of a group commit of these requests (on failure, nothing is
    /// left open).
    func beginGroup(_ batches: [[StreamAppend]]) throws(EventStoreError)
    /// Appends one request of a group commit, all-or-nothing: a failure leaves the transaction
    /// as it was before this request (or aborted, `isWriting` false). With `abortsOnFailure` (the
    /// request is the group's only one, or the group runs without undo) the backend may abort
    /// the whole transaction on failure instead of undoing the request inside it.
    func appendGroupRequest(_ batch: [StreamAppend], abortsOnFailure: Bool) throws(EventStoreError)
        -> [AppendResult]
    /// Whether undoing a failed request inside a group's transaction costs on every request,
    /// failed or not (SQLite's savepoints): `GroupCommit` then first runs a group without it,
    /// and runs it again with it only when a request failed.
    var requestUndoCostsEveryRequest: Bool { get }

    /// Opens the transaction of `write { }`.
    func beginTransaction() throws(EventStoreError)
    /// One append of `write { }`, all-or-nothing by itself.
    func appendInTransaction(_ request: StreamAppend) throws(EventStoreError) -> AppendResult

    func commitWrite() throws(EventStoreError)
    /// Commits a group's transaction. A backend that made it durable later than the commit
    /// returns what does (run once the writer is released); nil: durable already.
    func commitGroup() throws(EventStoreError) -> DeferredSync?
    /// Called once a group's transaction is over (committed, rolled back or never begun).
    func endGroup()
    func rollbackWrite()

    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64?
    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]
    func storedEvent(id: String) throws(EventStoreError) -> RecordedEvent?
}
