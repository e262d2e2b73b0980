import Domain

/// A read model's row for one stream: its integer key in the model's stream table and its name.
protocol StreamRow {
    var sid: Int64 { get }
    var name: String { get }
    init(sid: Int64, name: String)
}

extension ThreeDSStreamRow: StreamRow {}
extension CardStreamRow: StreamRow {}

/// The per-stream fold of one category (`ThreeDSFold`, `CardFold`), as a batch runs it: each
/// event into its stream's row, facts and totals; a stream's contribution to the totals moved
/// once per batch.
protocol CountingFold: CategoryFold where Row: StreamRow {
    static var category: StreamCategory { get }
}

extension ThreeDSFold: CountingFold {
    static var category: StreamCategory { .threeDS }
}

extension CardFold: CountingFold {
    static var category: StreamCategory { .card }
}

/// Where a projection model keeps the rows of the streams it folds, between batches (the `3ds`
/// and `card` models share it).
///
/// Rows live in one array, found through flat tables indexed by the reader's stream key (the
/// store's dense stream ids): a fold finds, and updates in place, an event's row without
/// hashing or copying it. A row not touched by the last four batches is dropped when more than
/// `cacheLimit` are kept; it is reloaded by its sid when its stream comes back.
struct StreamRowDirectory<Row: StreamRow> {
    /// The next sid to hand out; 0 after `forget`, until `open` reloads it.
    private(set) var nextSID: Int64 = 1
    /// True when the generation's stream table was empty at `open`: then a stream without a
    /// sid cannot be stored yet, and its lookup is skipped (most of a rebuild's streams).
    private var startedEmpty = false
    /// The sid of every stream this engine wrote or loaded in the generation (0: none), by the
    /// reader's key: an evicted row is reloaded by its integer primary key, not by name.
    private var sids = StreamMap<Int64>()
    /// Where each stream's row is in `rows` (-1: not in memory), by the reader's key.
    private var slots = StreamMap<Int32>(absent: -1)
    /// A rebuild's tables have no name index; looking a stream up by name needs it, made on
    /// demand.
    private var nameIndexReady = false
    /// The rows in memory; `owners[i]` is the stream key of `rows[i]` (-1: a free slot).
    var rows: [Row] = []
    private var owners: [Int64] = []
    /// The batch that last touched each row.
    private var stamps: [Int] = []
    private var free: [Int32] = []
    private var live = 0
    /// The current batch's number, and the rows it touched in the order first met.
    private var batch = 0
    private(set) var touched: [Int32] = []
    var cacheLimit: Int

    /// Rows touched by this many batches (this one included) are never dropped.
    static var recentBatches: Int { 4 }

    init(cacheLimit: Int = 400_000) { self.cacheLimit = cacheLimit }

    var needsOpen: Bool { nextSID == 0 }

    /// A generation whose stream table's largest sid is `maxSID` (nil: empty).
    mutating func open(maxSID: Int64?) {
        forget()
        startedEmpty = maxSID == nil
        nextSID = (maxSID ?? 0) + 1
        nameIndexReady = false
    }

    /// Forgets everything; `open` must run again before the next batch.
    mutating func forget() {
        sids = StreamMap<Int64>()
        slots = StreamMap<Int32>(absent: -1)
        rows.removeAll()
        owners.removeAll()
        stamps.removeAll()
        free.removeAll()
        touched.removeAll()
        live = 0
        startedEmpty = false
        nextSID = 0
    }

    /// True when every stream of `category` in `events` has its row in memory, or is new to a
    /// generation that started empty: then ``slot(of:name:loadSID:loadName:createNameIndex:)``
    /// does not read the database for them.
    func holdsRows(of events: ArraySlice<EventView>, category: StreamCategory) -> Bool {
        for event in events where event.category == category {
            if slots[event.stream] < 0 && !(startedEmpty && sids[event.stream] == 0) { return false }
        }
        return true
    }

    /// Starts a batch: ``touched`` is emptied.
    mutating func beginBatch() {
        batch += 1
        touched.removeAll(keepingCapacity: true)
    }

    /// The index in ``rows`` of the row of `stream`, as it stands (before this batch when
    /// `first`: the first time this batch meets it): in memory, reloaded by sid, found by name
    /// (after making the name index), or a new one.
    mutating func slot(
        of stream: Int64, storeKeys: Bool, name: () throws(ProjectionError) -> String,
        loadSID: (Int64) throws(ProjectionError) -> Row?,
        loadName: (String) throws(ProjectionError) -> Row?,
        createNameIndex: () throws(ProjectionError) -> Void,
        model: String
    ) throws(ProjectionError) -> (slot: Int, first: Bool) {
        let known = slots[stream]
        if known >= 0 {
            let slot = Int(known)
            if stamps[slot] == batch { return (slot, false) }
            stamps[slot] = batch
            touched.append(known)
            return (slot, true)
        }
        let row: Row
        let sid = sids[stream]
        if sid != 0 {
            guard let stored = try loadSID(sid) else {
                throw ProjectionError(.database, "\(model) read model: stream row \(sid) is missing")
            }
            row = stored
        } else if storeKeys {
            // The store's stream id is the row's sid: a stream without a row in memory is
            // looked up by its integer primary key (none when the generation started empty).
            // The name is not kept: no lookup needs it (the stream id is the key).
            if !startedEmpty, let stored = try loadSID(stream) {
                row = stored
            } else {
                row = Row(sid: stream, name: "")
            }
            sids[stream] = row.sid
        } else {
            let name = try name()
            if !startedEmpty && !nameIndexReady {
                try createNameIndex()
                nameIndexReady = true
            }
            if !startedEmpty, let stored = try loadName(name) {
                row = stored
            } else {
                row = Row(sid: nextSID, name: name)
                nextSID += 1
            }
            sids[stream] = row.sid
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = Int(reused)
            rows[slot] = row
            owners[slot] = stream
            stamps[slot] = batch
        } else {
            slot = rows.count
            rows.append(row)
            owners.append(stream)
            stamps.append(batch)
        }
        live += 1
        slots[stream] = Int32(slot)
        touched.append(Int32(slot))
        return (slot, true)
    }

    /// Ends a batch: when more than `cacheLimit` rows are kept, drops those not touched by the
    /// last ``recentBatches`` batches (a stream that comes back later is read back by sid, in
    /// the batch's transaction: its fold cannot run ahead).
    /// Folds the events of `F`'s category into their rows, in place, and returns the rows the
    /// batch touched (in sid order: new rows append to the table's B-tree), the facts and the
    /// totals' changes. A stream's contribution to the totals is taken out before its first
    /// event of the batch and put back, as it stands after the batch, at the end: one move per
    /// stream and batch, not per event (the moves in between cancel out).
    ///
    /// Inlined into each model's `fold`, as the loop was before it was shared: not inlined, the
    /// shared loop made rebuilds slower (BENCHMARKS.md, "Rebuild path").
    @inline(__always)
    mutating func fold<F: CountingFold>(
        _ events: ArraySlice<EventView>, with _: F.Type, names: StreamNaming,
        loadSID: (Int64) throws(ProjectionError) -> Row?,
        loadName: (String) throws(ProjectionError) -> Row?,
        createNameIndex: () throws(ProjectionError) -> Void,
        model: String
    ) throws(ProjectionError)
        -> (rows: [Row], facts: [StreamFact<F.FactKind>], seqs: [Int64], totals: TotalsDelta) where F.Row == Row
    {
        var totals = TotalsDelta()
        var facts: [StreamFact<F.FactKind>] = []
        // Each fact's unique number (the fact tables are keyed by what queries look up, then
        // this): its event's position × 2²⁰ + its rank among that event's facts.
        var seqs: [Int64] = []
        let storeKeys = names.storeKeys
        beginBatch()
        for event in events where event.category == F.category {
            let stream = event.stream
            let (slot, first) = try slot(
                of: stream, storeKeys: storeKeys,
                name: { () throws(ProjectionError) in try names.name(of: stream) },
                loadSID: loadSID, loadName: loadName, createNameIndex: createNameIndex,
                model: model)
            if first { F.contribute(rows[slot], sign: -1, to: &totals) }
            let before = facts.count
            F.applyCountingEvents(event, to: &rows[slot], facts: &facts, totals: &totals)
            let added = facts.count - before
            if added > 0 {
                guard added <= Self.factsPerEvent, event.position >= 0, event.position < Int64(1) << 43 else {
                    throw ProjectionError(
                        .badEvent,
                        "\(model) read model: event at position \(event.position) counts "
                            + "\(added) facts (at most \(Self.factsPerEvent))", position: event.position)
                }
                for rank in 0..<added { seqs.append(event.position << 20 | Int64(rank)) }
            }
        }
        // In sid order: the slots sorted by one radix sort of their sids (not the rows
        // themselves, which are large).
        var lowSID = Int64.max
        for slot in touched {
            F.contribute(rows[Int(slot)], sign: 1, to: &totals)
            lowSID = min(lowSID, rows[Int(slot)].sid)
        }
        let order = RadixSort.order(touched.map { UInt64(bitPattern: rows[Int($0)].sid &- lowSID) })
        var touchedRows: [Row] = []
        touchedRows.reserveCapacity(touched.count)
        for index in order { touchedRows.append(rows[Int(touched[Int(index)])]) }
        endBatch()
        return (touchedRows, facts, seqs, totals)
    }

    /// The most facts one event may count (one per IDV method offered, for instance): a fact's
    /// rank among its event's facts takes 20 bits of its sequence number.
    static var factsPerEvent: Int { 1 << 20 }

    mutating func endBatch() {
        guard live > cacheLimit else { return }
        for slot in rows.indices where owners[slot] >= 0 && stamps[slot] <= batch - Self.recentBatches {
            slots[owners[slot]] = -1
            owners[slot] = -1
            rows[slot] = Row(sid: 0, name: "")
            free.append(Int32(slot))
            live -= 1
        }
    }
}

/// A table by the reader's stream key: a flat array for the dense keys stores hand out (ids
/// from 1), a dictionary beyond ``flatLimit``.
struct StreamMap<Value> {
    private var flat: [Value] = []
    private var far: [Int64: Value] = [:]
    private let absent: Value
    static var flatLimit: Int64 { 1 << 24 }

    init(absent: Value) { self.absent = absent }

    subscript(stream: Int64) -> Value {
        get {
            if stream >= 0 && stream < Int64(flat.count) { return flat[Int(stream)] }
            if stream >= 0 && stream < Self.flatLimit { return absent }
            return far[stream] ?? absent
        }
        set {
            guard stream >= 0 && stream < Self.flatLimit else {
                far[stream] = newValue
                return
            }
            if stream >= Int64(flat.count) {
                let size = min(Self.flatLimit, max(stream + 1, Int64(flat.count) * 2, 1024))
                flat.append(contentsOf: repeatElement(absent, count: Int(size) - flat.count))
            }
            flat[Int(stream)] = newValue
        }
    }
}

extension StreamMap where Value == Int64 {
    init() { self.init(absent: 0) }
}

/// The 64-bit FNV-1a hash of a stream name's UTF-8 bytes, as a signed integer: the key of the
/// stream tables' name index (stable across processes and engines, unlike `Hasher`).
enum StreamNameHash {
    static func of(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// The `nh` stored with a row: 0 for a row keyed by the store's stream id, which keeps no
    /// name (and needs no hash).
    static func stored(_ name: String) -> Int64 { name.isEmpty ? 0 : of(name) }

    /// The condition that finds a stream row by name (its hash first, for the index), bound
    /// by ``bindLookup(_:to:)``.
    static func lookup(_ sql: ReadModelSQL) -> String { "nh = \(sql.p(1)) AND name = \(sql.p(2))" }

    static func bindLookup(_ name: String, to statement: Statement) {
        statement.bind(1, of(name))
        statement.bind(2, name)
    }
}

/// A one-byte code (``TypeCode``, ``CategoryCode``) by the store's type or stream id,
/// in a ``StreamMap``.
struct CodeMap<Code: RawRepresentable> where Code.RawValue == UInt8 {
    private var codes = StreamMap<UInt8>(absent: .max)

    subscript(id: Int64) -> Code? {
        get {
            let raw = codes[id]
            return raw == .max ? nil : Code(rawValue: raw)
        }
        set { codes[id] = newValue?.rawValue ?? .max }
    }
}
