import JournalCore

extension SQLiteEventStore {
    /// How the SQLite store opens, writes and compares. Every member has a production default.
    public struct Configuration: Sendable {
        /// `PRAGMA synchronous` for the write connection.
        public enum Synchronous: Int32, Sendable {
            /// No fsync: fastest, loses recent commits on a power cut (never corrupts).
            case off = 0
            /// In WAL mode an fsync per checkpoint, not per commit: a power cut can lose the last
            /// commits, but a process crash cannot.
            case normal = 1
            /// **Default.** The WAL is fsynced at every commit: a commit that returned survives a
            /// power cut. Group commit shares that fsync between concurrent appenders.
            case full = 2
        }

        /// The clock for `recordedAt` when a `ProposedEvent` carries none.
        public var clock: @Sendable () -> Timestamp
        public var synchronous: Synchronous
        /// How long a writer waits for another process's write lock before `.busy`.
        public var busyTimeoutMilliseconds: Int32
        /// The largest `data.count + (meta?.count ?? 0)` of one event: 1 MiB by default (the same
        /// limit EventStoreDB puts on a whole append). Larger events throw `.tooLarge`.
        public var maxPayloadBytes: Int
        /// Create the file (and the schema) when missing. Read-only commands pass false and get
        /// `.missing` instead of an empty journal.
        public var createIfMissing: Bool
        /// Open with `SQLITE_OPEN_READONLY`: appends throw `.readOnly`, nothing is created.
        public var readOnly: Bool
        /// Decides whether a stored event and a re-proposed event with the same id are the same
        /// event (an idempotent duplicate) or a conflict. The default compares stream, type,
        /// occurredAt, data bytes and meta bytes (an absent meta equals only an absent meta);
        /// recordedAt is not compared, because the store assigns it.
        public var isSameContent: @Sendable (RecordedEvent, ProposedEvent) -> Bool
        /// LZ4 dictionary compression: after this many events the first dictionary is built from
        /// events 1…n (deterministically) and stored; 0 disables compression.
        public var dictionaryTrainingEvents: Int64
        /// The dictionary's maximum size in bytes (LZ4 uses at most 64 KiB).
        public var dictionarySize: Int
        /// `PRAGMA max_page_count` for the write connection (nil: SQLite's default). Tests use it
        /// to simulate a full disk.
        public var maxPageCount: Int?
        /// SQLite page cache per connection, in KiB (64 MiB by default; SQLite's own default is 2 MiB).
        public var cacheSizeKiB: Int = 64 * 1024
        /// Bytes of the file read through `mmap` (256 MiB by default; 0 turns it off).
        public var mmapSizeBytes: Int = 256 << 20
        /// WAL pages between automatic checkpoints (SQLite's default is 1000).
        public var walAutocheckpointPages: Int = 10_000

        /// `walAutocheckpointPages` for a bulk writer that closes when done (`journal import`,
        /// `journal simulate`): 100,000 pages (≈ 400 MB of WAL at most). Pages rewritten by many
        /// commits (the random name index of a growing journal) are copied back once per
        /// checkpoint, not once per 10,000, so a bulk writer runs faster and writes less
        /// (BENCHMARKS.md, "Append path"). The last connection's close checkpoints and removes
        /// the WAL.
        public static let bulkWALAutocheckpointPages = 100_000
        /// When the writer copies the log tail's event ids into the id index (tests make it
        /// small to exercise the copy; see `SQLiteEventStore+Schema.swift`).
        public var idIndex = IDIndexPolicy()
        /// Streams a write transaction remembers (ids, last versions) before it forgets them and
        /// asks SQLite again: bounds the memory of a long transaction such as a big import.
        public var transactionStreamMemory = 100_000
        /// Check every event `read(stream:)` and `readAll` return against its chain link (its
        /// stored hash must be SHA-256 of the previous event's stored hash and its content), and
        /// throw `.integrity` naming the position when one does not check. On by default: a
        /// reader never acts on an event changed behind the journal's back. A tool that reports
        /// bad events itself (the audit view) turns it off and checks each event.
        public var verifiesReads = true
        /// Set by `SQLiteJournalLoad` only: the file is a new journal under construction, written
        /// with an in-memory rollback journal instead of the WAL, and its id index is built once
        /// at the end instead of as the log grows (the load's ids are checked for repeats then).
        var buildsNewJournal = false

        public init(
            clock: @escaping @Sendable () -> Timestamp = Configuration.systemClock,
            synchronous: Synchronous = .full,
            busyTimeoutMilliseconds: Int32 = 10_000,
            maxPayloadBytes: Int = 1 << 20,
            createIfMissing: Bool = true,
            readOnly: Bool = false,
            isSameContent: @escaping @Sendable (RecordedEvent, ProposedEvent) -> Bool = Configuration.sameBytes,
            dictionaryTrainingEvents: Int64 = 1_000,
            dictionarySize: Int = 64 * 1024,
            maxPageCount: Int? = nil
        ) {
            self.clock = clock
            self.synchronous = synchronous
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.maxPayloadBytes = maxPayloadBytes
            self.createIfMissing = createIfMissing
            self.readOnly = readOnly
            self.isSameContent = isSameContent
            self.dictionaryTrainingEvents = dictionaryTrainingEvents
            self.dictionarySize = dictionarySize
            self.maxPageCount = maxPageCount
        }

        /// The default duplicate rule: same stream, type, occurredAt, data bytes and meta bytes.
        public static let sameBytes: @Sendable (RecordedEvent, ProposedEvent) -> Bool = { stored, proposed in
            stored.type == proposed.type && stored.occurredAt == proposed.occurredAt
                && stored.data == proposed.data && stored.meta == proposed.meta
        }

        /// Wall-clock time in milliseconds (`clock_gettime(CLOCK_REALTIME)`).
        public static let systemClock: @Sendable () -> Timestamp = { SystemClock.now() }
    }
}
