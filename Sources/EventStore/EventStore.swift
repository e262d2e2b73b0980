import JournalCore

// The store's public surface. Backends (SQLite, PostgreSQL) implement `EventStore`; the CLI, the
// projections and the benchmarks only see this protocol and the value types below.
//
// The API is synchronous and thread-safe: calls may come from many threads at once, and
// concurrent appends in one process are group-committed (one transaction, one fsync).

/// A stream name `<category>-<id>`, e.g. `3ds-0b9e…` or `card-…`. Compared exactly as written.
public struct StreamName: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String
    /// A hash of the name's bytes, computed once when it is checked: the writer's maps keyed by
    /// stream (`SQLiteJournal.streamIDs`, a transaction's new streams, a load's
    /// `NewJournalStreams`) hash it instead of the whole name, several times per append.
    let nameHash: Int
    /// The part before the first `-` (`3ds`, `card`).
    public var category: Substring { rawValue.prefix(while: { $0 != "-" }) }
    /// The part after the first `-`.
    public var id: Substring { rawValue.drop(while: { $0 != "-" }).dropFirst() }
    public var description: String { rawValue }
    public static func < (lhs: StreamName, rhs: StreamName) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func == (lhs: StreamName, rhs: StreamName) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.rawValue == rhs.rawValue
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(nameHash) }

    /// Validates the naming rule: a non-empty category of `[a-z0-9]`, a `-`, a non-empty id of
    /// printable ASCII without spaces, 200 bytes at most.
    public init(_ rawValue: String) throws(EventStoreError) {
        guard let hash = UTF8Bytes.with(rawValue, StreamName.hashIfValid) else { throw .invalidStreamName(rawValue) }
        self.rawValue = rawValue
        nameHash = hash
    }

    public static func isValid(_ rawValue: String) -> Bool {
        UTF8Bytes.with(rawValue, hashIfValid) != nil
    }

    /// The name's hash when it follows the naming rule, in one pass over its bytes: 8 at a time,
    /// each word xored in then multiplied and folded (SplitMix64's mixer).
    private static func hashIfValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count <= 200 else { return nil }
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var word: UInt64 = 0
        var dash: Int?
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if dash != nil {
                guard byte > 0x20 && byte < 0x7F else { return nil }
            } else if byte == UInt8(ascii: "-") {
                guard index > 0 else { return nil }
                dash = index
            } else {
                guard
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                else { return nil }
            }
            word = word << 8 | UInt64(byte)
            if index & 7 == 7 {
                hash = mix(hash ^ word)
                word = 0
            }
        }
        guard let dash, dash < bytes.count - 1 else { return nil }
        return Int(truncatingIfNeeded: mix(hash ^ word))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31
        x = x &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 29)
    }
}

/// What the caller believes about a stream before appending to it.
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must have at least one event.
    case streamExists
    /// The stream's last version must be exactly this (versions start at 0).
    case exact(Int64)

    public var description: String {
        switch self {
        case .any: return "any"
        case .noStream: return "no stream"
        case .streamExists: return "stream exists"
        case let .exact(version): return "version \(version)"
        }
    }
}

/// An event to append. The journal assigns position, version, recordedAt (unless given) and hash.
public struct ProposedEvent: Sendable, Equatable {
    /// The idempotency key: a UUID, compared exactly as written.
    public var id: String
    public var type: String
    public var occurredAt: Timestamp
    /// The `data` object as compact JSON text (UTF-8), exactly what will be stored and exported.
    public var data: [UInt8]
    /// The `meta` object as compact JSON text, or nil when absent or empty.
    public var meta: [UInt8]?
    /// When set, used as recordedAt instead of the store's clock (the simulator's clock, say).
    public var recordedAt: Timestamp?

    public init(
        id: String, type: String, occurredAt: Timestamp, data: [UInt8], meta: [UInt8]? = nil,
        recordedAt: Timestamp? = nil
    ) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.data = data
        self.meta = meta
        self.recordedAt = recordedAt
    }
}

/// An event as stored.
public struct RecordedEvent: Sendable, Equatable {
    public var position: Int64
    public var stream: StreamName
    public var version: Int64
    public var id: String
    public var type: String
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var data: [UInt8]
    public var meta: [UInt8]?
    /// SHA-256 of the chain link (32 bytes).
    public var hash: [UInt8]

    public init(
        position: Int64, stream: StreamName, version: Int64, id: String, type: String,
        occurredAt: Timestamp, recordedAt: Timestamp, data: [UInt8], meta: [UInt8]?, hash: [UInt8]
    ) {
        self.position = position
        self.stream = stream
        self.version = version
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.data = data
        self.meta = meta
        self.hash = hash
    }
}

/// One stream's part of an (atomic, possibly multi-stream) append.
public struct StreamAppend: Sendable {
    public var stream: StreamName
    public var expectedVersion: ExpectedVersion
    public var events: [ProposedEvent]

    public init(stream: StreamName, expectedVersion: ExpectedVersion = .any, events: [ProposedEvent]) {
        self.stream = stream
        self.expectedVersion = expectedVersion
        self.events = events
    }
}

/// What an append did, per stream.
public struct AppendResult: Sendable, Equatable {
    public var stream: StreamName
    /// The position of each proposed event, in order: newly written or, for an idempotent
    /// duplicate, the position it was first stored at.
    public var positions: [Int64]
    /// The stream's last version after the append (nil if the stream is still empty).
    public var lastVersion: Int64?
    /// How many events were newly written (the others were duplicates).
    public var written: Int

    public init(stream: StreamName, positions: [Int64], lastVersion: Int64?, written: Int) {
        self.stream = stream
        self.positions = positions
        self.lastVersion = lastVersion
        self.written = written
    }
}

public enum ReadDirection: Sendable {
    case forward
    case backward
}

/// The outcome of a full integrity check.
public struct VerifyReport: Sendable, Equatable {
    public var events: Int64
    public var streams: Int64
    public var headPosition: Int64
    /// Hex SHA-256 of the last event (the chain head), empty for an empty journal.
    public var headHash: String

    public init(events: Int64, streams: Int64, headPosition: Int64, headHash: String) {
        self.events = events
        self.streams = streams
        self.headPosition = headPosition
        self.headHash = headHash
    }
}

/// The journal's head row and its last stored event, read in one snapshot. In an intact journal
/// they are the same position and hash.
public struct LogEnd: Sendable, Equatable {
    /// The head row's position and hash (nil when the row is missing).
    public var headPosition: Int64?
    public var headHash: [UInt8]?
    /// The last stored event's position and stored hash (nil when no event is stored).
    public var lastPosition: Int64?
    public var lastHash: [UInt8]?

    public init(headPosition: Int64?, headHash: [UInt8]?, lastPosition: Int64?, lastHash: [UInt8]?) {
        self.headPosition = headPosition
        self.headHash = headHash
        self.lastPosition = lastPosition
        self.lastHash = lastHash
    }
}

/// The Merkle tree's size and root at one moment (spec §6).
public struct TreeHead: Sendable, Equatable {
    public var size: Int64
    /// SHA-256 root (32 bytes); SHA-256 of nothing for the empty tree.
    public var root: [UInt8]

    public init(size: Int64, root: [UInt8]) {
        self.size = size
        self.root = root
    }
}

/// A signed checkpoint the journal kept: the signed note as text, what it signs, and when the
/// journal kept it (its clock).
public struct StoredCheckpoint: Sendable, Equatable {
    public var size: Int64
    public var root: [UInt8]
    /// The whole signed note (C2SP signed-note: the text, a blank line, the signature lines),
    /// with the witnesses' cosignatures the journal kept for it after the log's signature lines
    /// (spec §11): what `checkpoint --latest`, `prove`, `bundle` and `publish` hand out.
    public var note: String
    public var signedAt: Timestamp
    /// The cosignatures in `note`, one per witness key (the latest kept), oldest first.
    public var cosignatures: [StoredCosignature]

    public init(
        size: Int64, root: [UInt8], note: String, signedAt: Timestamp, cosignatures: [StoredCosignature] = []
    ) {
        self.size = size
        self.root = root
        self.note = note
        self.signedAt = signedAt
        self.cosignatures = cosignatures
    }
}

/// What a bulk writer needs: every `EventStore`, and a load building a new file (`BatchLoadWriting`).
/// `BatchPipeline` feeds either from an `EventBatchSource`.
public protocol BatchAppending: AnyObject {
    /// Appends to several streams in one transaction: all or nothing.
    @discardableResult
    func append(_ batch: [StreamAppend]) throws(EventStoreError) -> [AppendResult]

    /// The store's own bulk writer, which takes batches prepared on the producing thread (a new
    /// journal's load); nil when batches go to `append(_:)` as they are.
    /// - Throws: the store's errors (a load that is over).
    func preparedLoadWriter() throws(EventStoreError) -> PreparedLoadWriter?
}

/// An append-only event store. Every backend passes the same conformance suite.
public protocol EventStore: BatchAppending, Sendable {
    /// Appends to one stream, atomically.
    @discardableResult
    func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult

    /// Appends to several streams in one transaction: all or nothing.
    @discardableResult
    func append(_ batch: [StreamAppend]) throws(EventStoreError) -> [AppendResult]

    /// Up to `limit` events of a stream starting at `version` (inclusive), in `direction`.
    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]

    /// Up to `limit` events of the whole log with position ≥ `position`, in position order.
    func readAll(from position: Int64, limit: Int) throws(EventStoreError) -> [RecordedEvent]

    /// ``readAll(from:limit:)`` lent in place: calls `body` for up to `limit` events with
    /// position ≥ `position`, in position order, until it returns false, and returns how many it
    /// handed over. Each event is checked against its chain link as `readAll` checks it, a batch
    /// of links at a time beside the read (as ``EventScanning/scanAll(from:limit:_:)``): an event
    /// may reach `body` before its check ends, and a failure is thrown at the latest when the
    /// read returns, naming the first bad position.
    @discardableResult
    func readAll(from position: Int64, limit: Int, _ body: (LentEvent) -> Bool) throws(EventStoreError) -> Int

    /// The stream's last version, or nil when it has no events.
    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64?

    /// The last committed position (0 for an empty journal).
    func headPosition() throws(EventStoreError) -> Int64

    /// The head row and the last stored event, read together (one snapshot): what
    /// ``checkForCuts()`` holds to each other.
    func logEnd() throws(EventStoreError) -> LogEnd

    /// The stored event with this id, if any.
    func event(withID id: String) throws(EventStoreError) -> RecordedEvent?

    /// Every stream name, sorted, optionally of one category.
    func streams(category: String?) throws(EventStoreError) -> [StreamName]

    /// Walks the whole log: chain, positions, versions. Throws `EventStoreError` with code
    /// `.integrity` and the first bad position when anything was changed.
    func verify() throws(EventStoreError) -> VerifyReport

    /// ``verify()``, calling `progress` with the number of events checked so far every few
    /// thousand events (for a progress line).
    func verify(progress: (_ checked: Int64) -> Void) throws(EventStoreError) -> VerifyReport

    /// Blocks until a commit may have moved the head past `position`, or `timeout` passes.
    /// Backends wake early on commits they know of; the default just sleeps. Used by
    /// `EventFollower`.
    func waitForCommit(after position: Int64, timeout: Duration)

    /// Suspends until a commit may have moved the head past `position`, `timeout` passes or the
    /// task is cancelled. Used by `EventSubscription`.
    func waitForCommit(after position: Int64, timeout: Duration) async

    // MARK: Verifiable evidence (spec §6; roots and proofs: `EventStore+Tree.swift`)

    /// The size of the journal's Merkle tree: its head position (every committed event is in it).
    /// - Throws: `.needsUpgrade` for a journal of an older schema opened read-only.
    func treeSize() throws(EventStoreError) -> Int64

    /// The stored hashes of tree tile (level, index) (`TreeTiles`: up to 256 hashes of the nodes
    /// at height 8·level with indexes index·256 …, 32 bytes each), as committed; empty when
    /// there is no such tile yet. Tiles only grow: what one read returns stays a prefix of later
    /// reads.
    func treeTile(level: Int, index: Int64) throws(EventStoreError) -> [UInt8]

    /// Stores a signed checkpoint as given, stamped with the store's clock (append-only). Use
    /// `keepCheckpoint(note:size:root:)`, which checks it against the tree first.
    @discardableResult
    func storeCheckpoint(note: String, size: Int64, root: [UInt8]) throws(EventStoreError) -> StoredCheckpoint

    /// Every checkpoint the journal kept, oldest first.
    func checkpoints() throws(EventStoreError) -> [StoredCheckpoint]

    /// The last checkpoint the journal kept, if any: one row, however many were kept (every
    /// proof and bundle asks for it, and a journal signed at every import keeps thousands).
    func latestCheckpoint() throws(EventStoreError) -> StoredCheckpoint?

    // MARK: Witnesses (contract section 11: `EventStore+Witnesses.swift`)

    /// Keeps witnesses' cosignatures (append-only) and the tree sizes the journal now knows
    /// witnesses to hold, in one transaction. The tables are made on first use.
    func storeCosignatures(_ cosignatures: [StoredCosignature], witnessSizes: [WitnessSize])
        throws(EventStoreError)

    /// The kept cosignatures of checkpoints of `size` events (every size: nil), oldest first.
    func cosignatures(size: Int64?) throws(EventStoreError) -> [StoredCosignature]

    /// The tree size the journal last knew each witness (by verifier key) to hold for `origin`.
    func witnessSizes(origin: String) throws(EventStoreError) -> [String: Int64]
}

extension EventStore {
    /// Stores that cannot report progress verify without it.
    public func verify(progress: (_ checked: Int64) -> Void) throws(EventStoreError) -> VerifyReport {
        try verify()
    }

    public func waitForCommit(after position: Int64, timeout: Duration) {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        SystemClock.sleep(nanoseconds: nanoseconds)
    }

    public func waitForCommit(after position: Int64, timeout: Duration) async {
        try? await Task.sleep(for: timeout)
    }

    /// Follows the whole log from `position` (inclusive): the stored events, then new ones as
    /// they are committed. See `EventSubscription`.
    public func follow(
        from position: Int64, pollInterval: Duration = .milliseconds(100),
        pageSize: Int = 1_000
    ) -> EventSubscription {
        EventSubscription(store: self, from: position, pollInterval: pollInterval, pageSize: max(pageSize, 1))
    }
}

/// A scoped write transaction (`BEGIN IMMEDIATE` on SQLite): everything appended inside it
/// becomes visible atomically when the body returns, and nothing does when it throws. Reads
/// inside the transaction see its own uncommitted appends. Never escapes its closure.
public protocol EventStoreTransaction: AnyObject {
    /// Appends like `EventStore.append`. An append the store refuses (a conflict, a duplicate
    /// id with other content, an invalid event) leaves the transaction as it was, and the body
    /// may go on. A failure of the storage itself (a full disk, an I/O error) may end the whole
    /// transaction: every later call then throws, and so does `write`, which commits nothing.
    @discardableResult
    func append(_ events: [ProposedEvent], to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> AppendResult
    func lastVersion(of stream: StreamName) throws(EventStoreError) -> Int64?
    func read(stream: StreamName, from version: Int64, direction: ReadDirection, limit: Int)
        throws(EventStoreError) -> [RecordedEvent]
    func event(withID id: String) throws(EventStoreError) -> RecordedEvent?
}

extension EventStore {
    /// Convenience: the whole stream, forward.
    public func readStream(_ stream: StreamName) throws(EventStoreError) -> [RecordedEvent] {
        try read(stream: stream, from: 0, direction: .forward, limit: Int.max)
    }
}

/// A store that supports long, scoped write transactions (bulk imports that are all or nothing).
public protocol TransactionalEventStore: EventStore {
    /// Runs `body` in one exclusive write transaction; commits when it returns, rolls back and
    /// rethrows the first error when it throws.
    func write<R>(_ body: (any EventStoreTransaction) throws -> R) throws -> R
}
