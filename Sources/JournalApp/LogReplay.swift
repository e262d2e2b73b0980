import EventStore
import JournalCore

/// `replay --all` in one pass over the log: the store's borrowing scan (which checks every
/// event's chain link as it goes, spec §4) feeds each event to its stream's fold, kept in
/// memory until the scan ends. The outcome of every stream is the one `StreamReplay.fold` gives
/// reading that stream alone: the same events, in the same (version) order, the same failures.
///
/// A stream's events come in position order, which is its version order; a stream's version is
/// the number of its events before it (versions are gapless from 0, and each is inside the
/// event's hash, which the scan checks).
///
/// The scan and the folds run on three threads, one page apart: this thread scans page k+1 (and
/// reads the names it needs from the store) into a ``LogReplayBatch`` while two
/// `BackgroundTask`s fold page k, each the streams of its lane (``LogReplayFold``, which never
/// calls the store). The scan, with its check of every link, is the smaller share of the work
/// and the folds the larger: this way the scan overlaps the folds, and the folds share the
/// cores instead of one of them setting the pace.
package struct LogReplay {
    /// One stream's fold so far.
    package struct Entry: Sendable {
        /// False until the stream's first event (ids with no event yet hold an empty entry).
        var started = false
        var fold: StreamFold?
        var events = 0
        var failure: StreamReplay.Failure?
        var nextVersion: Int64 = 0
    }

    private let store: any EventScanning
    /// Events per batch: the fold of one batch runs while the next is scanned.
    private let scanPage: Int
    private let namePage: Int
    /// Stream names by id, read a page at a time as new ids appear (ids grow with creation).
    private var names: [Int64: String] = [:]
    private var namesThrough: Int64 = 0
    private var types: [Int64: String] = [:]
    /// The ids of `names` and `types`, checked for every event scanned.
    private var namedStreams = NamedIDs()
    private var namedTypes = NamedIDs()

    static let namePage = 65_536
    static let scanPage = 16_384
    /// Fold lanes: two, so that on two cores the folds take both while the lighter scan fits
    /// between them.
    static let lanes = 2

    /// - Parameters:
    ///   - scanPage: events per batch (tests use small pages to cross many).
    ///   - namePage: stream names read at once (tests use small pages to read names mid-scan).
    package init(store: any EventScanning, scanPage: Int = LogReplay.scanPage, namePage: Int = LogReplay.namePage) {
        precondition(scanPage > 0 && namePage > 0, "a page holds at least one event or name")
        self.store = store
        self.scanPage = scanPage
        self.namePage = namePage
    }

    /// The entries of a run by stream name, read in place from the lanes' arrays (not copied
    /// into a map: a large log has millions). Read-only once the run is over, by any thread.
    package struct Folds: Sendable {
        /// Each lane's entries (``LogReplayFold``'s, moved out once the run is over).
        private let lanes: [[Entry]]
        /// The ids of the streams that have an entry.
        private let ids: [String: Int64]

        fileprivate init(lanes: [[Entry]], ids: [String: Int64]) {
            self.lanes = lanes
            self.ids = ids
        }

        /// The number of streams with an entry.
        var count: Int { ids.count }

        /// The entry of the stream `name`; nil when it has no event up to the run's position.
        subscript(name: String) -> Entry? {
            guard let id = ids[name] else { return nil }
            return lanes[Int(id % Int64(lanes.count))][Int(id / Int64(lanes.count))]
        }

        /// Every entry, by stream name (for tests).
        func mapValues<T>(_ transform: (Entry) -> T) -> [String: T] {
            var values: [String: T] = [:]
            for name in ids.keys { values[name] = self[name].map(transform) }
            return values
        }
    }

    /// Folds every event up to `untilPosition` (included); `progress` gets the events folded, in
    /// increasing order. Returns the entries by stream name: a stream with no event up to there
    /// has none.
    /// - Throws: the store's errors (an event whose chain link does not hold: `.integrity`),
    ///   once the fold of the batches before it is over.
    package mutating func run(untilPosition: Int64, progress: (Int64) -> Void) throws -> Folds {
        let folds = (0..<Self.lanes).map { LogReplayFold(lane: $0, of: Self.lanes) }
        var filling = LogReplayBatch()
        var spare = LogReplayBatch()
        var folding: (tasks: [BackgroundTask<Void>], last: Int64)?
        // However this ends, the fold state is back in this thread's hands.
        defer { for task in folding?.tasks ?? [] { task.finish() } }
        func settle() {
            guard let (tasks, last) = folding else { return }
            for task in tasks { task.finish() }
            folding = nil
            progress(last)
        }
        var next: Int64? = 1
        while let from = next {
            filling.removeAll()
            do {
                next = try scan(into: filling, from: from, untilPosition: untilPosition)
            } catch {
                // The events before the failing one are folded first, as a scan on one thread did.
                settle()
                throw error
            }
            settle()
            guard let last = filling.lastPosition else { break }
            // Lent to the lanes until `settle()` has waited for them: the batch is only read, each
            // lane's fold only by its own task.
            let batch = HandOver(filling)
            folding = (
                folds.map { fold in
                    let fold = HandOver(fold)
                    return BackgroundTask { fold.value.fold(batch.value) }
                }, last
            )
            swap(&filling, &spare)
        }
        settle()
        var ids: [String: Int64] = [:]
        ids.reserveCapacity(folds.reduce(0) { $0 + $1.entries.count })
        for fold in folds {
            for (index, entry) in fold.entries.enumerated() where entry.started {
                let id = fold.streamID(ofEntry: index)
                guard let name = names[id] else { continue }
                ids[name] = id
            }
        }
        return Folds(lanes: folds.map { $0.takeEntries() }, ids: ids)
    }

    /// Fills `batch` with up to `scanPage` events from position `start` on, up to `untilPosition`.
    /// Returns the position to scan from next, nil once the log (or `untilPosition`) is reached.
    private mutating func scan(into batch: LogReplayBatch, from start: Int64, untilPosition: Int64) throws -> Int64? {
        var next = start
        while batch.count < scanPage {
            let limit = scanPage - batch.count
            let before = batch.count
            var beyond = false
            // The store is not asked anything while it lends an event (it holds its reader): an
            // event of a stream or type not named yet stops the scan, the names are read, and
            // the scan goes on from that event.
            var unnamed: (position: Int64, streamID: Int64, typeID: Int64)?
            var outOfRange: (position: Int64, streamID: Int64)?
            // Locals: no access to `self` for each event (the names change only between scans).
            let (names, types, namedStreams, namedTypes) = (names, types, namedStreams, namedTypes)
            let scanned = try store.scanAll(from: next, limit: limit) { event in
                guard event.position <= untilPosition else {
                    beyond = true
                    return false
                }
                guard namedStreams.contains(event.streamID) || names[event.streamID] != nil,
                    namedTypes.contains(event.typeID) || types[event.typeID] != nil
                else {
                    unnamed = (event.position, event.streamID, event.typeID)
                    return false
                }
                // The fold keeps its entries in an array indexed by stream id.
                guard event.streamID >= 0, event.streamID < Int64(Int32.max) else {
                    outOfRange = (event.position, event.streamID)
                    return false
                }
                batch.append(event)
                return true
            }
            if let outOfRange {
                throw EventStoreError(
                    code: .integrity,
                    message: "position \(outOfRange.position): stream id \(outOfRange.streamID) is out of range")
            }
            if let unnamed {
                try readNames(streamID: unnamed.streamID, typeID: unnamed.typeID, into: batch)
                next = unnamed.position
                continue
            }
            guard !beyond, batch.count > before, let last = batch.lastPosition else { return nil }
            if scanned < limit || last >= untilPosition { return nil }
            next = last + 1
        }
        return next
    }

    /// Reads the names of `streamID` (with a page of the streams after the last one read: ids
    /// grow as streams are created) and of `typeID`, and hands them to the fold side with `batch`.
    private mutating func readNames(streamID: Int64, typeID: Int64, into batch: LogReplayBatch) throws {
        while names[streamID] == nil && streamID > namesThrough {
            let page = try store.streamNames(fromID: namesThrough + 1, limit: namePage)
            for (pageID, name) in page where names[pageID] == nil {
                names[pageID] = name
                namedStreams.insert(pageID)
                batch.streamNames.append((pageID, name))
            }
            guard let last = page.last?.id else { break }
            namesThrough = last
        }
        if names[streamID] == nil {
            let name = try store.streamName(id: streamID)
            names[streamID] = name
            namedStreams.insert(streamID)
            batch.streamNames.append((streamID, name))
        }
        if types[typeID] == nil {
            let name = try store.typeName(id: typeID)
            types[typeID] = name
            namedTypes.insert(typeID)
            batch.typeNames.append((typeID, name))
        }
    }
}
