import EventStore
import JournalCore

/// `replay --all` in one pass over the log: the store's borrowing scan (which checks every
/// event's chain link as it goes, contract §4) feeds each event to its stream's fold, kept in
/// memory until the scan ends. The outcome of every stream is the one `StreamReplay.fold` gives
/// reading that stream alone: the same events, in the same (version) order, the same failures.
///
/// A stream's events come in position order, which is its version order; a stream's version is
/// the number of its events before it (versions are gapless from 0, and each is inside the
/// event's hash, which the scan checks).
struct LogReplay {
    /// One stream's fold so far.
    struct Entry {
        /// False until the stream's first event (ids with no event yet hold an empty entry).
        var started = false
        var fold: StreamFold?
        var events = 0
        var failure: StreamReplay.Failure?
        var nextVersion: Int64 = 0
    }

    private let store: any EventScanning
    private let parser = JSONParser()
    /// Entries by the store's stream id, which are dense from 1 (a stream gets the next id when
    /// it is created): an array, changed in place, not a map whose entries are copied out and in.
    private var entries: [Entry] = []
    /// Stream names by id, read a page at a time as new ids appear (ids grow with creation).
    private var names: [Int64: String] = [:]
    private var namesThrough: Int64 = 0
    private var types: [Int64: String] = [:]

    static let namePage = 65_536
    static let scanPage = 16_384

    init(store: any EventScanning) {
        self.store = store
    }

    /// Folds every event up to `untilPosition` (included); `progress` gets the events scanned.
    /// Returns the entries by stream name: a stream with no event up to there has none.
    /// - Throws: the store's errors (an event whose chain link does not hold: `.integrity`).
    mutating func run(untilPosition: Int64, progress: (Int64) -> Void) throws -> [String: Entry] {
        var next: Int64 = 1
        var failure: (any Error)?
        while next <= untilPosition {
            var last: Int64?
            // The store is not asked anything while it lends an event (it holds its reader): an
            // event of a stream or type not named yet stops the scan, the names are read, and
            // the scan goes on from that event.
            var unnamed: (position: Int64, streamID: Int64, typeID: Int64)?
            let scanned = try store.scanAll(from: next, limit: Self.scanPage) { event in
                guard event.position <= untilPosition else { return false }
                guard names[event.streamID] != nil, types[event.typeID] != nil else {
                    unnamed = (event.position, event.streamID, event.typeID)
                    return false
                }
                last = event.position
                do {
                    try fold(event)
                } catch {
                    failure = error
                    return false
                }
                return true
            }
            if let failure { throw failure }
            if let unnamed {
                try readNames(streamID: unnamed.streamID, typeID: unnamed.typeID)
                next = unnamed.position
                if let last { progress(last) }
                continue
            }
            guard let last else { break }
            progress(last)
            if scanned < Self.scanPage || last >= untilPosition { break }
            next = last + 1
        }
        var byName: [String: Entry] = [:]
        byName.reserveCapacity(entries.count)
        for (id, entry) in entries.enumerated() where entry.started {
            guard let name = names[Int64(id)] else { continue }
            byName[name] = entry
        }
        return byName
    }

    private mutating func fold(_ event: ScannedEvent) throws {
        guard event.streamID >= 0, event.streamID < Int64(Int32.max) else {
            throw EventStoreError(
                code: .integrity, message: "position \(event.position): stream id \(event.streamID) is out of range")
        }
        let index = Int(event.streamID)
        if index >= entries.count {
            entries.append(contentsOf: repeatElement(Entry(), count: max(index + 1 - entries.count, entries.count / 2)))
        }
        if !entries[index].started {
            entries[index].started = true
            guard let name = names[event.streamID] else { preconditionFailure("a stream folded before it is named") }
            do {
                entries[index].fold = try StreamFold(stream: name)
            } catch {
                entries[index].failure = StreamReplay.Failure(version: 0, position: 0, reason: error.reason)
                return
            }
        }
        guard entries[index].failure == nil else { return }
        let version = entries[index].nextVersion
        entries[index].nextVersion += 1
        guard let data = try? parser.parse(event.data).objectValue else {
            entries[index].failure = StreamReplay.Failure(
                version: version, position: event.position,
                reason: "the stored data is not a JSON object")
            return
        }
        guard let type = types[event.typeID] else { preconditionFailure("an event folded before its type is named") }
        do {
            try entries[index].fold?.apply(
                type: type, data: data,
                occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt))
        } catch {
            entries[index].failure = StreamReplay.Failure(
                version: version, position: event.position, reason: error.reason)
            return
        }
        entries[index].events += 1
    }

    /// Reads the names of `streamID` (with a page of the streams after the last one read: ids
    /// grow as streams are created) and of `typeID`.
    private mutating func readNames(streamID: Int64, typeID: Int64) throws {
        while names[streamID] == nil && streamID > namesThrough {
            let page = try store.streamNames(fromID: namesThrough + 1, limit: Self.namePage)
            for (pageID, name) in page { names[pageID] = name }
            guard let last = page.last?.id else { break }
            namesThrough = last
        }
        if names[streamID] == nil { names[streamID] = try store.streamName(id: streamID) }
        if types[typeID] == nil { types[typeID] = try store.typeName(id: typeID) }
    }
}
