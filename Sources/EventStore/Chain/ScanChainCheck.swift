import JournalCore

/// The chain check of a scan (``EventScanning/scanAll(from:limit:_:)``) on either backend: events
/// come in position order, so each one's link is computed from the hash of the row before it,
/// and a missing position is caught too. The first event's previous hash is looked up once.
struct ScanChainCheck {
    private let hasher: ChainHasher
    /// The stored hash at `expectedPosition − 1`; nil when that row is missing.
    private var previous: [UInt8]?
    private var expectedPosition: Int64

    /// `previousHash`: the stored hash at `position − 1` (ignored at position 1; nil when that row
    /// is missing, which the first event then reports).
    init(from position: Int64, previousHash: [UInt8]?, hasher: ChainHasher) {
        self.hasher = hasher
        previous = position <= 1 ? ChainHasher.zeroHash : previousHash
        expectedPosition = max(position, 1)
    }

    /// Checks one event and remembers its hash for the next.
    mutating func check(position: Int64, version: Int64, stream: String, id: String, type: String,
                        occurredAt: Int64, recordedAt: Int64, data: UnsafeRawBufferPointer,
                        meta: UnsafeRawBufferPointer?, hash: [UInt8]) throws(EventStoreError) {
        guard position == expectedPosition else {
            throw .integrity(at: expectedPosition, "position \(expectedPosition) is missing from the log")
        }
        try ChainLinkCheck.check(position: position, previous: previous, version: version, stream: stream, id: id,
                                 type: type, occurredAt: Timestamp(millisecondsSinceEpoch: occurredAt),
                                 recordedAt: Timestamp(millisecondsSinceEpoch: recordedAt), data: data, meta: meta,
                                 hash: hash, hasher: hasher)
        previous = hash
        expectedPosition = position + 1
    }
}
