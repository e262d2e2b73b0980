import JournalCore

/// The point of the log a page describes (`journal report`, the dashboard): the head, the time
/// the journal recorded the head event, the latest kept checkpoint, the few integrity checks
/// made to state them, and whether the events at the two ends of the log are marked simulated.
///
/// Everything comes from the log itself, never from a clock: the same journal gives the same
/// value. Reading it costs a handful of point reads whatever the size of the journal.
public struct JournalAsOf: Sendable, Equatable {
    /// The last position (0 for an empty journal).
    public var headPosition: Int64
    /// When the journal recorded the head event (nil for an empty journal).
    public var headRecordedAt: Timestamp?
    /// The head event's hash (hex), empty for an empty journal.
    public var headHash: String
    /// The latest checkpoint the journal keeps, nil when it keeps none.
    public var checkpoint: CheckpointSummary?
    /// `meta.simulated` of the event at position 1 and of the head event (false for none).
    public var firstSimulated: Bool
    public var headSimulated: Bool

    /// What a page says of a kept checkpoint. Its signature is not checked here: a journal does
    /// not hold the verifier key (`journal verify --checkpoint FILE --key VKEY` checks it).
    public struct CheckpointSummary: Sendable, Equatable {
        public var size: Int64
        /// Base64 of the root.
        public var root: String
        /// The checkpoint's origin: the name of the key meant to sign it.
        public var origin: String
        /// The key id (8 hex digits) of each signature line by the origin's name.
        public var originKeyIDs: [String]
        /// Signature lines by other names (witnesses' cosignatures), not described here.
        public var otherSignatures: Int
        /// When the journal kept it (its clock).
        public var signedAt: Timestamp
    }

    public init(
        headPosition: Int64, headRecordedAt: Timestamp?, headHash: String, checkpoint: CheckpointSummary?,
        firstSimulated: Bool, headSimulated: Bool
    ) {
        self.headPosition = headPosition
        self.headRecordedAt = headRecordedAt
        self.headHash = headHash
        self.checkpoint = checkpoint
        self.firstSimulated = firstSimulated
        self.headSimulated = headSimulated
    }

    /// Reads the journal's head and latest checkpoint, checking that the head event is there and
    /// its chain link holds (its hash recomputed from its content and the previous event's hash),
    /// and that the log still has the tree the latest kept checkpoint signed.
    /// - Throws: `.integrity` naming the position when one of those does not hold (a cut log, an
    ///   edited head, a checkpoint larger than the log or whose root the log no longer has).
    public static func read(from store: any EventStore) throws(EventStoreError) -> JournalAsOf {
        let head = try store.headPosition()
        var asOf = JournalAsOf(
            headPosition: head, headRecordedAt: nil, headHash: "", checkpoint: nil, firstSimulated: false,
            headSimulated: false)
        if head > 0 {
            let found = try store.readAll(from: max(1, head - 1), limit: 2)
            guard let last = found.last, last.position == head else {
                throw .integrity(at: head, "the head event is missing: events were removed from the end of the log")
            }
            var previous = EventHashing.zeroHash
            if head > 1 {
                guard found.count == 2, found[0].position == head - 1 else {
                    throw .integrity(at: head - 1, "the event before the head is missing: events were removed")
                }
                previous = found[0].hash
            }
            guard try EventHashing.linkHash(previous: previous, event: last) == last.hash else {
                throw .integrity(at: head, "the head event's hash does not check: the row was changed")
            }
            asOf.headRecordedAt = last.recordedAt
            asOf.headHash = EventHashing.hex(last.hash)
            asOf.headSimulated = isSimulated(last)
            asOf.firstSimulated =
                head == 1 ? asOf.headSimulated : isSimulated(try store.readAll(from: 1, limit: 1).first)
        }
        if let kept = try store.latestCheckpoint() {
            asOf.checkpoint = try summary(of: kept, in: store)
        }
        return asOf
    }

    private static func summary(of kept: StoredCheckpoint, in store: any EventStore) throws(EventStoreError)
        -> CheckpointSummary
    {
        let signed: SignedCheckpoint
        do {
            signed = try SignedCheckpoint(parsing: kept.note)
        } catch {
            throw .integrity(at: kept.size, "the latest kept checkpoint (size \(kept.size)) is damaged: \(error)")
        }
        let checkpoint = signed.checkpoint
        let size = try store.treeSize()
        guard checkpoint.size <= size else {
            throw .integrity(
                at: size + 1,
                "the latest kept checkpoint covers \(checkpoint.size) events, but the log has only \(size): "
                    + "events were removed")
        }
        guard try store.treeRoot(size: checkpoint.size) == checkpoint.root else {
            throw .integrity(
                at: checkpoint.size,
                "the log's tree of its first \(checkpoint.size) events does not have the root of the latest "
                    + "kept checkpoint: it is not the log that was signed")
        }
        let byOrigin = signed.note.signatures.filter { $0.name == checkpoint.origin }
        return CheckpointSummary(
            size: checkpoint.size, root: Base64.encode(checkpoint.root), origin: checkpoint.origin,
            originKeyIDs: byOrigin.map { NoteKeyID.text($0.keyID) },
            otherSignatures: signed.note.signatures.count - byOrigin.count, signedAt: kept.signedAt)
    }

    /// True when the event's `meta` is an object whose `simulated` is `true` (the simulator's mark).
    static func isSimulated(_ event: RecordedEvent?) -> Bool {
        guard let meta = event?.meta, let value = try? JSONParser().parse(meta) else { return false }
        return value.objectValue?["simulated"] == .bool(true)
    }
}
