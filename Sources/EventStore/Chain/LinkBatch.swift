import COpenSSL
import JournalCore

/// The chain links of consecutive events of a scan, each written out whole (the layout in
/// `ChainHasher.swift`), so that another thread hashes each one with a single call.
///
/// The bytes are link after link. Each link starts with the magic and the stored hash of the
/// event before it, which the event before wrote when it was added: so the stored hash of
/// event `i` sits at offset 8 of link `i + 1`, and after the last link a started one holds
/// the last stored hash (which the next batch starts from). `ends[i]` is where link `i` ends.
///
/// A class over manually managed memory: a scan adds an event with one capacity check and
/// plain stores, without an array's uniqueness and capacity checks per field. One thread at a
/// time uses a batch (a scan hands it over, `HandOver`, and takes it back when the other thread
/// is done with it).
final class LinkBatch {
    /// How a stored event id is spelled in its link.
    enum ID {
        /// The 16 bytes of a lowercase canonical UUID (`EventIDCoding`): its text is 36 bytes.
        case packed(UnsafeRawBufferPointer)
        /// The id's UTF-8 text as stored.
        case text(UnsafeRawBufferPointer)
    }

    private var bytes: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes in use, the started link after the last event included.
    private var used = 0
    private let ends: UnsafeMutablePointer<Int>
    /// Events the batch holds at most.
    let limit: Int
    private(set) var count = 0
    /// The position of the first event (0 while empty).
    private(set) var firstPosition: Int64 = 0
    /// The row before the first event is missing (its hash is unknown).
    private var previousMissing = false
    /// Indexes of events whose stored hash is not 32 bytes (kept as 32 zero bytes, which no
    /// link hashes to, and reported even so).
    private var damaged: [Int] = []
    /// The events' leaf hashes, 32 bytes each, in order, once `computeLeafHashes()` has run.
    private(set) var leafHashes: [UInt8] = []
    /// Renders and hashes the leaf lines: one per batch, as a batch is used by one thread at a
    /// time and a hasher is not thread-safe.
    private var leafHasher: ChainHasher?

    /// `expected`: the events the batch will probably hold, for its first allocation (it grows
    /// as needed, and keeps its memory when it is reused).
    init(limit: Int, expected: Int) {
        self.limit = limit
        capacity = max(1, min(expected, limit)) * 320
        bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        ends = UnsafeMutablePointer<Int>.allocate(capacity: limit)
        start(previous: nil)
    }

    deinit {
        bytes.deallocate()
        ends.deallocate()
    }

    /// Empties the batch; the first event's link will start from `previous` (32 bytes; nil when
    /// that row is missing, or before position 1, which the first event's position tells apart).
    func start(previous: UnsafeRawBufferPointer?) {
        used = 0
        count = 0
        firstPosition = 0
        damaged.removeAll()
        leafHashes.removeAll(keepingCapacity: true)
        previousMissing = previous == nil
        startLink(hash: previous)
    }

    /// Empties the batch; its first event's link starts from the last stored hash of `before`.
    func start(after before: LinkBatch) {
        start(previous: UnsafeRawBufferPointer(start: before.bytes + before.used - 32, count: 32))
        previousMissing = before.previousMissing && before.count == 0
    }

    /// Adds one event's link, from its fields as they are stored (`hash`: the stored hash).
    func add(
        position: Int64, version: Int64, stream: UnsafeRawBufferPointer, id: ID, type: UnsafeRawBufferPointer,
        occurredAt: Int64, recordedAt: Int64, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?,
        hash: UnsafeRawBufferPointer
    ) {
        precondition(count < limit, "a link batch is full")
        let idCount: Int
        switch id {
        case .packed: idCount = 36
        case let .text(text): idCount = text.count
        }
        // Position and version, five length prefixes, two times, the meta flag, and the next
        // link's magic and previous hash.
        let size =
            16 + 20 + 16 + 1 + 40 + stream.count + idCount + type.count + data.count + (meta?.count ?? 0)
        reserve(size)
        if count == 0 { firstPosition = position }
        var at = bytes + used
        store(UInt64(bitPattern: position), at: &at)
        store(UInt64(bitPattern: version), at: &at)
        copyPrefixed(stream, at: &at)
        switch id {
        case let .packed(raw):
            store(UInt32(36), at: &at)
            EventIDCoding.writeText(packed: raw, to: at)
            at += 36
        case let .text(text): copyPrefixed(text, at: &at)
        }
        copyPrefixed(type, at: &at)
        store(UInt64(bitPattern: occurredAt), at: &at)
        store(UInt64(bitPattern: recordedAt), at: &at)
        copyPrefixed(data, at: &at)
        if let meta {
            at.storeBytes(of: 1, as: UInt8.self)
            at += 1
            copyPrefixed(meta, at: &at)
        } else {
            at.storeBytes(of: 0, as: UInt8.self)
            at += 1
        }
        used = at - bytes
        ends[count] = used
        if hash.count != 32 { damaged.append(count) }
        count += 1
        startLink(hash: hash.count == 32 ? hash : nil)
    }

    /// What ``failure(mismatch:)`` says of an event whose link does not hash to its stored hash,
    /// as ``ChainLinkCheck`` says it.
    static let defaultMismatch = "the event's content does not match its stored hash"

    /// The first event whose stored hash is not its recomputed link; `mismatch` is what the
    /// error says of it.
    func failure(mismatch: String = LinkBatch.defaultMismatch) -> EventStoreError? {
        guard count > 0 else { return nil }
        if firstPosition > 1 && previousMissing {
            return .integrity(at: firstPosition, "the event before it (position \(firstPosition - 1)) is missing")
        }
        var link = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &link) { link in
            var start = 0
            for index in 0..<count {
                let end = ends[index]
                // A failed digest (an allocation failure) never verifies.
                let hashed = journal_sha256(bytes + start, end - start, link.baseAddress) == 1
                if !hashed || !ChainHasher.isSameHash(link.baseAddress!, bytes + end + 8)
                    || (!damaged.isEmpty && damaged.contains(index))
                {
                    return .integrity(at: firstPosition + Int64(index), mismatch)
                }
                start = end
            }
            return nil
        }
    }

    /// Computes every event's leaf hash (spec §6) into `leafHashes`, from its link:
    /// the position and version, the body after them (the layout `LeafLine.Fields(body:)`
    /// reads), and the stored hash, which starts the next link. For a scan that builds the tree
    /// (the schema upgrade), on the thread that checks the batch. Call it after `failure()`
    /// found none: a damaged stored hash is read as 32 zero bytes.
    /// - Throws: `.io` when OpenSSL gives no SHA-256.
    func computeLeafHashes() throws(EventStoreError) {
        let hasher: ChainHasher
        if let leafHasher {
            hasher = leafHasher
        } else {
            hasher = ChainHasher()
            leafHasher = hasher
        }
        leafHashes.removeAll(keepingCapacity: true)
        leafHashes.append(contentsOf: repeatElement(0, count: 32 * count))
        leafHashes.withUnsafeMutableBytes { out in
            var start = 0
            for index in 0..<count {
                let end = ends[index]
                let link = bytes + start
                hasher.leafHash(
                    body: UnsafeRawBufferPointer(start: link + 56, count: end - start - 56),
                    position: Int64(bigEndian: link.loadUnaligned(fromByteOffset: 40, as: Int64.self)),
                    version: Int64(bigEndian: link.loadUnaligned(fromByteOffset: 48, as: Int64.self)),
                    hash: UnsafeRawBufferPointer(start: bytes + end + 8, count: 32),
                    into: UnsafeMutableRawBufferPointer(rebasing: out[(32 * index)..<(32 * index + 32)]))
                start = end
            }
        }
    }

    /// Starts the next link: the magic, then `hash` (32 zero bytes when nil).
    @inline(__always)
    private func startLink(hash: UnsafeRawBufferPointer?) {
        reserve(40)
        let at = bytes + used
        at.storeBytes(of: Self.magic, as: UInt64.self)
        for offset in stride(from: 0, to: 32, by: 8) {
            let word = hash.map { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) } ?? 0
            at.storeBytes(of: word, toByteOffset: 8 + offset, as: UInt64.self)
        }
        used += 40
    }

    /// `ChainHasher.magic` as the word that stores its eight bytes in order.
    private static let magic = ChainHasher.magic.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }

    /// Room for `size` more bytes after the ones in use.
    @inline(__always)
    private func reserve(_ size: Int) {
        if used + size > capacity { grow(to: used + size) }
    }

    private func grow(to size: Int) {
        let larger = max(size, capacity * 2)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
        moved.copyMemory(from: bytes, byteCount: used)
        bytes.deallocate()
        bytes = moved
        capacity = larger
    }

    /// A big-endian integer of the link.
    @inline(__always)
    private func store<T: FixedWidthInteger>(_ value: T, at: inout UnsafeMutableRawPointer) {
        at.storeBytes(of: value.bigEndian, as: T.self)
        at += MemoryLayout<T>.size
    }

    /// A field of the link: its byte count (32 bits, big-endian), then its bytes.
    @inline(__always)
    private func copyPrefixed(_ field: UnsafeRawBufferPointer, at: inout UnsafeMutableRawPointer) {
        store(UInt32(truncatingIfNeeded: field.count), at: &at)
        if let base = field.baseAddress { at.copyMemory(from: base, byteCount: field.count) }
        at += field.count
    }
}
