import EventStore
import JournalCore
import Projections

/// `replay --all` in one pass over the log: the store's borrowing scan (which checks every
/// event's chain link as it goes, spec §4) feeds each event to its stream's fold. The outcome
/// of every stream is the one `StreamReplay.fold` gives reading that stream alone: the same
/// events, in the same (version) order, the same failures.
///
/// A stream's events come in position order, which is its version order; a stream's version is
/// the number of its events before it (versions are gapless from 0, and each is inside the
/// event's hash, which the scan checks).
///
/// The scan and the folds run on three threads, one page apart: this thread scans page k+1 (and
/// reads the names it needs from the store) into a ``ReplayBatch`` while two `BackgroundTask`s
/// fold page k, each the streams of its lane (``LogReplayFold``, which never calls the store).
/// The scan, with its check of every link, is the smaller share of the work and the folds the
/// larger: this way the scan overlaps the folds, and the folds share the cores instead of one
/// of them setting the pace.
///
/// Memory: the store records each stream's last event (`journal_streams.last_position`, read
/// with the names); a stream's fold is let go once the scan has taken that event (or at its
/// failure), and its final outcome goes to ``ReplayFinals`` (spilled in name-sorted runs to a
/// temporary file without a name), which gives them back in name order for the report. What is
/// held is the folds of the streams open across the scan's position, not the log's. A store
/// that records no ends (a journal of an older schema, opened read-only) keeps every fold to
/// the end, with the same report.
package struct LogReplay {
    private let store: any EventScanning
    /// Events per batch: the fold of one batch runs while the next is scanned.
    private let scanPage: Int
    private let namePage: Int
    /// The last stream id whose name was read with a page of names (ids grow with creation).
    private var namesThrough: Int64 = 0
    /// The stream ids named so far (their names went to the fold side), checked for every event
    /// scanned; `farNamed` for ids beyond ``NamedIDs/limit``.
    private var namedStreams = NamedIDs()
    private var farNamed: Set<Int64> = []
    /// Type names by the batches' index, and the index of each store type id (an array for the
    /// small ids, checked for every event scanned).
    private var typeNames: [String] = []
    private var typeIndex: [Int64: Int32] = [:]
    private var smallTypeIndex: [Int32] = []
    private let finalsBuffer: Int
    private let temporaryDirectory: String?
    /// The most folds held at once, counted after each page is folded.
    private(set) var peakLiveFolds = 0
    /// The most names held by the fold side ahead of their streams' first events, likewise.
    private(set) var peakHeldNames = 0

    static let namePage = 65_536
    static let scanPage = 16_384
    /// Fold lanes: two, so that on two cores the folds take both while the lighter scan fits
    /// between them.
    static let lanes = 2

    /// - Parameters:
    ///   - scanPage: events per batch (tests use small pages to cross many).
    ///   - namePage: stream names read at once (tests use small pages to read names mid-scan).
    ///   - finalsBuffer: the bytes of final outcomes held before they are sorted and written to a
    ///     temporary file (in `temporaryDirectory`, the system's by default).
    package init(
        store: any EventScanning, scanPage: Int = LogReplay.scanPage, namePage: Int = LogReplay.namePage,
        finalsBuffer: Int = 8 << 20, temporaryDirectory: String? = nil
    ) {
        precondition(scanPage > 0 && namePage > 0, "a page holds at least one event or name")
        self.store = store
        self.scanPage = scanPage
        self.namePage = namePage
        self.finalsBuffer = finalsBuffer
        self.temporaryDirectory = temporaryDirectory
    }

    /// Folds every event up to `untilPosition` (included); `progress` gets the events folded, in
    /// increasing order. Returns every stream's final outcome, in name order: the streams with an
    /// event up to there, and those without one whose fold of no events fails (a name no fold
    /// takes), as replaying each stream alone gives them.
    /// - Throws: the store's errors (an event whose chain link does not hold: `.integrity`),
    ///   once the fold of the batches before it is over; `.integrity` for an event after its
    ///   stream's recorded last event; the temporary file's (``ReplayRecordError``).
    package mutating func run(untilPosition: Int64, progress: (Int64) -> Void) throws -> ReplayFinals {
        let finals = ReplayFinals(bufferLimit: finalsBuffer, directory: temporaryDirectory)
        let folds = (0..<Self.lanes).map { LogReplayFold(lane: $0, of: Self.lanes) }
        var filling = ReplayBatch()
        var spare = ReplayBatch()
        var taken = folds.map { _ in LogReplayFold.Finished() }
        var folding: (tasks: [BackgroundTask<Void>], last: Int64)?
        // However this ends, the fold state is back in this thread's hands.
        defer { for task in folding?.tasks ?? [] { task.finish() } }
        /// Waits for the lanes; their finished outcomes are then in `taken`.
        func settle() throws {
            guard let (tasks, last) = folding else { return }
            for task in tasks { task.finish() }
            folding = nil
            peakLiveFolds = max(peakLiveFolds, folds.reduce(0) { $0 + $1.live })
            peakHeldNames = max(peakHeldNames, folds.reduce(0) { $0 + $1.heldNames })
            for (lane, fold) in folds.enumerated() {
                swap(&taken[lane], &fold.finished)
                if let (position, id) = fold.eventAfterEnd {
                    let name = (try? store.streamName(id: id)) ?? "of id \(id)"
                    throw EventStoreError(
                        code: .integrity,
                        message: "position \(position): the stream \(name) has an event after its recorded last "
                            + "event; 'journal verify' checks the journal")
                }
            }
            progress(last)
        }
        /// Gives the outcomes taken from the lanes to `finals` (while the lanes fold the next batch).
        func keep() throws {
            for lane in taken.indices {
                try Self.keep(taken[lane], in: finals)
                taken[lane].removeAll()
            }
        }
        var next: Int64? = 1
        while let from = next {
            filling.removeAll()
            do {
                next = try scan(into: filling, from: from, untilPosition: untilPosition)
            } catch {
                // The events before the failing one are folded first, as a scan on one thread did.
                try settle()
                throw error
            }
            try settle()
            filling.types = typeNames
            if filling.count > 0 {
                // Lent to the lanes until `settle()` has waited for them: the batch is only read,
                // each lane's fold only by its own task.
                let batch = HandOver(filling)
                folding = (
                    folds.map { fold in
                        let fold = HandOver(fold)
                        return BackgroundTask { fold.value.fold(batch.value) }
                    }, filling.lastPosition ?? from - 1
                )
                swap(&filling, &spare)
            }
            try keep()
        }
        try settle()
        try keep()
        for fold in folds {
            try fold.forEachOpen { name, events, stream in
                try finals.add(stream: name, events: events, failure: nil) { bytes in
                    StreamReplay.Outcome(fold: stream, events: events).writeSummary(into: &bytes)
                }
            }
        }
        try keepUnstarted(in: finals, folds: folds)
        return finals
    }

    private static func keep(_ finished: LogReplayFold.Finished, in finals: ReplayFinals) throws {
        for outcome in finished.outcomes {
            try finals.add(
                stream: outcome.name, events: outcome.events,
                failure: outcome.failure.map { ($0.version, $0.position, $0.reason) }
            ) { bytes in
                bytes.append(contentsOf: finished.bytes[outcome.state])
            }
        }
    }

    /// The streams with no event up to the run's position whose fold of no events fails (a
    /// name no fold takes): replayed alone, they fail at version 0. Their names are read a page
    /// at a time, from the first id not started on; the streams with an event are skipped.
    private func keepUnstarted(in finals: ReplayFinals, folds: [LogReplayFold]) throws {
        func started(_ id: Int64) -> Bool { folds[Int(id % Int64(folds.count))].hasStarted(id) }
        var id: Int64 = 1
        while true {
            while id <= namesThrough, started(id) { id += 1 }
            let page = try store.streamNames(fromID: id, limit: namePage)
            guard let last = page.last?.id else { return }
            for (pageID, name) in page where pageID < 0 || !started(pageID) {
                do {
                    _ = try StreamFold(stream: name)
                } catch {
                    try finals.add(stream: name, events: 0, failure: (0, 0, error.reason)) { _ in }
                }
            }
            id = last + 1
        }
    }

    /// Fills `batch` with up to `scanPage` events from position `start` on, up to `untilPosition`.
    /// Returns the position to scan from next, nil once the log (or `untilPosition`) is reached.
    private mutating func scan(into batch: ReplayBatch, from start: Int64, untilPosition: Int64) throws -> Int64? {
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
            let (namedStreams, farNamed, typeIndex, smallTypeIndex) = (
                namedStreams, farNamed, typeIndex, smallTypeIndex
            )
            let scanned = try store.scanAll(from: next, limit: limit) { event in
                guard event.position <= untilPosition else {
                    beyond = true
                    return false
                }
                let type =
                    event.typeID >= 0 && event.typeID < Int64(smallTypeIndex.count)
                    ? smallTypeIndex[Int(event.typeID)] : typeIndex[event.typeID] ?? -1
                guard namedStreams.contains(event.streamID) || farNamed.contains(event.streamID), type >= 0 else {
                    unnamed = (event.position, event.streamID, event.typeID)
                    return false
                }
                // The fold keeps its streams in arrays indexed by stream id.
                guard event.streamID >= 0, event.streamID < Int64(Int32.max) else {
                    outOfRange = (event.position, event.streamID)
                    return false
                }
                batch.append(
                    entry: Int(event.streamID), type: Int(type), occurredAt: event.occurredAt,
                    position: event.position, data: event.data)
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

    private func isNamed(_ id: Int64) -> Bool { namedStreams.contains(id) || farNamed.contains(id) }

    private mutating func markNamed(_ id: Int64, _ name: String, end: Int64?, in batch: ReplayBatch) {
        if id >= 0, id < NamedIDs.limit { namedStreams.insert(id) } else { farNamed.insert(id) }
        // An id out of range stops the scan at its event.
        guard id >= 0, id < Int64(Int32.max) else { return }
        batch.starts.append((Int32(id), name, end ?? .max))
    }

    /// Reads the names and recorded ends of `streamID` (with a page of the streams after the
    /// last one read: ids grow as streams are created) and the name of `typeID`, and hands them
    /// to the fold side with `batch`. Only the ids named are kept here.
    private mutating func readNames(streamID: Int64, typeID: Int64, into batch: ReplayBatch) throws {
        while !isNamed(streamID) && streamID > namesThrough {
            let page = try store.streamEnds(fromID: namesThrough + 1, limit: namePage)
            for (pageID, name, end) in page where !isNamed(pageID) {
                markNamed(pageID, name, end: end, in: batch)
            }
            guard let last = page.last?.id else { break }
            namesThrough = last
        }
        if !isNamed(streamID) {
            // Not in the pages (created out of id order): its end is not known, its fold is kept.
            markNamed(streamID, try store.streamName(id: streamID), end: nil, in: batch)
        }
        if typeIndex[typeID] == nil {
            let index = Int32(typeNames.count)
            typeNames.append(try store.typeName(id: typeID))
            typeIndex[typeID] = index
            if typeID >= 0, typeID < 1 << 16 {
                if typeID >= smallTypeIndex.count {
                    smallTypeIndex += repeatElement(-1, count: Int(typeID) + 1 - smallTypeIndex.count)
                }
                smallTypeIndex[Int(typeID)] = index
            }
        }
    }
}
