import JournalCore

extension PostgresEventStore {
    /// How the PostgreSQL store connects, writes and compares. The members shared with
    /// `SQLiteEventStore.Configuration` mean the same thing there.
    public struct Configuration: Sendable {
        /// The clock for `recordedAt` when a `ProposedEvent` carries none.
        public var clock: @Sendable () -> Timestamp
        /// The largest `data.count + (meta?.count ?? 0)` of one event (1 MiB by default).
        public var maxPayloadBytes: Int
        /// Create the schema when the database (or the schema on the `search_path`) has no
        /// journal yet. Read-only commands pass false and get `.missing` instead.
        public var createIfMissing: Bool
        /// Sessions run `default_transaction_read_only`: appends throw `.readOnly`.
        public var readOnly: Bool
        /// Same rule as `SQLiteEventStore.Configuration.isSameContent`.
        public var isSameContent: @Sendable (RecordedEvent, ProposedEvent) -> Bool
        /// LZ4 dictionary compression after this many events (0 disables it); same format as
        /// the SQLite store.
        public var dictionaryTrainingEvents: Int64
        public var dictionarySize: Int
        /// `synchronous_commit` for the writer session: true (the default) waits for the WAL
        /// flush, so a commit that returned survives a crash of the server.
        public var synchronousCommit: Bool
        /// How long a writer waits for the journal's append lock (held by another process's
        /// commit) before `.busy`.
        public var lockTimeoutMilliseconds: Int
        /// Statements per pipeline round trip when a commit carries many events.
        public var pipelineChunk: Int
        /// Check every event `read(stream:)` and `readAll` return against its chain link, as the
        /// SQLite store does (`SQLiteEventStore.Configuration.verifiesReads`). On by default.
        public var verifiesReads = true

        public init(
            clock: @escaping @Sendable () -> Timestamp = SQLiteEventStore.Configuration.systemClock,
            maxPayloadBytes: Int = 1 << 20,
            createIfMissing: Bool = true,
            readOnly: Bool = false,
            isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool = SQLiteEventStore.Configuration
                .sameBytes,
            dictionaryTrainingEvents: Int64 = 1_000,
            dictionarySize: Int = 64 * 1024,
            synchronousCommit: Bool = true,
            lockTimeoutMilliseconds: Int = 10_000,
            pipelineChunk: Int = 1_000
        ) {
            self.clock = clock
            self.maxPayloadBytes = maxPayloadBytes
            self.createIfMissing = createIfMissing
            self.readOnly = readOnly
            self.isSameContent = isSameContent
            self.dictionaryTrainingEvents = dictionaryTrainingEvents
            self.dictionarySize = dictionarySize
            self.synchronousCommit = synchronousCommit
            self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
            self.pipelineChunk = max(pipelineChunk, 1)
        }
    }
}
