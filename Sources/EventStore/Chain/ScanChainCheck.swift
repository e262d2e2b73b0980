import JournalCore

/// The chain check of a scan (``EventScanning/scanAll(from:limit:_:)``) on either backend: events
/// come in position order, so each one's link is computed from the hash of the row before it,
/// and a missing position is caught too. The first event's previous hash is looked up once.
///
/// The links are recomputed on another thread while the scan goes on: `check` encodes each
/// event's link body into a batch (a copy, as the scan lends its bytes only during the call),
/// and a full batch is hashed by a `BackgroundTask` while the next one fills. Every batch
/// starts from the stored hash before it, so batches are independent of each other. A scan
/// must call `finish()` before it returns: it checks what is left and reports the first failure.
/// The failure reported is always the first bad position: a batch's result is collected before
/// any later failure is thrown.
struct ScanChainCheck {
    /// Events per batch handed to the other thread.
    static let batchEvents = 1_024

    private var previous: [UInt8]?
    private var expectedPosition: Int64
    private var batch: LinkBatch
    private var inFlight: BackgroundTask<EventStoreError?>?
    /// The hasher of the batches' thread; another one hashes a batch checked on the caller's thread.
    private var worker: LinkBatch.Worker?
    private let hasher: ChainHasher

    /// `previousHash`: the stored hash at `position − 1` (ignored at position 1; nil when that row
    /// is missing, which the first event then reports).
    init(from position: Int64, previousHash: [UInt8]?, hasher: ChainHasher) {
        self.hasher = hasher
        previous = position <= 1 ? ChainHasher.zeroHash : previousHash
        expectedPosition = max(position, 1)
        batch = LinkBatch(previous: previous)
    }

    /// Adds one event to the check and remembers its stored hash for the next.
    mutating func check(
        position: Int64, version: Int64, stream: String, id: String, type: String,
        occurredAt: Int64, recordedAt: Int64, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, hash: [UInt8]
    ) throws(EventStoreError) {
        guard position == expectedPosition else {
            try finish() // an earlier bad link is the first failure
            throw .integrity(at: expectedPosition, "position \(expectedPosition) is missing from the log")
        }
        batch.add(
            position: position, version: version, stream: stream, id: id, type: type, occurredAt: occurredAt,
            recordedAt: recordedAt, data: data, meta: meta, hash: hash)
        previous = hash
        expectedPosition = position + 1
        if batch.count >= Self.batchEvents { try handOff() }
    }

    /// Checks every event added so far; throws the first that does not check.
    mutating func finish() throws(EventStoreError) {
        if let failure = inFlight?.wait() { throw failure }
        inFlight = nil
        guard batch.count > 0 else { return }
        let full = batch
        batch = LinkBatch(previous: previous)
        if let failure = full.failure(hasher: hasher) { throw failure }
    }

    /// Starts hashing the full batch on the other thread, once the one before it has checked.
    private mutating func handOff() throws(EventStoreError) {
        if let failure = inFlight?.wait() { throw failure }
        if worker == nil { worker = try LinkBatch.Worker() }
        let full = batch
        batch = LinkBatch(previous: previous)
        let worker = self.worker!
        inFlight = BackgroundTask { worker.failure(of: full) }
    }
}

/// The link bodies of consecutive events, with what their hashes need.
struct LinkBatch: Sendable {
    /// The stored hash before the first event (nil: that row is missing).
    let previous: [UInt8]?
    private var bodies: [UInt8] = []
    private var ends: [Int] = []
    private var positions: [Int64] = []
    private var versions: [Int64] = []
    /// The stored hashes, 32 bytes each.
    private var hashes: [UInt8] = []

    init(previous: [UInt8]?) {
        self.previous = previous
    }

    var count: Int { positions.count }

    mutating func add(
        position: Int64, version: Int64, stream: String, id: String, type: String, occurredAt: Int64,
        recordedAt: Int64, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?, hash: [UInt8]
    ) {
        _ = UTF8Bytes.with(id) { id in
            ChainHasher.appendBody(
                stream: stream, id: id, type: type,
                occurredAt: Timestamp(millisecondsSinceEpoch: occurredAt),
                recordedAt: Timestamp(millisecondsSinceEpoch: recordedAt),
                data: data, meta: meta, to: &bodies)
        }
        ends.append(bodies.count)
        positions.append(position)
        versions.append(version)
        // A stored hash of the wrong length never matches: it is kept as 32 bytes that cannot be
        // a link (the recomputed link is compared with the original below).
        hashes.append(contentsOf: hash.count == 32 ? hash : ChainHasher.zeroHash)
        if hash.count != 32 { damaged.append(positions.count - 1) }
    }

    /// Indexes of events whose stored hash is not 32 bytes.
    private var damaged: [Int] = []

    /// The first event whose stored hash is not its recomputed link, as ``ChainLinkCheck`` says it.
    func failure(hasher: ChainHasher) -> EventStoreError? {
        guard let firstPosition = positions.first else { return nil }
        if firstPosition > 1 && previous == nil {
            return .integrity(at: firstPosition, "the event before it (position \(firstPosition - 1)) is missing")
        }
        let first = firstPosition <= 1 ? ChainHasher.zeroHash : previous ?? ChainHasher.zeroHash
        var link = ChainHasher.zeroHash
        let bad: Int? = bodies.withUnsafeBytes { all in
            hashes.withUnsafeBytes { stored in
                first.withUnsafeBytes { first in
                    link.withUnsafeMutableBytes { out in
                        var start = 0
                        for index in positions.indices {
                            // Each link starts from the stored hash before it, as a single read's check does.
                            let before =
                                index == 0
                                ? first
                                : UnsafeRawBufferPointer(rebasing: stored[(32 * (index - 1))..<(32 * index)])
                            hasher.hash(
                                previous: before, position: positions[index], version: versions[index],
                                body: UnsafeRawBufferPointer(rebasing: all[start..<ends[index]]), into: out)
                            let expected = UnsafeRawBufferPointer(rebasing: stored[(32 * index)..<(32 * index + 32)])
                            if !UnsafeRawBufferPointer(out).elementsEqual(expected) || damaged.contains(index) {
                                return index
                            }
                            start = ends[index]
                        }
                        return nil
                    }
                }
            }
        }
        return bad.map { .integrity(at: positions[$0], "the event's content does not match its stored hash") }
    }

    /// The hasher of a scan's other thread. `@unchecked Sendable`: one batch at a time uses it
    /// (a scan waits for a batch's task before it starts the next one).
    final class Worker: @unchecked Sendable {
        private let hasher: ChainHasher

        init() throws(EventStoreError) { hasher = try ChainHasher() }

        func failure(of batch: LinkBatch) -> EventStoreError? { batch.failure(hasher: hasher) }
    }
}
