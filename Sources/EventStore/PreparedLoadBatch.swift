import JournalCore
import Synchronization

/// A batch of a journal load made ready by a `LoadPreparer` on the thread that produced it, so
/// that the load's writer only finds streams, numbers, hashes and writes the rows
/// (`SQLiteJournalLoad.append(_:)`). The journal is the same, byte for byte, as with the batch's
/// `appends` given to `append(_ batch: [StreamAppend])`.
public struct PreparedLoadBatch: Sendable {
    /// What was prepared, as given.
    public let appends: [StreamAppend]
    /// For each append, the index of its first event in `events`, or -1 when the writer takes
    /// it the usual way: its events break a rule (so the writer refuses it when it reaches it,
    /// with the error and at the point `append(_:)` would), or one of them has no `recordedAt`
    /// (the store's clock gives it when it is written).
    var firstEvent: [Int] = []
    var events: [PreparedLoadEvent] = []
    /// Every event's link body (`ChainHasher.appendBody`) and compressed payload, one after the other.
    var bytes: [UInt8] = []
    /// Event types by the index `PreparedLoadEvent.type` refers to.
    var typeNames: [String] = []

    /// The number of events in the batch.
    public var eventCount: Int { appends.reduce(0) { $0 + $1.events.count } }

    init(appends: [StreamAppend]) {
        self.appends = appends
    }
}

/// One event of a `PreparedLoadBatch`: offsets into its `bytes`.
struct PreparedLoadEvent: Sendable {
    var key: EventIDKey
    var type: Int
    var occurredAt: Int64
    var recordedAt: Int64
    /// The link body: stream name to meta, with the raw data and meta inside it.
    var body: Range<Int>
    var dataOffset: Int
    var dataCount: Int
    var metaOffset: Int?
    var metaCount: Int?
    /// The payload compressed with dictionary `codec` (0: not compressed; the writer decides).
    var codec: Int64
    var compressed: Range<Int>
}

/// Prepares the batches of one `SQLiteJournalLoad` on another thread than the load's writer
/// (`SQLiteJournalLoad.makePreparer()`): checks each event against the store's rules, packs its
/// id, encodes the part of its chain link that does not depend on its position, and compresses
/// its payload once the load has trained its dictionary. Used by one thread at a time.
public final class LoadPreparer: @unchecked Sendable {
    private let maxPayloadBytes: Int
    private let published: PublishedDictionary
    private var dictionary: LZ4Dictionary?
    private var typeIndexes: [String: Int] = [:]
    private var typeNames: [String] = []
    private var raw: [UInt8] = []
    private var compressScratch: [UInt8] = []

    init(maxPayloadBytes: Int, published: PublishedDictionary) {
        self.maxPayloadBytes = maxPayloadBytes
        self.published = published
    }

    /// The batch, ready for `SQLiteJournalLoad.append(_:)`. Never throws: an append that breaks
    /// a rule is left to the writer, which refuses it when it reaches it.
    public func prepare(_ appends: [StreamAppend]) -> PreparedLoadBatch {
        if dictionary == nil, let (id, content) = published.value {
            dictionary = LZ4Dictionary(id: id, content: content)
        }
        var batch = PreparedLoadBatch(appends: appends)
        batch.firstEvent.reserveCapacity(appends.count)
        batch.bytes.reserveCapacity(appends.count * 320)
        for append in appends {
            let (firstEvent, firstByte) = (batch.events.count, batch.bytes.count)
            var preparable = true
            for event in append.events {
                guard let prepared = prepare(event, stream: append.stream, into: &batch.bytes) else {
                    preparable = false
                    break
                }
                batch.events.append(prepared)
            }
            if preparable {
                batch.firstEvent.append(firstEvent)
            } else {
                batch.events.removeSubrange(firstEvent...)
                batch.bytes.removeSubrange(firstByte...)
                batch.firstEvent.append(-1)
            }
        }
        batch.typeNames = typeNames
        return batch
    }

    /// One event, or nil when the writer must take its append the usual way: it breaks one of
    /// the store's rules (`EventRules`, checked here with what preparing computes anyway: an id
    /// that packs is a UUID, a type seen before is a valid name), or it has no `recordedAt`.
    private func prepare(_ event: ProposedEvent, stream: StreamName, into bytes: inout [UInt8]) -> PreparedLoadEvent? {
        guard let recordedAt = event.recordedAt,
              event.data.count + (event.meta?.count ?? 0) <= maxPayloadBytes else { return nil }
        let key = EventIDKey(event.id)
        if case .text = key, !UUIDText.isUUID(event.id) { return nil }
        guard let type = typeIndex(event.type) else { return nil }
        let start = bytes.count
        let offsets = event.data.withUnsafeBytes { data in
            JournalConnection.withOptionalBytes(event.meta) { meta in
                ChainHasher.appendBody(stream: stream.rawValue, id: event.id, type: event.type, occurredAt: event.occurredAt,
                                       recordedAt: recordedAt, data: data, meta: meta, to: &bytes)
            }
        }
        let body = start..<bytes.count
        var codec: Int64 = 0
        var compressed = bytes.count..<bytes.count
        if let dictionary {
            // Data and meta are stored as one payload: without meta, that is the body's data.
            let size: Int?
            if let meta = event.meta {
                raw.removeAll(keepingCapacity: true)
                raw.append(contentsOf: event.data)
                raw.append(contentsOf: meta)
                size = raw.withUnsafeBytes { StoredPayload.compress($0, with: dictionary, scratch: &compressScratch) }
            } else {
                size = bytes.withUnsafeBytes { all in
                    StoredPayload.compress(UnsafeRawBufferPointer(rebasing: all[offsets.data..<(offsets.data + event.data.count)]),
                                           with: dictionary, scratch: &compressScratch)
                }
            }
            if let size {
                codec = dictionary.id
                bytes.append(contentsOf: compressScratch[..<size])
                compressed = compressed.lowerBound..<bytes.count
            }
        }
        return PreparedLoadEvent(key: key, type: type,
                                 occurredAt: event.occurredAt.millisecondsSinceEpoch,
                                 recordedAt: recordedAt.millisecondsSinceEpoch, body: body,
                                 dataOffset: offsets.data, dataCount: event.data.count,
                                 metaOffset: offsets.meta, metaCount: event.meta?.count,
                                 codec: codec, compressed: compressed)
    }

    /// The batch's index of a type name; nil for a name the store refuses.
    private func typeIndex(_ type: String) -> Int? {
        if let index = typeIndexes[type] { return index }
        guard EventRules.isTypeName(type) else { return nil }
        typeNames.append(type)
        typeIndexes[type] = typeNames.count - 1
        return typeNames.count - 1
    }
}

/// The dictionary a load's writer trained and committed, for its preparers (another thread).
final class PublishedDictionary: Sendable {
    private let published = Mutex<(id: Int64, content: [UInt8])?>(nil)

    var value: (id: Int64, content: [UInt8])? { published.withLock { $0 } }

    func publish(id: Int64, content: [UInt8]) { published.withLock { $0 = (id, content) } }
}
