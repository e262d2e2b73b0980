import EventStore
import JournalCore

/// The reading side of a ``ReplayLogScan``: scans the log a page at a time into a
/// ``ReplayScanPage``. Stream and type names are read from the store as their ids first appear
/// (between scans: the store is not asked anything while it lends an event), the streams' a
/// page of ids at a time with their recorded last positions; each stream's name goes with its
/// first event and is then let go, so what is held is the names read ahead of their streams'
/// first events, not the log's.
///
/// Used by one thread at a time: the reading thread while it fills a page, the feeding thread
/// only once that one is waited for.
final class ReplayLogReader {
    let store: any EventScanning
    private let page: Int
    private let namePage: Int
    // Used by the reading thread alone, one access at a time: no run-time exclusivity checks
    // on what each event looks up (docs/benchmarks-history.md, "Exclusivity checks").
    @exclusivity(unchecked) private var names: [Int64: String] = [:]
    /// Each named stream's recorded last position (``EventScanning/streamEnds(fromID:limit:)``),
    /// when the store records one: the run lets the stream's fold go once it is passed.
    @exclusivity(unchecked) private var ends: [Int64: Int64] = [:]
    @exclusivity(unchecked) private var namesThrough: Int64 = 0
    @exclusivity(unchecked) private var types: [Int64: String] = [:]
    /// `types` and the ids of `names` as arrays by id, for the ids below 2^16 and 2^24.
    @exclusivity(unchecked) private var typeNames: [String?] = []
    @exclusivity(unchecked) private var named: [Bool] = []
    /// The streams whose first event was read (their name went with it), by id below 2^24, and
    /// the others.
    @exclusivity(unchecked) private var begun: [Bool] = []
    @exclusivity(unchecked) private var begunFar: Set<Int64> = []

    init(store: any EventScanning, page: Int, namePage: Int) {
        self.store = store
        self.page = page
        self.namePage = namePage
    }

    /// Fills `into` with the events from `position` on, up to a page of them and to
    /// `untilPosition` (included); sets its `next` (nil at the end) and, on the store's error,
    /// its `failure` after the events before it.
    func read(into out: ReplayScanPage, from position: Int64, untilPosition: Int64) {
        out.removeAll()
        var next = position
        var done = false
        do {
            while out.count < page, next <= untilPosition {
                let limit = page - out.count
                var unnamed: (position: Int64, streamID: Int64, typeID: Int64)?
                var last: Int64?
                var started: [Int64] = []
                // Locals for the scan: no access to `self` for each event (the names change only
                // between scans); `begun` moves into a local and back.
                let (names, ends, types, typeNames, named) = (names, ends, types, typeNames, named)
                var begun: [Bool] = []
                swap(&begun, &self.begun)
                defer { swap(&begun, &self.begun) }
                let scanned = try store.scanAll(from: next, limit: limit) { event in
                    guard event.position <= untilPosition else { return false }
                    // Arrays by id for the ids seen so far (store ids are small and dense), else the maps.
                    let id = event.streamID
                    let knownType =
                        event.typeID >= 0 && event.typeID < Int64(typeNames.count)
                        ? typeNames[Int(event.typeID)] != nil : types[event.typeID] != nil
                    let dense = id >= 0 && id < Int64(named.count)
                    let isNamed = dense ? named[Int(id)] : names[id] != nil
                    let isBegun = id >= 0 && id < Int64(begun.count) && begun[Int(id)]
                    guard knownType, isNamed || isBegun || begunFar.contains(id) else {
                        unnamed = (event.position, event.streamID, event.typeID)
                        return false
                    }
                    var start: (name: String, end: Int64?)?
                    if !(isBegun || (!dense && begunFar.contains(id))) {
                        start = (names[id] ?? "", ends[id])
                        started.append(id)
                        if id >= 0, id < 1 << 24 {
                            if id >= Int64(begun.count) {
                                begun += repeatElement(false, count: max(Int(id) + 1 - begun.count, begun.count))
                            }
                            begun[Int(id)] = true
                        } else {
                            begunFar.insert(id)
                        }
                    }
                    out.append(
                        ScannedEventFields(
                            streamID: id, typeID: event.typeID, position: event.position,
                            occurredAt: event.occurredAt), data: event.data, start: start)
                    last = event.position
                    return true
                }
                forgetNames(started)
                if let last { next = last + 1 }
                if let unnamed {
                    try readNames(streamID: unnamed.streamID, typeID: unnamed.typeID)
                    next = unnamed.position
                    continue
                }
                if scanned < limit {
                    done = true
                    break
                }
            }
        } catch {
            out.failure = error
            done = true
        }
        out.next = !done && next <= untilPosition ? next : nil
        out.typeNames = typeNames
        out.types = types
    }

    /// Lets go the names and ends of the streams begun: the page carries them to the run.
    private func forgetNames(_ ids: [Int64]) {
        for id in ids {
            names.removeValue(forKey: id)
            ends.removeValue(forKey: id)
        }
    }

    /// Reads the name of `streamID` (with the page of streams after the last one read: ids grow
    /// as streams are created) and of `typeID`.
    private func readNames(streamID: Int64, typeID: Int64) throws {
        let begun = streamID >= 0 && streamID < Int64(self.begun.count) && self.begun[Int(streamID)]
        while !begun && names[streamID] == nil && streamID > namesThrough {
            let page = try store.streamEnds(fromID: namesThrough + 1, limit: namePage)
            for (id, name, end) in page where names[id] == nil {
                names[id] = name
                ends[id] = end
                markNamed(id)
            }
            guard let last = page.last?.id else { break }
            namesThrough = last
        }
        if !begun, !begunFar.contains(streamID), names[streamID] == nil {
            names[streamID] = try store.streamName(id: streamID)
            markNamed(streamID)
        }
        if types[typeID] == nil { types[typeID] = try store.typeName(id: typeID) }
        if typeID >= 0, typeID < 1 << 16 {
            if typeID >= typeNames.count { typeNames += repeatElement(nil, count: Int(typeID) + 1 - typeNames.count) }
            typeNames[Int(typeID)] = types[typeID]
        }
    }

    private func markNamed(_ id: Int64) {
        guard id >= 0, id < 1 << 24 else { return }
        if id >= named.count { named += repeatElement(false, count: max(Int(id) + 1 - named.count, named.count)) }
        named[Int(id)] = true
    }
}
