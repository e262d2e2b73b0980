import JournalCore

/// The journal on PostgreSQL: the same protocol, rules, byte format and integrity chain as
/// `SQLiteEventStore`, for several processes and machines writing one journal.
///
/// ```swift
/// let store = try PostgresEventStore(url: "postgres://journal@db.internal/journal")
/// try store.append([event], to: stream, expectedVersion: .noStream)
/// for try await event in store.follow(from: 1) { … }   // woken by LISTEN/NOTIFY
/// ```
///
/// - Positions are gapless and in commit order across processes: see `PostgresJournal` for the
///   append lock that guarantees it.
/// - Idempotency and expected versions follow `SQLiteEventStore`'s documented rules exactly.
/// - Appends are decided on the client while the lock is held and sent in libpq pipeline mode:
///   a commit costs two round trips whatever its size (lock and lookups; rows, head, notify and
///   `COMMIT`), plus the WAL flush.
/// - Immutability is enforced by triggers (UPDATE, DELETE, TRUNCATE refused); `verify()` walks
///   the chain in one REPEATABLE READ snapshot.
///
/// ## Thread safety (unchecked `Sendable`)
/// Three sessions, each used by one thread at a time: the **writer** belongs to
/// `GroupCommit` (its leader, or the thread inside `write { }`); the **reader** is guarded
/// by a mutex; the **listener** session belongs to `PostgresCommitListener`'s thread, started by
/// the first wait for a commit and stopped in `deinit`.
// Unchecked Sendable: each session is used by one thread at a time, handed over by its lock (above).
public final class PostgresEventStore: TransactionalEventStore, @unchecked Sendable {
    /// The connection string with its credentials redacted: safe to print.
    public let location: String
    public let configuration: Configuration
    private let url: String
    private let commits: GroupCommit<PostgresJournal>
    private let reader: PostgresJournal
    private let readerLock = ConditionLock()
    private let signal = CommitSignal()
    private let listener: PostgresCommitListener
    /// The journal's schema version: below "3" only for an older journal opened read-only (no
    /// stream ends; "1": no tree either).
    let fileSchemaVersion: String

    /// Connects to the journal at `url` (a `postgres://` URL or libpq key=value string),
    /// creating its tables in the session's schema when missing unless
    /// `configuration.createIfMissing` is false.
    ///
    /// - Throws: `.missing` (no database, or no journal and no creation), `.notAJournal`, `.io`
    ///   (cannot connect: the message shows the URL without its password).
    public init(url: String, configuration: Configuration = Configuration()) throws(EventStoreError) {
        self.url = url
        self.configuration = configuration
        location = PostgresURL.redacted(url)
        let writer = try PostgresJournal(url: url, configuration: configuration, writer: true)
        var version = try PostgresEventStore.prepareSchema(writer.pg, configuration: configuration)
        if version == "1" && !configuration.readOnly {
            try writer.upgradeToTree()
            version = "2"
        }
        if version == "2" && !configuration.readOnly {
            try writer.upgradeToStreamEnds()
            version = Self.schemaVersion
        }
        fileSchemaVersion = version
        reader = try PostgresJournal(url: url, configuration: configuration, writer: false)
        reader.hasTree = version != "1"
        reader.hasStreamEnds = version == Self.schemaVersion
        writer.hasTree = reader.hasTree
        writer.hasStreamEnds = reader.hasStreamEnds
        let signal = self.signal
        commits = GroupCommit(writer: writer, didCommit: { signal.publish($0) })
        listener = PostgresCommitListener(url: url, schema: writer.schema, signal: signal)
    }

    deinit { listener.stop() }

    func reading<R>(_ body: (PostgresJournal) throws(EventStoreError) -> R) throws(EventStoreError) -> R {
        readerLock.lock()
        defer { readerLock.unlock() }
        return try body(reader)
    }

    // MARK: - EventStore

    @discardableResult
    public func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult
    {
        try commits.append([StreamAppend(stream: stream, expectedVersion: expectedVersion, events: events)])[0]
    }

    /// None: a PostgreSQL journal takes a bulk append's batches through `append(_:)`, in its own write
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
        try reading { journal throws(EventStoreError) in
            try journal.read(stream: stream, from: version, direction: direction, limit: limit)
        }
    }

    public func readAll(from position: Int64, limit: Int) throws(EventStoreError) -> [RecordedEvent] {
        try reading { journal throws(EventStoreError) in try journal.readAll(from: position, limit: limit) }
    }

    @discardableResult
    public func readAll(from position: Int64, limit: Int, _ body: (LentEvent) -> Bool) throws(EventStoreError) -> Int {
        try reading { journal throws(EventStoreError) in try journal.readAll(from: position, limit: limit, body) }
    }

    public func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64? {
        try reading { journal throws(EventStoreError) in try journal.lastVersion(of: stream) }
    }

    public func headPosition() throws(EventStoreError) -> Int64 {
        try reading { journal throws(EventStoreError) in try journal.headPosition() }
    }

    public func logEnd() throws(EventStoreError) -> LogEnd {
        try reading { journal throws(EventStoreError) in try journal.logEnd() }
    }

    public func event(withID id: String) throws(EventStoreError) -> RecordedEvent? {
        try reading { journal throws(EventStoreError) in try journal.storedEvent(id: id) }
    }

    public func streams(category: String?) throws(EventStoreError) -> [StreamName] {
        try reading { journal throws(EventStoreError) in try journal.streams(category: category) }
    }

    public func verify() throws(EventStoreError) -> VerifyReport {
        let report = try reading { journal throws(EventStoreError) in try journal.verify() }
        try checkKeptCheckpoints()
        return report
    }

    public func verify(progress: (_ checked: Int64) -> Void) throws(EventStoreError) -> VerifyReport {
        let report = try reading { journal throws(EventStoreError) in try journal.verify(progress: progress) }
        try checkKeptCheckpoints()
        return report
    }

    /// Waits for a commit of this process (at once) or of any other (LISTEN/NOTIFY).
    public func waitForCommit(after position: Int64, timeout: Duration) {
        listener.start()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        signal.wait(after: position, seconds: seconds)
    }

    public func waitForCommit(after position: Int64, timeout: Duration) async {
        listener.start()
        await signal.wait(after: position, timeout: timeout)
    }

    // MARK: - TransactionalEventStore

    /// Runs `body` in one transaction holding the append lock: every other writer waits until it
    /// returns. Each `append` inside is all-or-nothing by itself; the whole transaction commits
    /// when `body` returns; when `body` throws, everything rolls back and the error is rethrown.
    /// Inside `body`, `store.append` and a nested `store.write` on the same thread throw
    /// `.invalidInput` (rather than deadlocking); reads on the store see the committed state.
    public func write<R>(_ body: (any EventStoreTransaction) throws -> R) throws -> R {
        try commits.transaction(body)
    }

    /// Runs `body` with the store's writer session, outside any transaction: for tooling that
    /// needs the journal's own database (tests that tamper through raw SQL). Nothing the body
    /// does is checked; the store's caches are dropped afterwards.
    package func withConnection<R>(_ body: (PostgresConnection) throws -> R) rethrows -> R {
        defer {
            commits.exclusive { journal in journal.forgetCaches() }
            readerLock.withLock { reader.forgetCaches() }
        }
        return try commits.exclusive { journal in try body(journal.pg) }
    }

    /// Transactions committed by this store's group commit (for tests and diagnostics).
    public var groupCommitCount: Int { commits.commitCount }
}
