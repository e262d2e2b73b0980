import JournalCore
import Synchronization

/// A batch of a journal load made ready by a `LoadPreparer` on the thread that produced it, so
/// that the load's writer only finds streams, numbers, hashes and writes the rows
/// (`SQLiteJournalLoad.append(_:)`). The journal is the same, byte for byte, as with the same
/// appends given to `append(_ batch: [StreamAppend])`, and so are the errors.
package struct PreparedLoadBatch: Sendable {
    var appends: [PreparedAppend] = []
    var events: [PreparedLoadEvent] = []
    /// Every event's link body (`ChainHasher.appendBody`) and compressed payload, one after the other.
    var bytes: [UInt8] = []
    /// Event types by the index `PreparedLoadEvent.type` refers to.
    var typeNames: [String] = []
    /// The number of events in the batch.
    package internal(set) var eventCount = 0
    /// Every event's id, with its index in the batch as its position (the writer adds
    /// the head: a batch is written whole or not at all, in order); `idsPacked` false when one
    /// did not pack.
    var ids: [LoadEventIDs.Entry] = []
    var idsPacked = true
    /// The head the preparer assumed the batch starts at, for the chain hashes it computed
    /// ahead (nil: none computed). The writer uses a prepared hash only when the head really is
    /// this one and the event gets the version the preparer assumed: then the hash's inputs are
    /// the same, so it is the same hash.
    var assumedStart: (position: Int64, hash: [UInt8])?
    /// The load whose preparer made the batch (its published dictionary): payloads compressed
    /// with another load's dictionary number 1 must not be stored as this one's.
    var origin: ObjectIdentifier?

    /// Back to a new batch's state, keeping the arrays' capacity.
    mutating func empty() {
        appends.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        typeNames = []
        eventCount = 0
        ids.removeAll(keepingCapacity: true)
        idsPacked = true
        assumedStart = nil
        origin = nil
    }

    mutating func addID(_ key: EventIDKey) {
        if case let .packed(high, low) = key {
            ids.append(LoadEventIDs.Entry(high: high, low: low, position: Int64(eventCount)))
        } else {
            idsPacked = false
        }
        eventCount += 1
    }
}

/// One append of a `PreparedLoadBatch`.
struct PreparedAppend: Sendable {
    var stream: StreamName
    var expectedVersion: ExpectedVersion
    var count: Int
    var form: Form

    enum Form: Sendable {
        /// Events `first ..< first + count` of the batch.
        case prepared(first: Int)
        /// Left to the writer's usual path: an event has no `recordedAt` (the store's clock
        /// gives it when it is written).
        case usual(StreamAppend)
        /// An event breaks a rule: the writer throws this when it reaches the append, which is
        /// what the usual path does (the rules are checked before anything else).
        case refused(EventStoreError)
    }
}

/// One event of a `PreparedLoadBatch`: offsets into its `bytes`.
struct PreparedLoadEvent: Sendable {
    var key: EventIDKey
    /// The position and version the preparer assumed, and where the chain hash it computed with
    /// them is in `bytes` (-1: none).
    var assumedPosition: Int64 = 0
    var assumedVersion: Int64
    var hashOffset: Int
    var type: Int
    var occurredAt: Int64
    var recordedAt: Int64
    /// The link body: stream name to meta, with the raw data and meta inside it.
    var body: Range<Int>
    var data: Range<Int>
    var meta: Range<Int>?
    /// The dictionary the preparer had (0: none yet, the writer compresses if it has one).
    var preparedWith: Int64
    /// With `preparedWith`'s dictionary: the payload compressed (`codec` = its id) or stored raw
    /// (`codec` 0: compression would not save a byte).
    var codec: Int64
    var compressed: Range<Int>
}

/// Prepares the batches of one `SQLiteJournalLoad` on another thread than the load's writer
/// (`SQLiteJournalLoad.makePreparer()`): checks each event against the store's rules, packs its
/// id, encodes the part of its chain link that does not depend on its position, and compresses
/// its payload once the load has trained its dictionary. Used by one thread at a time.
///
/// A batch is given whole (`prepare(_:)`), or event by event, which needs no `StreamAppend` or
/// `ProposedEvent` at all (`beginAppend`, `add`, `finishBatch`):
///
/// ```swift
/// preparer.beginAppend(to: stream, expectedVersion: .noStream)
/// preparer.add(id: id, type: "TransactionCreated", occurredAt: t, recordedAt: t, data: data, meta: nil)
/// try load.append(preparer.finishBatch())
/// ```
///
/// A batch the writer is done with can be handed back (`reuse(_:)`): the next batch fills its
/// arrays again instead of growing new ones. A batch of 65,536 events is ≈ 40 MB of bytes,
/// which `malloc` would map fresh from the kernel each time, with page faults and the copies of
/// a growing array on the preparing thread (BENCHMARKS.md, "Load path").
package final class LoadPreparer {
    // One thread uses a preparer at a time (the producer's tasks are waited for in turn). The
    // properties keep their run-time exclusivity checks: skipping them saved nothing
    // measurable (docs/benchmarks-history.md, "Exclusivity checks").
    private let maxPayloadBytes: Int
    private let published: PublishedDictionary
    private var dictionary: LZ4Dictionary?
    private var typeIndexes: [String: Int] = [:]
    private var typeNames: [String] = []
    private var raw: [UInt8] = []
    private var compressScratch: [UInt8] = []
    /// The batch being built, and where its last append's events and bytes start.
    private var batch = PreparedLoadBatch()
    /// A written batch handed back, emptied, for the next one (`reuse(_:)`).
    private var spare: PreparedLoadBatch?
    private var appendStart = (events: 0, bytes: 0)
    /// The head as the preparer expects the writer to leave it: every batch written whole, in
    /// order, each append at the version it expects. `chainPosition` is nil once that cannot be
    /// known (an append that expects no particular version, or one left to the writer's usual
    /// path): the writer then hashes every event itself. `chainHash` is updated in place.
    private var chainPosition: Int64?
    private var chainHash: [UInt8]
    private let hasher: ChainHasher
    /// The version the next event of the current append gets, if known.
    private var nextVersion: Int64?

    init(maxPayloadBytes: Int, published: PublishedDictionary, head: (position: Int64, hash: [UInt8]))
        throws(EventStoreError)
    {
        self.maxPayloadBytes = maxPayloadBytes
        self.published = published
        chainPosition = head.position
        chainHash = head.hash
        hasher = ChainHasher()
    }

    /// The batch, ready for `SQLiteJournalLoad.append(_:)` (drops a batch begun event by event).
    package func prepare(_ appends: [StreamAppend]) -> PreparedLoadBatch {
        prepare(appends[...], recordedAt: nil)
    }

    /// The batch of `appends`; an event without `recordedAt` gets its append's time in
    /// `recordedAt` (read from the store's clock by the writer, one per append, as its usual path
    /// does), or, without them, leaves its append to the writer's usual path.
    func prepare(_ appends: ArraySlice<StreamAppend>, recordedAt times: ArraySlice<Timestamp>?) -> PreparedLoadBatch {
        batch.empty()
        for (offset, append) in appends.enumerated() {
            let now = times.map { $0[$0.startIndex + offset] }
            guard now != nil || append.events.allSatisfy({ $0.recordedAt != nil }) else {
                batch.appends.append(
                    PreparedAppend(
                        stream: append.stream, expectedVersion: append.expectedVersion,
                        count: append.events.count, form: .usual(append)))
                for event in append.events { batch.addID(EventIDKey(event.id)) }
                chainPosition = nil
                continue
            }
            beginAppend(to: append.stream, expectedVersion: append.expectedVersion)
            for event in append.events {
                event.data.withUnsafeBytes { data in
                    OptionalBytes.with(event.meta) { meta in
                        add(
                            id: event.id, type: event.type, occurredAt: event.occurredAt,
                            recordedAt: event.recordedAt ?? now ?? event.occurredAt, data: data, meta: meta)
                    }
                }
            }
        }
        return finishBatch()
    }

    /// Starts an append to `stream`: the events `add` gives next are its events.
    package func beginAppend(to stream: StreamName, expectedVersion: ExpectedVersion) {
        if batch.appends.isEmpty, dictionary == nil, let (id, content) = published.value {
            dictionary = LZ4Dictionary(id: id, content: content)
        }
        if batch.appends.isEmpty { batch.assumedStart = chainPosition.map { ($0, chainHash) } }
        appendStart = (batch.events.count, batch.bytes.count)
        batch.appends.append(
            PreparedAppend(
                stream: stream, expectedVersion: expectedVersion, count: 0,
                form: .prepared(first: batch.events.count)))
        switch expectedVersion {
        case .noStream: nextVersion = 0
        case let .exact(version): nextVersion = version + 1
        case .any, .streamExists: nextVersion = nil
        }
    }

    /// Adds an event to the append begun last. An event that breaks one of the store's rules
    /// refuses its whole append, with the error `append(_:)` gives.
    package func add(
        id: String, type: String, occurredAt: Timestamp, recordedAt: Timestamp,
        data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?
    ) {
        let key = EventIDKey(id)
        // An id that does not pack must still be a UUID (in capitals): else the rules refuse it.
        let valid: Bool = if case .text = key { UUIDText.isUUID(id) } else { true }
        UTF8Bytes.with(id) { text in
            add(
                key: valid ? key : nil, idText: text, type: type, occurredAt: occurredAt, recordedAt: recordedAt,
                data: data, meta: meta)
        }
    }

    /// `add(id:…)` for an id that is a lowercase UUID, given as its two words
    /// (`UUIDText.words`): the same event, without parsing the id's text.
    package func add(
        uuidHigh high: UInt64, low: UInt64, type: String, occurredAt: Timestamp, recordedAt: Timestamp,
        data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?
    ) {
        UUIDText.withText(high: high, low: low) { text in
            add(
                key: .packed(high, low), idText: text, type: type, occurredAt: occurredAt, recordedAt: recordedAt,
                data: data, meta: meta)
        }
    }

    /// Adds an event whose id is `idText`, stored as `key` (nil: an id the rules refuse).
    private func add(
        key: EventIDKey?, idText: UnsafeBufferPointer<UInt8>, type: String, occurredAt: Timestamp,
        recordedAt: Timestamp, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?
    ) {
        guard let last = batch.appends.indices.last else { preconditionFailure("add before beginAppend") }
        batch.appends[last].count += 1
        // A refused append fails its batch: its events' ids are never needed.
        guard case .prepared = batch.appends[last].form else {
            batch.eventCount += 1
            return
        }
        let stream = batch.appends[last].stream
        if let key,
            var event = prepare(
                key: key, idText: idText, type: type, occurredAt: occurredAt, recordedAt: recordedAt,
                data: data, meta: meta, stream: stream)
        {
            hashAhead(&event)
            batch.events.append(event)
            batch.addID(event.key)
            return
        }
        batch.eventCount += 1
        // Not preparable: the rules' own error for this event, as the usual path would give it.
        // The batch will fail, so the chain will not be where this preparer expects it.
        chainPosition = nil
        batch.events.removeSubrange(appendStart.events...)
        batch.bytes.removeSubrange(appendStart.bytes...)
        let id = String(decoding: idText, as: UTF8.self)
        let proposed = ProposedEvent(
            id: id, type: type, occurredAt: occurredAt, data: Array(data), meta: meta.map { Array($0) },
            recordedAt: recordedAt)
        do {
            try EventRules.validate([proposed], stream: stream, maxPayloadBytes: maxPayloadBytes)
            // Unreachable (the checks above are the rules'); refused rather than written unchecked.
            batch.appends[last].form = .refused(
                .invalid("event \(id.prefix(60)): refused by the load's preparer", stream: stream))
        } catch {
            batch.appends[last].form = .refused(error)
        }
    }

    /// The event's chain hash where the preparer expects it to land, in `batch.bytes`; when that
    /// cannot be known, no more hashes ahead from here on. Its leaf hash is made from it while the
    /// writer writes the batch (`PreparedLeafHashes`), on a thread of its own: this thread sets
    /// the pace of a simulation.
    private func hashAhead(_ event: inout PreparedLoadEvent) {
        guard let position = chainPosition, let version = nextVersion else {
            chainPosition = nil
            return
        }
        let offset = batch.bytes.count
        batch.bytes.append(contentsOf: ChainHasher.zeroHash)
        batch.bytes.withUnsafeMutableBytes { bytes in
            let hash = UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<(offset + 32)])
            let body = UnsafeRawBufferPointer(rebasing: bytes[event.body])
            chainHash.withUnsafeMutableBytes { previous in
                hasher.hash(
                    previous: UnsafeRawBufferPointer(previous), position: position + 1, version: version,
                    body: body, into: hash)
                previous.copyMemory(from: UnsafeRawBufferPointer(hash))
            }
        }
        event.assumedPosition = position + 1
        event.assumedVersion = version
        event.hashOffset = offset
        chainPosition = position + 1
        nextVersion = version + 1
    }

    /// The batch built since the last one, ready for `SQLiteJournalLoad.append(_:)`.
    package func finishBatch() -> PreparedLoadBatch {
        batch.typeNames = typeNames
        batch.origin = ObjectIdentifier(published)
        defer {
            batch = spare.take() ?? PreparedLoadBatch()
            appendStart = (0, 0)
        }
        return batch
    }

    /// Hands back a batch the writer is done with (written or refused): the next batch is built
    /// in its arrays, emptied, keeping their capacity.
    package func reuse(_ written: consuming PreparedLoadBatch) {
        var emptied = written
        emptied.empty()
        spare = emptied
    }

    /// One event, or nil when it breaks one of the store's rules (`EventRules`, checked here
    /// with what preparing computes anyway: `add` checked the id, a type seen before is a
    /// valid name).
    private func prepare(
        key: EventIDKey, idText: UnsafeBufferPointer<UInt8>, type: String, occurredAt: Timestamp,
        recordedAt: Timestamp, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?,
        stream: StreamName
    ) -> PreparedLoadEvent? {
        guard data.count + (meta?.count ?? 0) <= maxPayloadBytes else { return nil }
        guard let typeIndex = typeIndex(type) else { return nil }
        let start = batch.bytes.count
        let ranges = ChainHasher.appendBody(
            stream: stream.rawValue, id: idText, type: type, occurredAt: occurredAt,
            recordedAt: recordedAt, data: data, meta: meta, to: &batch.bytes)
        let body = start..<batch.bytes.count
        var codec: Int64 = 0
        var compressed = batch.bytes.count..<batch.bytes.count
        if let dictionary {
            // Data and meta are stored as one payload: without meta, that is the body's data.
            let size: Int?
            if let meta {
                raw.removeAll(keepingCapacity: true)
                raw.append(contentsOf: data)
                raw.append(contentsOf: meta)
                size = raw.withUnsafeBytes { StoredPayload.compress($0, with: dictionary, scratch: &compressScratch) }
            } else {
                size = batch.bytes.withUnsafeBytes { all in
                    StoredPayload.compress(
                        UnsafeRawBufferPointer(rebasing: all[ranges.data]), with: dictionary,
                        scratch: &compressScratch)
                }
            }
            if let size {
                codec = dictionary.id
                batch.bytes.append(contentsOf: compressScratch[..<size])
                compressed = compressed.lowerBound..<batch.bytes.count
            }
        }
        return PreparedLoadEvent(
            key: key, assumedVersion: -1, hashOffset: -1, type: typeIndex,
            occurredAt: occurredAt.millisecondsSinceEpoch,
            recordedAt: recordedAt.millisecondsSinceEpoch, body: body,
            data: ranges.data, meta: ranges.meta,
            preparedWith: dictionary?.id ?? 0, codec: codec, compressed: compressed)
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
