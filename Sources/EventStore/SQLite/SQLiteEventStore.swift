import JournalCore

/// The embedded event store: one SQLite file in WAL mode (or `:memory:`).
///
/// ```swift
/// let store = try SQLiteEventStore(path: "journal.db")
/// let stream = try StreamName("3ds-0b9e6f3a-…")
/// let event = ProposedEvent(id: "…uuid…", type: "AuthRequestParametersCreated",
///                           occurredAt: now, data: Array(#"{"amount":1250}"#.utf8))
/// let result = try store.append([event], to: stream, expectedVersion: .noStream)
/// // result.positions == [1], result.lastVersion == 0
/// ```
///
/// ## Idempotency (by event id)
/// - An event whose id is already stored **in the same stream** with the same content (by
///   `Configuration.isSameContent`) is an idempotent duplicate: nothing is written and its
///   original position is returned in `AppendResult.positions`; `written` counts only new events.
///   This also holds for a repeated id inside one append (the second is a duplicate of the first).
/// - The same id with other content, or stored in another stream, throws `.duplicateIDConflict`
///   naming the id, the stream and the stored position; nothing of the append is written.
/// - Expected versions: when the expectation holds, duplicates are skipped and the new events are
///   appended after the stream's last version. When it does not hold and **every** event is a
///   duplicate, the append succeeds as a no-op returning the original positions: it is a retry of
///   an append that was already checked and committed (a lost reply, a client timeout), so a
///   retried `append(sameEvents, expectedVersion: .exact(v))` succeeds even though the stream has
///   moved on. Otherwise it throws `.conflict` with the stream, the expected and the actual version.
///
/// ## Thread safety (unchecked `Sendable`)
/// The store owns two SQLite connections, each opened `SQLITE_OPEN_NOMUTEX` and each used by one
/// thread at a time:
/// - the **writer** belongs to `GroupCommit`: only the current group-commit leader, or the thread
///   inside `write { }`, touches it (a pthread mutex and condition hand it over);
/// - the **reader** is guarded by its own mutex, so reads never wait for a commit's fsync and see
///   the last committed state (WAL snapshot per statement).
/// A `:memory:` or read-only store has one connection, used through the writer's hand-over.
// Unchecked Sendable: each connection is used by one thread at a time, handed over by its lock (above).
public final class SQLiteEventStore: TransactionalEventStore, @unchecked Sendable {
    public let path: String
    public let configuration: Configuration
    let commits: GroupCommit<SQLiteJournal>
    private let reader: SQLiteJournal?
    private let readerLock = ConditionLock()
    private let signal = CommitSignal()
    /// The file's schema version: below 4 only for an older file opened read-only, which has no
    /// stream ends (below 3: no tree either).
    let fileSchemaVersion: Int64

    /// Opens the journal at `path` (`:memory:` for a private in-memory journal), creating it when
    /// missing unless `configuration.createIfMissing` is false.
    ///
    /// - Throws: `.missing` (no file and no creation), `.notAJournal` (another SQLite database or
    ///   not a database), `.invalidInput` (no file, but an earlier database's `-wal` or
    ///   `-journal` is there), `.readOnly`, `.busy`, `.io`.
    public init(path: String, configuration: Configuration = Configuration()) throws(EventStoreError) {
        self.path = path
        self.configuration = configuration
        let inMemory = path == ":memory:" || path.isEmpty
        if !inMemory && !FileSystem.exists(path) {
            // What a load of this journal killed before it finished left beside it.
            NewJournalFile.removeLeftovers(of: path)
            if !configuration.readOnly && configuration.createIfMissing { try Self.refuseLeftovers(of: path) }
        }
        let writer = try SQLiteJournal(path: path, configuration: configuration, writer: true)
        var version = try SQLiteEventStore.prepareSchema(
            writer.sql, path: path, readOnly: configuration.readOnly,
            loadIndexes: !configuration.buildsNewJournal)
        if version == 1 {
            writer.legacyIDIndex = true // a version 1 file opened read-only: read as it is
        } else if version == 2 && !configuration.readOnly {
            try writer.upgradeToTree()
            version = Self.schemaVersion
        }
        writer.hasTree = version >= 3
        writer.hasStreamEnds = version >= 4
        fileSchemaVersion = version
        reader =
            inMemory || configuration.readOnly
            ? nil : try SQLiteJournal(path: path, configuration: configuration, writer: false)
        reader?.hasTree = writer.hasTree
        reader?.hasStreamEnds = writer.hasStreamEnds
        let signal = self.signal
        commits = GroupCommit(writer: writer, didCommit: { signal.publish($0) })
    }

    deinit {
        // The read-only reader closes first, so that the writer is the last connection of this
        // store to close and can checkpoint the WAL into the database file.
        reader?.close()
        commits.closeWriter()
    }

    /// Refuses to create a journal at `path` when a `-wal` or `-journal` file of an earlier
    /// database of that name (deleted without them) is still there: SQLite would replay its
    /// pages into the new file, which would then hold another database's pages.
    static func refuseLeftovers(of path: String) throws(EventStoreError) {
        for suffix in ["-wal", "-journal"] where FileSystem.exists(path + suffix) {
            throw EventStoreError(
                code: .invalidInput,
                message: "\(path)\(suffix) exists without \(path) (left by an earlier "
                    + "database of that name): SQLite would apply it to a new journal there; remove it "
                    + "or choose another path. Nothing was written at \(path)")
        }
    }

    /// Runs `body` on a connection that sees the last committed state.
    func reading<R>(_ body: (SQLiteJournal) throws(EventStoreError) -> R) throws(EventStoreError) -> R {
        if let reader {
            readerLock.lock()
            defer { readerLock.unlock() }
            return try body(reader)
        }
        return try commits.exclusive(reentrant: true) { connection throws(EventStoreError) in try body(connection) }
    }

    // MARK: - EventStore

    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult
    {
        try commits.append([StreamAppend(stream: stream, expectedVersion: expectedVersion, events: events)])[0]
    }

    /// None: a journal file takes a bulk append's batches through `append(_:)`, in its own write
    /// transactions (only a new journal's load prepares them ahead, `SQLiteJournalLoad`).
    public func preparedLoadWriter() throws(EventStoreError) -> PreparedLoadWriter? { nil }

    @discardableResult
    public func append(_ batch: [StreamAppend]) throws(EventStoreError) -> [AppendResult] {
        guard !batch.isEmpty else { return [] }
        return try commits.append(batch)
    }

    public func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]
    {
        try reading { connection throws(EventStoreError) in
            try connection.read(stream: stream, from: version, direction: direction, limit: limit)
        }
    }

    public func readAll(from position: Int64, limit: Int) throws(EventStoreError) -> [RecordedEvent] {
        try reading { connection throws(EventStoreError) in try connection.readAll(from: position, limit: limit) }
    }

    @discardableResult
    public func readAll(from position: Int64, limit: Int, _ body: (LentEvent) -> Bool) throws(EventStoreError) -> Int {
        try reading { connection throws(EventStoreError) in try connection.readAll(from: position, limit: limit, body) }
    }

    public func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64? {
        try reading { connection throws(EventStoreError) in try connection.lastVersion(of: stream) }
    }

    public func headPosition() throws(EventStoreError) -> Int64 {
        try reading { connection throws(EventStoreError) in try connection.head().position }
    }

    public func logEnd() throws(EventStoreError) -> LogEnd {
        try reading { connection throws(EventStoreError) in try connection.logEnd() }
    }

    public func event(withID id: String) throws(EventStoreError) -> RecordedEvent? {
        try reading { connection throws(EventStoreError) in try connection.storedEvent(id: id) }
    }

    public func streams(category: String?) throws(EventStoreError) -> [StreamName] {
        try reading { connection throws(EventStoreError) in try connection.streams(category: category) }
    }

    public func verify() throws(EventStoreError) -> VerifyReport {
        let report = try reading { connection throws(EventStoreError) in try connection.verify() }
        try checkKeptCheckpoints()
        return report
    }

    public func verify(progress: (_ checked: Int64) -> Void) throws(EventStoreError) -> VerifyReport {
        let report = try reading { connection throws(EventStoreError) in try connection.verify(progress: progress) }
        try checkKeptCheckpoints()
        return report
    }

    public func waitForCommit(after position: Int64, timeout: Duration) {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        signal.wait(after: position, seconds: seconds)
    }

    public func waitForCommit(after position: Int64, timeout: Duration) async {
        await signal.wait(after: position, timeout: timeout)
    }

    // MARK: - TransactionalEventStore

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction on the writer. Each `append` inside is
    /// all-or-nothing by itself (a savepoint), and the whole transaction commits when `body`
    /// returns; when `body` throws, everything rolls back and the error is rethrown.
    ///
    /// Inside `body`, append through the transaction: `store.append` on the same thread throws
    /// `.invalidInput`, and so does a nested `store.write` (rather than deadlocking). Reads on the
    /// store from inside `body` see the last committed state (on `:memory:`, which has a single
    /// connection, they also see the transaction's own appends); `tx.read` sees them everywhere.
    public func write<R>(_ body: (any EventStoreTransaction) throws -> R) throws -> R {
        try commits.transaction(body)
    }

    /// Runs `body` with the store's write connection to itself, outside any transaction: for
    /// tooling that needs the same database as the store (a `:memory:` journal's projections,
    /// tests that tamper through raw SQL). Nothing the body does is checked; the store's caches
    /// are dropped afterwards, so it rereads what the body may have changed.
    package func withConnection<R>(_ body: (SQLiteConnection) throws -> R) rethrows -> R {
        defer { forgetCaches() }
        return try commits.exclusive(reentrant: true) { connection in try body(connection.sql) }
    }

    /// Runs `body` with the writing connection, which no other thread uses meanwhile.
    func withWriter<R, E: Error>(_ body: (SQLiteJournal) throws(E) -> R) throws(E) -> R {
        try commits.exclusive(body)
    }

    private func forgetCaches() {
        commits.exclusive(reentrant: true) { connection in connection.forgetCaches() }
        if let reader {
            readerLock.lock()
            reader.forgetCaches()
            readerLock.unlock()
        }
    }

    /// Transactions committed by this store's group commit (for tests and diagnostics).
    public var groupCommitCount: Int { commits.commitCount }
}
