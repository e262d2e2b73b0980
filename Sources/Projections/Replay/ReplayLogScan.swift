import EventStore
import JournalCore

/// Feeds a ``ReplayRun`` the log in position order through the store's borrowing scan, which
/// checks every event's chain link as it goes (spec §4, §9): one pass over the log. Stream
/// and type names are read from the store as their ids first appear (between scans: the store
/// is not asked anything while it lends an event).
public struct ReplayLogScan {
    private let store: any EventScanning
    private let page: Int
    private var names: [Int64: String] = [:]
    /// Each named stream's recorded last position (``EventScanning/streamEnds(fromID:limit:)``),
    /// when the store records one: the run lets the stream's fold go once it is passed.
    private var ends: [Int64: Int64] = [:]
    private var namesThrough: Int64 = 0
    private var types: [Int64: String] = [:]
    /// `types` and the ids of `names` as arrays by id, for the ids below 2^20.
    private var typeNames: [String?] = []
    private var named: [Bool] = []

    public static let namePage = 65_536

    public init(store: any EventScanning, page: Int = 16_384) {
        precondition(page > 0, "a page holds at least one event")
        self.store = store
        self.page = page
    }

    /// Feeds every event up to `untilPosition` (included) to `run`; `progress` gets the position
    /// reached after each page.
    /// - Throws: the store's errors (`.integrity` for an event whose link does not hold), and
    ///   the run's (``ReplayRecordError``).
    public mutating func feed<Fold>(
        _ run: ReplayRun<Fold>, untilPosition: Int64 = .max, progress: (Int64) -> Void = { _ in }
    ) throws {
        var next: Int64 = 1
        while next <= untilPosition {
            var unnamed: (position: Int64, streamID: Int64, typeID: Int64)?
            var failure: (error: ReplayRecordError, position: Int64)?
            var last: Int64?
            /// The streams the run asked the name of (at their first event).
            var fedIDs: [Int64] = []
            let scanned = try scanPage(from: next) { event, names, ends, types, typeNames, named in
                guard event.position <= untilPosition else { return false }
                // Arrays by id for the ids seen so far (store ids are small and dense), else the maps.
                let type: String? =
                    event.typeID >= 0 && event.typeID < Int64(typeNames.count)
                    ? typeNames[Int(event.typeID)] : types[event.typeID]
                let isNamed =
                    event.streamID >= 0 && event.streamID < Int64(named.count)
                    ? named[Int(event.streamID)] : names[event.streamID] != nil
                guard let type, isNamed else {
                    unnamed = (event.position, event.streamID, event.typeID)
                    return false
                }
                let fed = Result { () throws(ReplayRecordError) in
                    try run.feed(
                        key: event.streamID,
                        name: {
                            fedIDs.append(event.streamID)
                            return names[event.streamID] ?? ""
                        }, end: { ends[event.streamID] },
                        position: event.position,
                        type: type, typeKey: event.typeID, data: event.data,
                        occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt))
                }
                if case let .failure(error) = fed {
                    failure = (error, event.position)
                    return false
                }
                last = event.position
                return true
            }
            forgetNames(fedIDs)
            if let failure {
                // A stream's name is let go once it is fed: read again for the message.
                if let key = failure.error.unnamedStreamKey, let name = try? store.streamName(id: key) {
                    throw ReplayRecordError.eventAfterEnd(position: failure.position, stream: name, key: key)
                }
                throw failure.error
            }
            if let last {
                progress(last)
                next = last + 1
            }
            if let unnamed {
                try readNames(streamID: unnamed.streamID, typeID: unnamed.typeID)
                next = unnamed.position
                continue
            }
            if scanned < page { return }
        }
    }

    /// Scans a page from `position`, `body` given each event and the names known (copies, which
    /// end with the page: the store is not asked anything while it lends an event).
    private func scanPage(
        from position: Int64,
        _ body: (
            ScannedEvent, [Int64: String], [Int64: Int64], [Int64: String], [String?], [Bool]
        ) -> Bool
    ) throws -> Int {
        let (names, ends, types, typeNames, named) = (names, ends, types, typeNames, named)
        return try store.scanAll(from: position, limit: page) { event in
            body(event, names, ends, types, typeNames, named)
        }
    }

    /// Lets go the names and ends of the streams the run has begun (it asks for them once): what
    /// the scan holds is then the names read ahead of their streams' first events, not the log's.
    /// The ids marked in `named` stay known.
    private mutating func forgetNames(_ ids: [Int64]) {
        for id in ids where id >= 0 && id < Int64(named.count) && named[Int(id)] {
            names.removeValue(forKey: id)
            ends.removeValue(forKey: id)
        }
    }

    /// Reads the name of `streamID` (with the page of streams after the last one read: ids grow
    /// as streams are created) and of `typeID`.
    private mutating func readNames(streamID: Int64, typeID: Int64) throws {
        while names[streamID] == nil && streamID > namesThrough {
            let page = try store.streamEnds(fromID: namesThrough + 1, limit: Self.namePage)
            for (id, name, end) in page where names[id] == nil {
                names[id] = name
                ends[id] = end
                markNamed(id)
            }
            guard let last = page.last?.id else { break }
            namesThrough = last
        }
        if names[streamID] == nil {
            names[streamID] = try store.streamName(id: streamID)
            markNamed(streamID)
        }
        if types[typeID] == nil { types[typeID] = try store.typeName(id: typeID) }
        if typeID >= 0, typeID < 1 << 16 {
            if typeID >= typeNames.count { typeNames += repeatElement(nil, count: Int(typeID) + 1 - typeNames.count) }
            typeNames[Int(typeID)] = types[typeID]
        }
    }

    private mutating func markNamed(_ id: Int64) {
        guard id >= 0, id < 1 << 24 else { return }
        if id >= named.count { named += repeatElement(false, count: max(Int(id) + 1 - named.count, named.count)) }
        named[Int(id)] = true
    }
}
