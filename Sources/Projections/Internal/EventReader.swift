import Domain
import EventStore
import JournalCore

/// Reads the log for the engine in batches of ``EventView``s, through the source's scan
/// (``EventScanning``, no `RecordedEvent` per event) when it has one, else through `readAll`.
///
/// Streams are integer keys: the store's stream ids when scanning (their names are loaded in
/// bulk by id range the first time a stream is met, since ids grow as streams are created, and
/// only their categories kept), or keys interned here for a `readAll` source (names kept).
final class EventReader {
    private let source: any ProjectionEventSource
    private let scanner: (any EventScanning)?
    /// By type id and stream id (flat tables: one lookup of each per event scanned).
    private var kinds = CodeMap<TypeCode>()
    private var categories = CodeMap<CategoryCode>()
    /// The names of a `readAll` source's interned keys.
    private var names: [Int64: String] = [:]
    /// Stream ids up to this one have had their categories bulk-loaded (scanning sources).
    private var namesLoadedThrough: Int64 = 0
    /// Interned keys of a `readAll` source.
    private var keys: [String: Int64] = [:]
    private static let nameWindow = 262_144
    private static let nameChunk = 16_384
    /// Guards the state above: a prefetch reads on another thread while projections ask names.
    private let lock = ConditionLock()
    private var pending: Prefetch?

    /// True when stream keys are the store's stream ids (scanning), false when interned here.
    var keysAreStoreIDs: Bool { scanner != nil }

    init(source: any ProjectionEventSource) {
        self.source = source
        scanner = source.scanner
    }

    /// Up to `limit` events from `position`: the prefetched batch when it is that one.
    func read(from position: Int64, limit: Int) throws(ProjectionError) -> EventBatch {
        if let pending {
            self.pending = nil
            let result = pending.wait()
            if pending.from == position && pending.limit == limit { return try result.get() }
        }
        return try readNow(from: position, limit: limit)
    }

    /// Starts reading the batch at `position` on another thread (scanning sources only: a
    /// `readAll` source need not be thread-safe), so that it is ready when `read` asks for it.
    func prefetch(from position: Int64, limit: Int) {
        guard scanner != nil, pending == nil else { return }
        // Shared, not handed over: both threads keep using the reader, and `readNow` and
        // `name(of:in:)` take `lock`, so region isolation (`sending`) cannot express it.
        let reader = HandOver(self)
        pending = Prefetch(from: position, limit: limit) { () -> Result<EventBatch, ProjectionError> in
            do throws(ProjectionError) {
                return .success(try reader.value.readNow(from: position, limit: limit))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Waits for a prefetch in flight and drops it (before the engine stops reading).
    func cancelPrefetch() {
        if let pending {
            self.pending = nil
            pending.finish()
        }
    }

    private func readNow(from position: Int64, limit: Int) throws(ProjectionError) -> EventBatch {
        lock.lock()
        defer { lock.unlock() }
        var builder = EventBatchBuilder(expected: min(limit, 1 << 20))
        if let scanner {
            try scan(scanner, from: position, limit: limit, into: &builder)
        } else {
            try readAll(from: position, limit: limit, into: &builder)
        }
        return EventBatch(builder)
    }

    /// The name of a stream key met in a batch (`batch.names` first: no lock).
    func name(of stream: Int64, in batch: EventBatch) throws(ProjectionError) -> String {
        if let name = batch.names[stream] { return name }
        lock.lock()
        defer { lock.unlock() }
        return try name(of: stream)
    }

    private func name(of stream: Int64) throws(ProjectionError) -> String {
        if let name = names[stream] { return name }
        guard let scanner else { preconditionFailure("stream key \(stream) was not interned") }
        do {
            return try scanner.streamName(id: stream)
        } catch {
            throw ProjectionError(.eventStore, "cannot read the name of stream #\(stream): \(error)")
        }
    }

    // MARK: - Scanning sources

    private func scan(
        _ scanner: any EventScanning, from position: Int64, limit: Int,
        into batch: inout EventBatchBuilder
    ) throws(ProjectionError) {
        var unknownTypes: Set<Int64> = []
        var unresolved: [Int] = []
        var badPosition: Int64?
        // The body cannot call the store (the scan holds its reader): unknown types and streams
        // are noted and resolved after the scan, then the scan resumes from the first event
        // of an unknown type.
        var from = position
        var remaining = limit
        while remaining > 0 {
            var stoppedAt: Int64?
            // Copies for the body (no exclusivity check on the reader's properties per event).
            let knownKinds = kinds
            let knownCategories = categories
            do {
                try scanner.scanAll(from: from, limit: remaining) { event in
                    guard JSONFieldScanner.isObject(event.data) else {
                        badPosition = event.position
                        return false
                    }
                    guard let kind = knownKinds[event.typeID]?.type ?? nil else {
                        unknownTypes.insert(event.typeID)
                        stoppedAt = event.position
                        return false
                    }
                    let category = knownCategories[event.streamID]
                    if category == nil { unresolved.append(batch.count) }
                    batch.append(
                        position: event.position, stream: event.streamID, kind: kind,
                        category: category?.category, occurredAt: event.occurredAt, data: event.data,
                        meta: event.meta)
                    return true
                }
            } catch {
                throw ProjectionError.reading(error, from: from)
            }
            if let badPosition {
                throw ProjectionError(
                    .badEvent, "event at position \(badPosition): data is not a JSON object",
                    position: badPosition)
            }
            guard let stoppedAt else { break }
            for id in unknownTypes {
                do {
                    kinds[id] = TypeCode(name: try scanner.typeName(id: id))
                } catch {
                    throw ProjectionError(.eventStore, "cannot read the name of event type #\(id): \(error)")
                }
            }
            unknownTypes.removeAll()
            remaining = limit - batch.count
            from = stoppedAt
        }
        try resolve(unresolved, in: &batch, scanner: scanner)
    }

    /// Sets the category of the streams met for the first time: their names are loaded in bulk,
    /// by id range, and only their categories kept (the store's stream ids are the rows' keys:
    /// no fold asks a scanned stream's name).
    private func resolve(
        _ indices: [Int], in batch: inout EventBatchBuilder,
        scanner: any EventScanning
    ) throws(ProjectionError) {
        guard !indices.isEmpty else { return }
        // The table moves into a local for the loop (no exclusivity check per access) and back.
        var categories = CodeMap<CategoryCode>()
        swap(&categories, &self.categories)
        defer { swap(&categories, &self.categories) }
        for index in indices {
            let id = batch.stream(at: index)
            if categories[id] == nil && id > namesLoadedThrough {
                // Far ahead (a catch-up late in a long log): skip the streams in between.
                if id - namesLoadedThrough > Int64(Self.nameWindow) { namesLoadedThrough = id - 1 }
                try loadCategories(through: id, scanner: scanner, into: &categories)
            }
            let category: CategoryCode
            if let known = categories[id] {
                category = known
            } else {
                category = CategoryCode(streamName: try name(of: id)) // not in a loaded range
                categories[id] = category
            }
            batch.setCategory(category.category, at: index)
        }
    }

    private func loadCategories(
        through id: Int64, scanner: any EventScanning,
        into categories: inout CodeMap<CategoryCode>
    ) throws(ProjectionError) {
        while namesLoadedThrough < id {
            let chunk: [(id: Int64, name: String)]
            do {
                chunk = try scanner.streamNames(fromID: namesLoadedThrough + 1, limit: Self.nameChunk)
            } catch {
                throw ProjectionError(.eventStore, "cannot read the stream names: \(error)")
            }
            guard let last = chunk.last else { return }
            for (id, name) in chunk { categories[id] = CategoryCode(streamName: name) }
            namesLoadedThrough = last.id
        }
    }

    // MARK: - readAll sources

    private func readAll(from position: Int64, limit: Int, into batch: inout EventBatchBuilder) throws(ProjectionError)
    {
        let events: [RecordedEvent]
        do {
            events = try source.readAll(from: position, limit: limit)
        } catch {
            throw ProjectionError.reading(error, from: position)
        }
        for event in events {
            let meta = event.meta ?? []
            let ok = meta.withUnsafeBytes { metaBytes in
                event.data.withUnsafeBytes { bytes -> Bool in
                    guard JSONFieldScanner.isObject(bytes) else { return false }
                    let name = event.stream.rawValue
                    let key: Int64
                    if let known = keys[name] {
                        key = known
                    } else {
                        key = Int64(keys.count + 1)
                        keys[name] = key
                        names[key] = name
                        batch.names[key] = name
                        categories[key] = CategoryCode(streamName: name)
                    }
                    batch.append(
                        position: event.position, stream: key, kind: EventType(name: event.type),
                        category: categories[key]?.category, occurredAt: event.occurredAt.millisecondsSinceEpoch,
                        data: bytes, meta: metaBytes)
                    return true
                }
            }
            guard ok else {
                throw ProjectionError(
                    .badEvent, "event at position \(event.position): data is not a JSON object",
                    position: event.position)
            }
        }
    }
}

/// How a projection names the streams of the batch it applies.
struct StreamNaming {
    let reader: EventReader
    let batch: EventBatch

    /// True when the batch's stream keys are the store's stream ids (a scanning source): stable
    /// across runs and processes, so the stream models use them as their rows' sids and never
    /// look a stream up by name.
    var storeKeys: Bool { reader.keysAreStoreIDs }

    func name(of stream: Int64) throws(ProjectionError) -> String { try reader.name(of: stream, in: batch) }
}
