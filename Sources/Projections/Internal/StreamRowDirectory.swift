/// A read model's row for one stream: its integer key in the model's stream table and its name.
protocol StreamRow {
    var sid: Int64 { get }
    init(sid: Int64, name: String)
}

extension ThreeDSStreamRow: StreamRow {}
extension CardStreamRow: StreamRow {}

/// Where a projection model finds the row of a stream it meets in a batch, and what it keeps of
/// them between batches (the `3ds` and `card` models share it).
struct StreamRowDirectory<Row: StreamRow> {
    /// The next sid to hand out; 0 after `forget`, until `open` reloads it.
    private(set) var nextSID: Int64 = 1
    /// True when the generation's stream table was empty at `open`: then a stream not in
    /// `sids` cannot be stored yet, and its lookup is skipped (most of a rebuild's streams).
    private var startedEmpty = false
    /// The sid of every stream this engine wrote or loaded in the generation, by the reader's
    /// key: an evicted row is reloaded by its integer primary key, not by name.
    private var sids: [Int64: Int64] = [:]
    /// A rebuild fills its tables without secondary indexes (`createIndexes` builds them in one
    /// sort when it swaps in); looking a stream up by name needs the name index, made on demand.
    private var nameIndexReady = false
    /// Rows by the reader's stream key.
    private var cache: [Int64: Row] = [:]
    private let cacheLimit: Int

    init(cacheLimit: Int = 200_000) { self.cacheLimit = cacheLimit }

    var needsOpen: Bool { nextSID == 0 }

    /// A generation whose stream table's largest sid is `maxSID` (nil: empty).
    mutating func open(maxSID: Int64?) {
        cache.removeAll()
        sids.removeAll()
        startedEmpty = maxSID == nil
        nextSID = (maxSID ?? 0) + 1
        nameIndexReady = false
    }

    /// Forgets everything; `open` must run again before the next batch.
    mutating func forget() {
        cache.removeAll()
        sids.removeAll()
        startedEmpty = false
        nextSID = 0
    }

    /// True when ``row(of:model:name:loadSID:loadName:createNameIndex:)`` finds the row of
    /// `stream` without the database: cached, or new to a generation that started empty.
    func holdsRow(of stream: Int64) -> Bool {
        cache[stream] != nil || (startedEmpty && sids[stream] == nil)
    }

    /// True when ``holdsRow(of:)`` for every stream of `streams`.
    func holdsRows(of streams: [Int64]) -> Bool {
        for stream in streams where !holdsRow(of: stream) { return false }
        return true
    }

    /// The row of `stream` as it stands before this batch: cached, reloaded by sid, found by name
    /// (after making the name index), or a new one.
    mutating func row(of stream: Int64, model: String, name: () throws(ProjectionError) -> String,
                      loadSID: (Int64) throws(ProjectionError) -> Row?,
                      loadName: (String) throws(ProjectionError) -> Row?,
                      createNameIndex: () throws(ProjectionError) -> Void) throws(ProjectionError) -> Row {
        if let cached = cache.removeValue(forKey: stream) { return cached }
        if let sid = sids[stream] {
            guard let stored = try loadSID(sid) else {
                throw ProjectionError(.database, "\(model) read model: stream row \(sid) is missing")
            }
            return stored
        }
        let name = try name()
        if !startedEmpty && !nameIndexReady {
            try createNameIndex()
            nameIndexReady = true
        }
        let row: Row
        if !startedEmpty, let stored = try loadName(name) {
            row = stored
        } else {
            row = Row(sid: nextSID, name: name)
            nextSID += 1
        }
        sids[stream] = row.sid
        return row
    }

    /// Keeps a batch's rows (by the reader's stream keys) for the next batches.
    mutating func keep(_ rows: [Row], keys: [Int64]) {
        if cache.count + rows.count > cacheLimit { cache.removeAll(keepingCapacity: true) }
        for (index, row) in rows.enumerated() { cache[keys[index]] = row }
    }
}

/// The streams of one category in a batch, in the order first met, and each event's slot among
/// them (-1: another category), so a fold finds an event's row by index, not by hashing.
struct StreamSlots {
    private(set) var streams: [Int64] = []
    private(set) var slots: [Int32]

    init(_ events: ArraySlice<EventView>, category: EventView.Category) {
        slots = [Int32](repeating: -1, count: events.count)
        var seen: [Int64: Int32] = [:]
        var offset = 0
        for event in events {
            if event.category == category {
                if let slot = seen[event.stream] {
                    slots[offset] = slot
                } else {
                    let slot = Int32(streams.count)
                    seen[event.stream] = slot
                    streams.append(event.stream)
                    slots[offset] = slot
                }
            }
            offset += 1
        }
    }
}
