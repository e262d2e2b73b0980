import Domain
import JournalCore

/// A replay of a log that writes a record of it, or compares it with one (spec §12), fed the
/// log's events in position order (``ReplayLogScan``, or a bundle's stream).
///
/// Each event is folded into its stream's aggregate, and the state after it is taken field by
/// field (``StateFields``). Recording writes the fields that changed since the stream's version
/// before. Comparing reads the record in step with the log, one record entry per event, and
/// compares each stream version by version, wherever each side's entries come: a version of one
/// side waits in its stream's queue for the same version of the other. Logs in the same order
/// (the recorded journal, a copy with later events, a restore) keep the queues empty; the first
/// differing version ends a stream's comparison, so what waits is bounded by what differs.
///
/// Threads: the events fed are gathered into pages (``ReplayBatch``); two lanes
/// (``ReplayLane``) fold the pages on two threads, up to ``pagesAhead`` ahead, each the streams
/// of its half, render each state and find the fields it changed, while the feeding thread goes
/// on reading the log and writes (or compares) the oldest page's changes in position order. What
/// is written and found does not depend on the threads.
///
/// Kept per stream while it is open: the aggregate and its last state (in its lane), counters,
/// and, comparing, a copy of the state before for a stream whose versions wait in a queue.
/// Recording, a stream whose recorded end (its last event, ``ReplayLogScan``) is taken gives its
/// final outcome to ``ReplayFinals`` (spilled to a temporary file, given back in name order for
/// `replay --all`'s report) and its entry is reused by a later stream: what is held is bounded by
/// the streams open at once, not by the log's.
/// Comparing, the record's streams are found by name; a stream is judged, and its entry reused,
/// once both sides are past its end (the record marks each stream's last entry, the store its
/// last event), so that the same bound holds. See docs/decisions/replay-records.md.
public final class ReplayRun<Fold: ReplayFold> {
    public enum Mode {
        case record(path: String)
        case compare(path: String)
    }

    /// One stream's outcome at the end of a recording.
    public struct Outcome {
        public let stream: String
        /// The final state's summary as compact JSON (`{}` when the stream's name has no
        /// category the fold knows); empty when the stream fails.
        public let state: [UInt8]
        /// The events folded (before a failure).
        public let events: Int
        public let failure: (version: Int64, position: Int64, reason: String)?
    }

    /// The keys and initial state of a prefix's streams, under each side's rules.
    private struct Schema {
        var keys: [String]
        var initial: StateFields
        /// Each key as the final state's object writes it before its value (``StateFields/ObjectKeys``).
        var objectKeys: StateFields.ObjectKeys
    }

    public let rules: String
    // Used by one thread at a time, one access at a time (the lanes have state of their own):
    // no run-time exclusivity checks on the per-event state. They pay: `--against` 23.72 →
    // 21.03 s CPU, `--record` 21.84 → 21.22 s over 5 alternating runs of 1 M events
    // (docs/benchmarks-history.md, "Exclusivity checks").
    @exclusivity(unchecked) private var writer: ReplayRecordWriter?
    @exclusivity(unchecked) private var reader: ReplayRecordReader?
    @exclusivity(unchecked) private var entries: [ReplayEntry] = []
    /// Entries by the log's stream key, when keys are small (store ids are dense from 1);
    /// ``endedKey`` for a recorded stream whose last event was taken (its entry reused).
    @exclusivity(unchecked) private var byDenseKey: [Int32] = []
    @exclusivity(unchecked) private var byName: [String: Int] = [:]
    @exclusivity(unchecked) private var byKey: [Int64: Int] = [:]
    private static var endedKey: Int32 { -2 }
    /// Recording: the entries of the streams that ended, for the next streams.
    @exclusivity(unchecked) private var freeEntries: [Int] = []
    /// Recording: every stream's final outcome, for ``outcomes(_:)``.
    @exclusivity(unchecked) private var finals: ReplayFinals?
    /// The streams fed.
    @exclusivity(unchecked) private(set) public var streams = 0
    /// Comparing: the record's slots to entries (-1 for a stream left out).
    @exclusivity(unchecked) private var thenSlots: [Int] = []
    /// Comparing: what the streams already judged (both sides past their ends) gave.
    @exclusivity(unchecked) private var judged = (
        streams: 0, differences: [ReplayComparison.Difference](), onlyNow: [String](),
        onlyThen: [String]()
    )
    /// The schemas by prefix (their numbers in `schemas`): a stream's entry keeps its number.
    @exclusivity(unchecked) private var nowSchemas: [String: Int] = [:]
    @exclusivity(unchecked) private var schemas: [Schema] = []
    @exclusivity(unchecked) private var thenSchemas: [String: (keys: [String], initial: JSONObject)] = [:]
    /// The record's initial state of a prefix in the now keys' order, per prefix.
    private var thenInitial: [String: (fields: StateFields, extra: [(key: String, value: JSONValue)])] = [:]
    private let parser = JSONParser()
    /// The events fed.
    @exclusivity(unchecked) private(set) public var events: Int64 = 0
    /// The most folds held at once, counted after each page is folded: a stream's fold is let go
    /// at its recorded last position, so this stays within the streams open across a page's end.
    @exclusivity(unchecked) private(set) public var peakLiveFolds = 0
    /// The most streams with an entry at once, counted after each page is folded: recording,
    /// the streams open across a page's end and those that ended in the two pages around it.
    @exclusivity(unchecked) private(set) public var peakLiveStreams = 0
    /// Recording: the most final outcomes held at once before they are written to the
    /// temporary file, and the runs written there.
    public var peakHeldFinals: Int { finals?.peakHeld ?? 0 }
    public var spilledFinalRuns: Int { finals?.spilledRuns ?? 0 }

    private let lanes: [ReplayLane<Fold>]
    /// The pages: one being filled, the others given to the lanes (or spare). A page's lane
    /// results are in each lane's output of the same number.
    private let pages = (0..<ReplayRun.pagesAhead + 1).map { _ in ReplayBatch() }
    /// The page being filled.
    @exclusivity(unchecked) private var filling = 0
    /// The pages given to the lanes, oldest first, each with its ticket (its number among the
    /// pages given).
    @exclusivity(unchecked) private var given: [(page: Int, ticket: Int)] = []
    @exclusivity(unchecked) private var tickets = 0
    /// A thread per lane (none for one lane: the run's thread folds), for the whole run.
    private let workers: [WorkerThread]
    /// Pages the lanes may hold at once, the one the run takes next included: the run's thread
    /// and the lanes wait for each other only when one side is that far ahead.
    static var pagesAhead: Int { 2 }
    @exclusivity(unchecked) private var types: [String] = []
    @exclusivity(unchecked) private var typeIndex: [String: Int] = [:]
    /// Type numbers by the log's key of the type (the store's type id, small), -1 for a key not seen.
    @exclusivity(unchecked) private var typeByKey: [Int32] = []
    private let page: Int

    /// Comparing one stream (a bundle's): the record's other streams are left out.
    private let only: String?

    /// Events per page: one page is folded while the next is read.
    public static var defaultPage: Int { 8192 }

    /// - Parameters:
    ///   - rules: the identifier of `Fold`'s rules, written into a record, compared with a record's.
    ///   - only: compare this stream alone (a bundle's), leaving the record's others out.
    ///   - lanes: fold threads (tests vary it: the results do not depend on it).
    ///   - page: events per page.
    ///   - finalsBuffer: recording, the bytes of final outcomes held before they are sorted and
    ///     written to a temporary file (in `temporaryDirectory`, the system's by default).
    public init(
        _ mode: Mode, rules: String, only: String? = nil, lanes: Int = 2, page: Int = ReplayRun.defaultPage,
        finalsBuffer: Int = 8 << 20, temporaryDirectory: String? = nil
    ) throws(ReplayRecordError) {
        precondition(lanes > 0 && page > 0, "a lane and a page of at least one")
        self.rules = rules
        self.only = only
        self.page = page
        let comparing = if case .compare = mode { true } else { false }
        self.lanes = (0..<lanes).map { ReplayLane(lane: $0, of: lanes, full: comparing) }
        workers = lanes > 1 ? (0..<lanes).map { _ in WorkerThread() } : []
        switch mode {
        case let .record(path):
            writer = try ReplayRecordWriter(path: path, rules: rules)
            finals = ReplayFinals(bufferLimit: finalsBuffer, directory: temporaryDirectory)
        case let .compare(path): reader = try ReplayRecordReader(path: path)
        }
    }

    deinit { for worker in workers { worker.wait() } }

    /// The rules identifier of the record compared with.
    public var recordRules: String? { reader?.rules }

    /// Folds the next event of the log. `key` identifies its stream within the log (the store's
    /// stream id); `name` and `end` (the position of the stream's last event, when the store
    /// records it) are asked for the first event of a key. The event is folded with its page; a
    /// record's error may come from a later call, or from the run's end.
    /// - Throws: for an event after its stream's recorded end (the store's record of the stream
    ///   does not hold: `journal verify` says so), and the record's errors.
    public func feed(
        key: Int64, name: () -> String, end: () -> Int64? = { nil }, position: Int64, type: String,
        typeKey: Int64 = -1, data: UnsafeRawBufferPointer, occurredAt: Timestamp
    ) throws(ReplayRecordError) {
        let index: Int
        let dense = key >= 0 && key < Int64(byDenseKey.count)
        if dense, byDenseKey[Int(key)] >= 0 {
            index = Int(byDenseKey[Int(key)])
        } else if let known = byKey[key], known >= 0 {
            index = known
        } else if (dense && byDenseKey[Int(key)] == Self.endedKey) || byKey[key] == Int(Self.endedKey) {
            throw ReplayRecordError.eventAfterEnd(position: position, stream: name(), key: key)
        } else {
            index = entry(named: name(), key: key)
            if key >= 0, key < 1 << 28, entries.count < Int(Int32.max) {
                if key >= Int64(byDenseKey.count) {
                    byDenseKey.append(
                        contentsOf: repeatElement(-1, count: max(Int(key) + 1 - byDenseKey.count, byDenseKey.count)))
                }
                byDenseKey[Int(key)] = Int32(index)
            } else {
                byKey[key] = index
            }
        }
        if !entries[index].fed {
            entries[index].fed = true
            streams += 1
            entries[index].key = key
            entries[index].end = end() ?? .max
            pages[filling].starts.append((Int32(index), entries[index].name, entries[index].end))
        }
        guard position <= entries[index].end else {
            throw ReplayRecordError(
                "position \(position): the stream \(entries[index].name) has an event after its recorded last "
                    + "position \(entries[index].end); 'journal verify' checks the journal")
        }
        let typeNumber: Int
        if typeKey >= 0, typeKey < Int64(typeByKey.count), typeByKey[Int(typeKey)] >= 0 {
            typeNumber = Int(typeByKey[Int(typeKey)])
        } else {
            if let known = typeIndex[type] {
                typeNumber = known
            } else {
                typeNumber = types.count
                types.append(type)
                typeIndex[type] = typeNumber
            }
            if typeKey >= 0, typeKey < 1 << 16 {
                if typeKey >= Int64(typeByKey.count) {
                    typeByKey.append(contentsOf: repeatElement(-1, count: Int(typeKey) + 1 - typeByKey.count))
                }
                typeByKey[Int(typeKey)] = Int32(typeNumber)
            }
        }
        events += 1
        pages[filling].append(
            entry: index, type: typeNumber, occurredAt: occurredAt.millisecondsSinceEpoch, position: position,
            data: data)
        if pages[filling].count >= page { try dispatch() }
    }

    /// The entry of the stream `name`, made when it has none. Recording, the log's keys alone
    /// find a stream (the store names each stream id once): no map by name is kept. The entry of
    /// a stream that ended (comparing: on both sides) is reused.
    private func entry(named name: String, key: Int64 = -1) -> Int {
        if writer == nil, let index = byName[name] { return index }
        let index: Int
        if let free = freeEntries.popLast() {
            index = free
            entries[index] = ReplayEntry(name: name, key: key)
        } else {
            index = entries.count
            entries.append(ReplayEntry(name: name, key: key))
        }
        if writer == nil { byName[name] = index }
        return index
    }

    /// Hands the filled page to the lanes; takes the results of the oldest page given when
    /// ``pagesAhead`` are given (all of them with `all`), and fills a page that is free.
    private func dispatch(all: Bool = false) throws(ReplayRecordError) {
        let batch = pages[filling]
        if batch.count > 0 {
            batch.types = types
            let output = filling
            tickets += 1
            if lanes.count == 1 {
                lanes[0].fold(batch, into: output)
            } else {
                // Lent to the lanes until the run has waited for them: the page is only read,
                // each lane only by its own worker.
                let lent = HandOver(batch)
                for (lane, worker) in zip(lanes, workers) {
                    let lane = HandOver(lane)
                    worker.start { lane.value.fold(lent.value, into: output) }
                }
            }
            given.append((filling, tickets))
        } else {
            batch.removeAll()
        }
        while let oldest = given.first, all || given.count > Self.pagesAhead {
            given.removeFirst()
            for worker in workers { worker.wait(for: oldest.ticket) }
            let outputs = lanes.map { $0.outputs[oldest.page] }
            peakLiveFolds = max(peakLiveFolds, outputs.reduce(0) { $0 + $1.liveFolds })
            peakLiveStreams = max(peakLiveStreams, entries.count - freeEntries.count)
            defer { pages[oldest.page].removeAll() }
            try take(pages[oldest.page], output: oldest.page)
        }
        filling = (0..<pages.count).first { page in !given.contains { $0.page == page } }!
    }

    /// Folds what is fed and not folded yet, and takes every result.
    private func drain() throws(ReplayRecordError) {
        try dispatch(all: true)
    }

    /// Takes the lanes' results for `batch`, in its (position) order.
    private func take(_ batch: ReplayBatch, output: Int) throws(ReplayRecordError) {
        var cursors = [Int](repeating: 0, count: lanes.count)
        let outputs = lanes.map { $0.outputs[output] }
        for event in batch.events {
            if reader != nil { try readThen(events: 1) }
            let lane = Int(event.entry) % lanes.count
            let result = outputs[lane].results[cursors[lane]]
            cursors[lane] += 1
            let side = now(Int(event.entry), result, position: event.position, output: outputs[lane])
            let index = Int(event.entry)
            let ends = event.position == entries[index].end
            if let writer {
                try record(side, of: index, ends: ends, writer)
                if ends { try ended(index, last: side) }
            } else {
                try compareNow(side, of: index)
                if ends {
                    entries[index].nowEnded = true
                    judgeIfEnded(index)
                }
            }
        }
    }

    /// The next version of the stream `index`, from its lane's result.
    private func now(
        _ index: Int, _ result: ReplayLaneResult, position: Int64, output: ReplayLaneOutput
    ) -> ReplayNowSide {
        let version = entries[index].versions
        entries[index].versions += 1
        entries[index].inNow = true
        switch result.kind {
        case .skipped:
            return .skipped
        case .startFails:
            let reason = output.reasons[Int(result.first)]
            entries[index].failure = (0, 0, reason)
            return .fails(reason)
        case .fails:
            let reason = output.reasons[Int(result.first)]
            entries[index].failure = (version, position, reason)
            entries[index].previous = nil
            return .fails(reason)
        case .state:
            if version == 0 { _ = schema(of: index) }
            entries[index].folded += 1
            entries[index].ended = result.ended
            guard entries[index].schema >= 0 else { return .skipped }
            return .state(ReplayLaneState(output, result))
        }
    }

    // MARK: - Recording

    /// The keys and initial state of the stream's category, when its name has one.
    private func schema(of index: Int) -> Schema? {
        if let known = knownSchema(of: index) { return known }
        guard let fold = try? Fold.start(stream: entries[index].name) else { return nil }
        let initial = fold.replaySummary
        let schema = Schema(
            keys: initial.keys, initial: StateFields(initial, keys: initial.keys),
            objectKeys: StateFields.ObjectKeys(initial.keys))
        schemas.append(schema)
        nowSchemas[entries[index].prefix] = schemas.count - 1
        entries[index].schema = Int32(schemas.count - 1)
        return schema
    }

    /// The schema of the stream's category, if one was made; its entry keeps its number.
    private func knownSchema(of index: Int) -> Schema? {
        if entries[index].schema >= 0 { return schemas[Int(entries[index].schema)] }
        guard let known = nowSchemas[entries[index].prefix] else { return nil }
        entries[index].schema = Int32(known)
        return schemas[known]
    }

    private func record(_ side: ReplayNowSide, of index: Int, ends: Bool, _ writer: ReplayRecordWriter)
        throws(ReplayRecordError)
    {
        if entries[index].slot < 0, let schema = schema(of: index) {
            entries[index].category = try writer.category(prefix: entries[index].prefix) {
                var initial: [UInt8] = []
                schema.initial.writeObject(keys: schema.keys, into: &initial)
                return (schema.keys.count, initial)
            }
        }
        // The name is written with the stream's first entry only.
        let name = entries[index].slot < 0 ? entries[index].name : ""
        let category = entries[index].category >= 0 ? entries[index].category : nil
        switch side {
        case let .state(state):
            guard let category, entries[index].schema >= 0 else {
                preconditionFailure("a state of a stream of no category")
            }
            try writer.step(slot: &entries[index].slot, name: name, category: category, ends: ends, after: state)
        case let .fails(reason):
            try writer.fails(slot: &entries[index].slot, name: name, category: category, ends: ends, reason: reason)
        case .skipped: try writer.skipped(slot: &entries[index].slot, name: name, category: category, ends: ends)
        }
    }

    /// A recorded stream's last event was taken: its final outcome is kept (out of memory) and
    /// its entry freed for a later stream; a later event of its key is refused (``feed``).
    private func ended(_ index: Int, last side: ReplayNowSide) throws(ReplayRecordError) {
        if case let .state(state) = side {
            try keepFinal(index) { _, bytes in state.appendFinal(to: &bytes) }
        } else {
            try keepFinal(index, writeState: nil)
        }
        release(index)
    }

    /// Frees the entry of a stream that ended (on both sides, comparing) for a later stream; a
    /// later event of its key is refused (``feed``).
    private func release(_ index: Int) {
        let key = entries[index].key
        if key >= 0, key < Int64(byDenseKey.count) {
            byDenseKey[Int(key)] = Self.endedKey
        } else {
            byKey[key] = Int(Self.endedKey)
        }
        if writer == nil { byName.removeValue(forKey: entries[index].name) }
        entries[index] = ReplayEntry(name: "")
        freeEntries.append(index)
    }

    /// Gives the stream's final outcome to `finals`: its failure, else its state as
    /// `writeState` writes it (`{}` without one, or without a category).
    private func keepFinal(
        _ index: Int, writeState: ((_ keys: StateFields.ObjectKeys, _ bytes: inout [UInt8]) -> Void)?
    ) throws(ReplayRecordError) {
        guard let finals else { return }
        let entry = entries[index]
        let keys = knownSchema(of: index)?.objectKeys
        try finals.add(stream: entry.name, events: entry.folded, failure: entry.failure) { bytes in
            guard let keys, let writeState else { return bytes.append(contentsOf: "{}".utf8) }
            writeState(keys, &bytes)
        }
    }

    // MARK: - Comparing

    /// Reads record entries up to `events` event entries (all that remain when nil).
    private func readThen(events count: Int?) throws(ReplayRecordError) {
        guard let reader else { return }
        var read = 0
        while count.map({ read < $0 }) ?? true, let item = try reader.next() {
            switch item {
            case let .initial(prefix, summary):
                thenSchemas[prefix] = (summary.keys, summary)
                thenInitial[prefix] = nil
                sameKeys = []
            case let .event(slot, name, ends, side):
                read += 1
                if let name {
                    var index = -1
                    if only == nil || only == name {
                        index = entry(named: name)
                        entries[index].inThen = true
                    }
                    if slot >= thenSlots.count {
                        thenSlots.append(contentsOf: repeatElement(-1, count: 1 + slot - thenSlots.count))
                    }
                    thenSlots[slot] = index
                }
                let index = thenSlots[slot]
                try thenSide(side, of: index)
                if ends, index >= 0 {
                    entries[index].thenEnded = true
                    judgeIfEnded(index)
                }
            }
        }
    }

    /// Compares the stream's next version with the record's: at once, from the lane's output,
    /// when the record's is the one waiting and the same (the usual case: both logs in the same
    /// order, the same rules); else through the queues, with a copy of the state.
    private func compareNow(_ side: ReplayNowSide, of index: Int) throws(ReplayRecordError) {
        if case let .state(state) = side, entries[index].nowQueue.isEmpty, entries[index].difference == nil,
            case let .state(changes)? = entries[index].thenQueue.first,
            try sameAsRecorded(index, version: entries[index].compared, changes: changes, now: state)
        {
            entries[index].thenQueue.removeFirst()
            entries[index].compared += 1
            // Caught up (the queue of now is empty): the state compared is the lane's last.
            entries[index].previous = nil
            entries[index].previousInLane = true
            if entries[index].ended, entries[index].thenQueue.isEmpty {
                entries[index].thenQueue = []
                entries[index].nowQueue = []
            }
            return
        }
        if entries[index].previousInLane {
            // The slow path needs the state before this version: the lane's last before it.
            entries[index].previousInLane = false
            if case let .state(state) = side, entries[index].compared == entries[index].versions - 1 {
                entries[index].previous = state.stateBefore()
            }
        }
        entries[index].nowQueue.append(side.kept)
        try compareQueued(index)
    }

    /// True when the record's state (the state both sides had before `version`, with the
    /// record's changes, in the same keys) is `now`. Both sides' changes are from the same state
    /// (every version before compared equal, and the lane's last state is the one before), and
    /// both hold only fields that differ from it: the states are the same when the changes are.
    /// The record's first state is compared field by field when its initial one is not now's.
    private func sameAsRecorded(
        _ index: Int, version: Int64, changes: ReplayChanges, now: ReplayLaneState
    ) throws(ReplayRecordError) -> Bool {
        guard let schema = knownSchema(of: index) else { return false }
        let number = Int(entries[index].schema)
        if number >= sameKeys.count {
            sameKeys.append(
                contentsOf: repeatElement(
                    (looked: false, initial: StateFields?.none, sameInitial: false), count: number + 1 - sameKeys.count)
            )
        }
        if !sameKeys[number].looked {
            let prefix = entries[index].prefix
            let base = try thenBase(prefix, schema: schema)
            let same = try thenToNow(prefix, schema: schema).identity && base.extra.isEmpty
            sameKeys[number] = (true, same ? base.fields : nil, same && base.fields == schema.initial)
        }
        // The record's keys are not the same (or its initial state has others): the slow path.
        guard let initial = sameKeys[number].initial else { return false }
        if version > 0 || sameKeys[number].sameInitial {
            return now.hasChanges(changes.indices, values: changes.values)
        }
        guard initial.count == now.count else { return false }
        var next = 0
        for field in 0..<now.count {
            if next < changes.indices.count, changes.indices[next] == field {
                guard now.sameField(field, as: changes.values, at: next) else { return false }
                next += 1
            } else if !now.sameField(field, as: initial) {
                return false
            }
        }
        return next == changes.indices.count
    }

    private func thenSide(_ side: ReplayThenSide, of index: Int) throws(ReplayRecordError) {
        guard index >= 0 else { return }
        entries[index].versionsThen += 1
        if case let .fails(reason) = side, entries[index].thenFailure == nil { entries[index].thenFailure = reason }
        entries[index].thenQueue.append(side)
        try compareQueued(index)
    }

    /// Compares the versions both sides have queued for the stream, oldest first.
    private func compareQueued(_ index: Int) throws(ReplayRecordError) {
        while entries[index].difference == nil, !entries[index].thenQueue.isEmpty,
            !entries[index].nowQueue.isEmpty
        {
            let then = entries[index].thenQueue.removeFirst()
            let now = entries[index].nowQueue.removeFirst()
            let version = entries[index].compared
            entries[index].compared += 1
            switch (then, now) {
            case let (.state(changes), .state(fields)):
                guard let found = try stateDifference(index, version: version, changes: changes, now: fields) else {
                    if entries[index].compared == entries[index].versions {
                        // Caught up: the next version's lane holds this state as its last.
                        entries[index].previous = nil
                        entries[index].previousInLane = true
                    } else {
                        entries[index].previous = fields
                    }
                    continue
                }
                entries[index].difference = ReplayPendingDifference(
                    version: version, then: (.folds, nil), now: (.folds, nil), fields: found)
            case let (.fails(thenReason), .fails(nowReason)):
                if thenReason == nowReason { continue }
                entries[index].difference = ReplayPendingDifference(
                    version: version, then: (.fails, thenReason), now: (.fails, nowReason), fields: [])
            case (.skipped, .skipped):
                continue
            case let (.fails(reason), .state), let (.fails(reason), .skipped):
                entries[index].difference = ReplayPendingDifference(
                    version: version, then: (.fails, reason), now: (.folds, nil), fields: [])
            case let (.state, .fails(reason)), let (.skipped, .fails(reason)):
                entries[index].difference = ReplayPendingDifference(
                    version: version, then: (.folds, nil), now: (.fails, reason), fields: [])
            case (.state, .skipped), (.skipped, .state):
                entries[index].difference = ReplayPendingDifference(
                    version: version, then: (.folds, nil), now: (.folds, nil), fields: [])
            }
        }
        if entries[index].difference != nil {
            entries[index].thenQueue = []
            entries[index].nowQueue = []
            entries[index].previous = nil
            entries[index].previousInLane = false
        } else if entries[index].ended, entries[index].thenQueue.isEmpty, entries[index].nowQueue.isEmpty {
            // An ended stream rarely has another version: its queues' storage is let go (a
            // large log has millions of ended streams).
            entries[index].thenQueue = []
            entries[index].nowQueue = []
        }
    }

    /// The fields in which the then state (the state both sides had before `version`, with the
    /// record's changes) differs from `now`; nil when none does.
    private func stateDifference(
        _ index: Int, version: Int64, changes: ReplayChanges, now: StateFields
    ) throws(ReplayRecordError) -> [ReplayComparison.Field]? {
        let prefix = entries[index].prefix
        guard let schema = knownSchema(of: index) else { return nil }
        let base = try thenBase(prefix, schema: schema)
        let mapping = try thenToNow(prefix, schema: schema)
        if mapping.identity,
            Self.same(version == 0 ? base.fields : entries[index].previous ?? base.fields, changed: changes, now)
        {
            return nil
        }
        var mapped: [(index: Int, value: [UInt8])] = []
        var extra = version == 0 ? base.extra : []
        for (position, thenIndex) in changes.indices.enumerated() {
            guard thenIndex < mapping.keys.count else {
                throw ReplayRecordError("the record \(reader?.path ?? "") is damaged: a field beyond its state's")
            }
            let value = Array(changes.values[position])
            if let nowIndex = mapping.indices[thenIndex] {
                mapped.append((nowIndex, value))
            } else {
                extra.removeAll { $0.key == mapping.keys[thenIndex] }
                extra.append((mapping.keys[thenIndex], (try? parser.parse(value)) ?? .null))
            }
        }
        mapped.sort { $0.index < $1.index }
        let before = (version == 0 ? base.fields : entries[index].previous ?? base.fields).replacing(mapped)
        let extraDiffers = extra.contains { $0.value != .null }
        guard before != now || extraDiffers else { return nil }
        var fields: [ReplayComparison.Field] = []
        for field in 0..<now.count where before[field] != now[field] {
            let then = (try? parser.parse(Array(before[field]))) ?? .null
            let after = (try? parser.parse(Array(now[field]))) ?? .null
            Self.differences(path: schema.keys[field], then, after, into: &fields)
        }
        for (key, value) in extra where value != .null {
            fields.append(ReplayComparison.Field(path: key, before: value, after: .null))
        }
        return fields
    }

    /// True when `before` with `changes` (in the same keys) is `now`, field by field.
    private static func same(_ before: StateFields, changed changes: ReplayChanges, _ now: StateFields) -> Bool {
        guard before.count == now.count else { return false }
        var next = 0
        for field in 0..<now.count {
            if next < changes.indices.count, changes.indices[next] == field {
                guard changes.values.sameField(next, as: now, at: field) else { return false }
                next += 1
            } else if !before.sameField(field, as: now) {
                return false
            }
        }
        return next == changes.indices.count
    }

    private static func differences(
        path: String, _ before: JSONValue, _ after: JSONValue, into fields: inout [ReplayComparison.Field]
    ) {
        guard before != after else { return }
        if case let .object(then) = before, case let .object(now) = after {
            for (key, value) in then { differences(path: path + "." + key, value, now[key] ?? .null, into: &fields) }
            for (key, value) in now where then[key] == nil {
                differences(path: path + "." + key, .null, value, into: &fields)
            }
            return
        }
        fields.append(ReplayComparison.Field(path: path, before: before, after: after))
    }

    @exclusivity(unchecked) private var mappings: [String: (keys: [String], indices: [Int?], identity: Bool)] = [:]
    /// Per schema number: the record's initial state of its category when the record has the
    /// same keys and no others (a version is then compared field by field, in place); nil when
    /// it has others.
    /// `sameInitial`: that initial state is now's too (a stream's first state's changes are then
    /// from the same state on both sides).
    @exclusivity(unchecked) private var sameKeys: [(looked: Bool, initial: StateFields?, sameInitial: Bool)] = []

    private func thenToNow(_ prefix: String, schema: Schema) throws(ReplayRecordError) -> (
        keys: [String], indices: [Int?], identity: Bool
    ) {
        if let known = mappings[prefix] { return known }
        guard let then = thenSchemas[prefix] else {
            throw ReplayRecordError("the record \(reader?.path ?? "") is damaged: a step before its initial state")
        }
        var position: [String: Int] = [:]
        for (index, key) in schema.keys.enumerated() { position[key] = index }
        let mapping = (then.keys, then.keys.map { position[$0] }, then.keys == schema.keys)
        mappings[prefix] = mapping
        return mapping
    }

    private func thenBase(_ prefix: String, schema: Schema) throws(ReplayRecordError) -> (
        fields: StateFields, extra: [(key: String, value: JSONValue)]
    ) {
        if let known = thenInitial[prefix] { return known }
        guard let then = thenSchemas[prefix] else {
            throw ReplayRecordError("the record \(reader?.path ?? "") is damaged: a step before its initial state")
        }
        let fields = StateFields(then.initial, keys: schema.keys)
        let extra = then.initial.entries.filter { !schema.keys.contains($0.key) }
        thenInitial[prefix] = (fields, extra)
        return (fields, extra)
    }

    // MARK: - Ending

    /// Ends a recording: the final outcomes of the streams still open are kept, and the record
    /// is written whole and named.
    public func finishRecord() throws(ReplayRecordError) {
        try drain()
        for index in entries.indices where entries[index].fed {
            // Its state, when it has no failure: its fold's (the lanes are idle).
            let state = entries[index].failure != nil ? nil : lanes[index % lanes.count].state(ofEntry: index)
            try keepFinal(
                index, writeState: state.map { state in { keys, bytes in state.writeObject(keys, into: &bytes) } })
        }
        try writer?.finish(events: events, streams: streams)
        writer = nil
    }

    /// Removes a partial record (a replay that stopped).
    public func abandon() {
        writer?.abandon()
        writer = nil
    }

    /// Ends a comparison: the rest of the record is read (and checked), then every stream is
    /// judged.
    public func finishComparison() throws(ReplayRecordError) -> ReplayComparison {
        try drain()
        try readThen(events: nil)
        for index in entries.indices { judge(at: index) }
        return ReplayComparison(
            streams: judged.streams, differences: judged.differences.sorted { $0.stream < $1.stream },
            onlyNow: judged.onlyNow.sorted(), onlyThen: judged.onlyThen.sorted(), rulesThen: reader?.rules ?? "",
            rulesNow: rules)
    }

    /// Judges a stream both sides have passed the end of (the record's end mark, the store's
    /// last event), and frees its entry: what a comparison holds is then the streams open on
    /// either side, not the log's.
    private func judgeIfEnded(_ index: Int) {
        guard entries[index].thenEnded, entries[index].nowEnded else { return }
        judge(at: index)
        release(index)
    }

    /// Adds the verdict of the stream at `index` to `judged` (its entry read in place: an entry
    /// holds references, and a copy of it retains each).
    private func judge(at index: Int) {
        switch (entries[index].inThen, entries[index].inNow) {
        case (true, false): judged.onlyThen.append(entries[index].name)
        case (false, true): judged.onlyNow.append(entries[index].name)
        case (false, false): break
        case (true, true):
            judged.streams += 1
            var found = entries[index].difference
            if found == nil, entries[index].versionsThen != entries[index].versions {
                found = ReplayPendingDifference(
                    version: min(entries[index].versionsThen, entries[index].versions),
                    then: entries[index].thenFailure.map { (.fails, $0) } ?? (.folds, nil),
                    now: entries[index].failure.map { (.fails, $0.reason) } ?? (.folds, nil), fields: [])
            }
            guard let found else { return }
            judged.differences.append(
                ReplayComparison.Difference(
                    stream: entries[index].name, version: found.version, then: found.then.0, now: found.now.0,
                    thenReason: found.then.1, nowReason: found.now.1, versionsThen: entries[index].versionsThen,
                    versionsNow: entries[index].versions, fields: found.fields))
        }
    }

    /// Every stream's final outcome, in name order (for `replay --all`'s own report), once a
    /// recording is finished (``finishRecord()``); nothing when comparing.
    /// - Throws: the temporary file's errors (``ReplayRecordError``), and `body`'s.
    public func outcomes(_ body: (Outcome) throws -> Void) throws {
        try finals?.forEachInNameOrder { final in
            try body(Outcome(stream: final.stream, state: final.state, events: final.events, failure: final.failure))
        }
    }
}

enum ReplaySide {
    case state(StateFields)
    case fails(String)
    case skipped
}

/// A version as a lane gave it: its state read in the lane's output.
enum ReplayNowSide {
    case state(ReplayLaneState)
    case fails(String)
    case skipped

    /// What a stream's queue keeps of it.
    var kept: ReplaySide {
        switch self {
        case let .state(state): .state(state.copy())
        case let .fails(reason): .fails(reason)
        case .skipped: .skipped
        }
    }
}

enum ReplayThenSide {
    case state(ReplayChanges)
    case fails(String)
    case skipped
}

struct ReplayEntry {
    let name: String
    let prefix: String
    /// The log's key of the stream (the store's stream id); -1 when not fed from a log.
    var key: Int64
    /// Recording: the stream's slot in the record (-1 before its first entry) and the number of
    /// its category (-1 for a name of none).
    var slot = -1
    var category = -1
    /// The number of its category's schema in the run's (-1 before it is known).
    var schema: Int32 = -1
    /// Comparing: the state after the last version compared equal, when the versions taken are
    /// ahead of it; nil when they are not (``previousInLane``) and before the first.
    var previous: StateFields?
    /// Comparing: every version taken is compared equal, and the state after the last one is the
    /// lane's last: the next version's state before it, when a comparison needs it.
    var previousInLane = false
    var versions: Int64 = 0
    var folded = 0
    var failure: (version: Int64, position: Int64, reason: String)?
    /// The stream's first event was fed (its name went to its lane).
    var fed = false
    /// The position of its last event as the store records it; `Int64.max` when unknown.
    var end = Int64.max
    /// The state after the last version taken is ended (``ReplayFold/replayEnded``).
    var ended = false
    // Comparing.
    var inNow = false
    var inThen = false
    /// The stream's last event was taken (the store's record of its end), and the record's end
    /// mark of it read.
    var nowEnded = false
    var thenEnded = false
    var versionsThen: Int64 = 0
    var thenFailure: String?
    var compared: Int64 = 0
    var thenQueue: [ReplayThenSide] = []
    var nowQueue: [ReplaySide] = []
    var difference: ReplayPendingDifference?

    init(name: String, key: Int64 = -1) {
        self.name = name
        self.key = key
        prefix = ReplayRecordFormat.prefix(of: name)
    }
}

struct ReplayPendingDifference {
    var version: Int64
    var then: (ReplayComparison.Outcome, String?)
    var now: (ReplayComparison.Outcome, String?)
    var fields: [ReplayComparison.Field]
}
