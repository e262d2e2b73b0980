import Domain
import JournalCore

/// The fold side of a ``ReplayRun``: the folds of the streams of one lane (the run's entries
/// equal to `lane` modulo `lanes`), fed a ``ReplayBatch`` at a time. Streams are independent, so
/// the lanes fold the same batch at once, each its own streams' events, and leave for each one
/// what the run needs, in the batch's order: the state after it field by field (rendered here,
/// the larger share of the work), or its failure. The run then takes the lanes' results in
/// position order on its own thread, to write or compare the record.
///
/// Used by one thread at a time (handed to its task with `HandOver`): the run waits for a
/// lane's task before it reads the lane's results or gives it the next batch.
final class ReplayLane<Fold: ReplayFold> {
    let lane: Int
    let lanes: Int
    /// The live folds, each in a place of its own, reused once the fold is let go: a log has
    /// millions of streams, a few thousand open at once, and a fold is hundreds of bytes.
    private var folds: [Fold?] = []
    /// By place, with the fold, for a fold that cannot say what changed
    /// (``ReplayFold/writeReplayChanges(from:into:)``): its state after the last event (or its
    /// initial state), rendered, which the next state is compared with byte by byte.
    private var previous: [StateFields] = []
    /// Whether `Fold` says what changed, once its first fold is started.
    private var foldWritesChanges: Bool?
    private var probe: SummaryChangesWriter
    private var scratch = SummaryFieldsWriter()
    private var freePlaces: [Int32] = []
    /// Per stream (by entry divided by `lanes`): its fold's place in `folds`; -1 before the
    /// stream's first event, when its name has no fold, and once the fold is let go.
    private var places: [Int32] = []
    /// Per stream: ``ReplayLaneFlags`` bits.
    private var flags: [UInt8] = []
    /// Per stream: its category's index in `keyTable`.
    private var categories: [UInt16] = []
    /// The summary keys of each category (prefix), from its initial state, and the final
    /// state's object keys.
    private var keyTable: [[String]] = []
    private var objectKeys: [StateFields.ObjectKeys] = []
    private var categoryOf: [String: UInt16] = [:]
    private var names: [Int32: String] = [:]
    /// The recorded last position of this lane's streams whose fold is live and whose end is known.
    private var ends: [Int32: Int64] = [:]
    /// The folds held now: a stream's fold is let go at its last event (or its failure).
    private(set) var live = 0
    private let parser = JSONParser()
    /// Two outputs: the run reads one batch's results while the lane fills the next one's.
    let outputs: [ReplayLaneOutput]

    /// What the run takes beyond each state and its changes: the changed fields' values before
    /// (comparing: a stream's state before a version that must wait), the final states
    /// (recording).
    let keepsOldValues: Bool
    let writesFinals: Bool

    init(lane: Int, of lanes: Int, keepsOldValues: Bool = false, writesFinals: Bool = false) {
        precondition(lanes > 0 && (0..<lanes).contains(lane), "a lane of at least one")
        self.lane = lane
        self.lanes = lanes
        self.keepsOldValues = keepsOldValues
        self.writesFinals = writesFinals
        probe = SummaryChangesWriter(writesEveryField: keepsOldValues, keepsOldValues: keepsOldValues)
        outputs = [ReplayLaneOutput(comparing: keepsOldValues), ReplayLaneOutput(comparing: keepsOldValues)]
    }

    func owns(entry: Int32) -> Bool { Int(entry) % lanes == lane }

    /// The state of `entry` (one of this lane's) after the batches folded so far; nil when its
    /// fold is gone (ended, failed) or never began.
    func state(ofEntry entry: Int) -> StateFields? {
        let slot = entry / lanes
        guard slot < places.count, places[slot] >= 0, let fold = folds[Int(places[slot])] else { return nil }
        render(fold, keys: keyTable[Int(categories[slot])])
        return StateFields(bytes: scratch.bytes, ends: scratch.ends)
    }

    /// Folds this lane's events of `batch` into their streams, leaving the results in
    /// `outputs[output]`.
    func fold(_ batch: ReplayBatch, into output: Int) {
        for (entry, name, end) in batch.starts where owns(entry: entry) {
            names[entry] = name
            if end != .max { ends[entry] = end }
            // A recording gives an ended stream's entry to a later one: its slot starts afresh.
            let slot = Int(entry) / lanes
            if slot < flags.count {
                flags[slot] = 0
                letGo(slot)
            }
        }
        let out = outputs[output]
        out.removeAll()
        let types = batch.types
        batch.withEachEvent { event, data in
            guard owns(entry: event.entry) else { return }
            var result = fold(
                event.entry, type: types[Int(event.type)], data: data,
                occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt), into: out)
            if result.kind == .fails || (result.kind == .state && ends[event.entry] == event.position) {
                end(event.entry, result: &result, into: out)
            }
            out.results.append(result)
        }
    }

    /// The stream's last event (its recorded end) or its failure: its state is its last one.
    private func end(_ entry: Int32, result: inout ReplayLaneResult, into out: ReplayLaneOutput) {
        ends.removeValue(forKey: entry)
        let slot = Int(entry) / lanes
        if result.kind == .state {
            result.ended = true
            if writesFinals, places[slot] >= 0, let fold = folds[Int(places[slot])] {
                let start = out.finals.count
                render(fold, keys: keyTable[Int(categories[slot])])
                StateFields(bytes: scratch.bytes, ends: scratch.ends)
                    .writeObject(objectKeys[Int(categories[slot])], into: &out.finals)
                result.final = start..<out.finals.count
            }
        }
        letGo(slot)
    }

    /// Lets the fold of the stream at `slot` go, if it has one.
    private func letGo(_ slot: Int) {
        let place = places[slot]
        guard place >= 0 else { return }
        folds[Int(place)] = nil
        previous[Int(place)].removeAll()
        freePlaces.append(place)
        places[slot] = -1
        live -= 1
    }

    private func fold(
        _ entry: Int32, type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, into out: ReplayLaneOutput
    ) -> ReplayLaneResult {
        let slot = Int(entry) / lanes
        if slot >= places.count {
            let grow = max(slot + 1 - places.count, places.count / 2)
            places.append(contentsOf: repeatElement(-1, count: grow))
            flags.append(contentsOf: repeatElement(0, count: grow))
            categories.append(contentsOf: repeatElement(0, count: grow))
        }
        if flags[slot] & ReplayLaneFlags.failed != 0 { return ReplayLaneResult(kind: .skipped) }
        if flags[slot] & ReplayLaneFlags.started == 0 {
            flags[slot] |= ReplayLaneFlags.started
            guard let name = names.removeValue(forKey: entry) else {
                preconditionFailure("a stream folded before it is named")
            }
            do {
                let fold = try Fold.start(stream: name)
                let prefix = ReplayRecordFormat.prefix(of: name)
                if let known = categoryOf[prefix] {
                    categories[slot] = known
                } else {
                    let keys = fold.replaySummary.keys
                    keyTable.append(keys)
                    objectKeys.append(StateFields.ObjectKeys(keys))
                    categories[slot] = UInt16(truncatingIfNeeded: keyTable.count - 1)
                    categoryOf[prefix] = categories[slot]
                }
                if let place = freePlaces.popLast() {
                    places[slot] = place
                    folds[Int(place)] = fold
                } else {
                    places[slot] = Int32(folds.count)
                    folds.append(fold)
                    previous.append(StateFields())
                }
                live += 1
                if foldWritesChanges == nil {
                    probe.removeAll()
                    foldWritesChanges = fold.writeReplayChanges(from: fold, into: &probe)
                }
                if foldWritesChanges == false {
                    // The initial state, as the run's schema has it: the first state's changes
                    // are from it.
                    render(fold, keys: keyTable[Int(categories[slot])])
                    previous[Int(places[slot])] = StateFields(bytes: scratch.bytes, ends: scratch.ends)
                }
            } catch {
                flags[slot] |= ReplayLaneFlags.failed
                out.reasons.append(error.reason)
                return ReplayLaneResult(kind: .startFails, first: Int32(out.reasons.count - 1))
            }
        }
        let place = Int(places[slot])
        guard place >= 0 else { return ReplayLaneResult(kind: .skipped) }
        let keys = keyTable[Int(categories[slot])]
        var result = ReplayLaneResult(kind: .state)
        let before = foldWritesChanges == true ? folds[place] : nil
        do {
            try folds[place]?.replay(type: type, data: data, occurredAt: occurredAt, parser: parser)
        } catch {
            flags[slot] |= ReplayLaneFlags.failed
            out.reasons.append(error.reason)
            return ReplayLaneResult(kind: .fails, first: Int32(out.reasons.count - 1))
        }
        guard let fold = folds[place] else { return ReplayLaneResult(kind: .skipped) }
        result.ended = fold.replayEnded
        result.first = Int32(out.written.values.ends.count)
        result.changes = Int32(out.written.changed.count)
        if let before {
            writeChanges(fold, from: before, into: out)
        } else {
            writeChanges(fold, keys: keys, place: place, into: out)
        }
        result.changeCount = Int32(out.written.changed.count) - result.changes
        result.fieldCount = Int32(out.written.values.ends.count) - result.first
        return result
    }

    /// Appends to the output what the fold says changed from `before`: the changed fields'
    /// indices and values (with their values before, and every field, when comparing).
    private func writeChanges(_ fold: Fold, from before: Fold, into out: ReplayLaneOutput) {
        let written = fold.writeReplayChanges(from: before, into: &out.written)
        precondition(written, "a fold that says what changed for one state says it for every state")
    }

    /// The same as ``writeChanges(_:from:into:)`` for a fold that cannot say what changed: its
    /// state rendered and compared byte by byte with the one before (kept rendered).
    private func writeChanges(_ fold: Fold, keys: [String], place: Int, into out: ReplayLaneOutput) {
        render(fold, keys: keys)
        let state = StateFields(bytes: scratch.bytes, ends: scratch.ends)
        let before = previous[place]
        for index in 0..<state.count {
            let differs = index >= before.count || !before.sameField(index, asBytes: state[index])
            if differs {
                out.written.changed.append(Int32(index))
                if keepsOldValues {
                    out.written.oldValues.bytes.append(contentsOf: index < before.count ? before[index] : [])
                    out.written.oldValues.ends.append(out.written.oldValues.bytes.count)
                }
            }
            if differs || keepsOldValues {
                out.written.values.bytes.append(contentsOf: state[index])
                out.written.values.ends.append(out.written.values.bytes.count)
            }
        }
        previous[place] = state
    }

    /// Renders the fold's state into `scratch`, field by field.
    private func render(_ fold: Fold, keys: [String]) {
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.ends.removeAll(keepingCapacity: true)
        if !fold.writeReplayFields(into: &scratch) || scratch.ends.count != keys.count {
            // The fold cannot write its fields (or wrote others): from its summary.
            let fields = StateFields(fold.replaySummary, keys: keys)
            scratch.bytes = fields.bytes
            scratch.ends = fields.ends
        }
    }
}

/// A lane's bits per stream.
enum ReplayLaneFlags {
    /// Its first event was folded (its fold started, or its name refused).
    static let started: UInt8 = 1
    /// It does not fold (from some version on).
    static let failed: UInt8 = 2
}

/// What one event gave, in its lane's ``ReplayLaneOutput``.
struct ReplayLaneResult {
    enum Kind: UInt8 {
        /// The stream's name has no fold (its first event): the reason.
        case startFails
        /// The event breaks a rule: the reason.
        case fails
        /// A version after the stream's failure.
        case skipped
        /// The state after the event: its fields.
        case state
    }

    var kind: Kind
    /// The state after the event is ended (``ReplayFold/replayEnded``).
    var ended = false
    /// The state's first field in the output's `fields.ends`, or the reason's index.
    var first: Int32 = -1
    /// The fields written: the changed ones recording, every one comparing.
    var fieldCount: Int32 = 0
    /// The fields the event changed: `changeCount` of the output's `changed` from `changes`
    /// (and as many of its `oldValues`, when kept).
    var changes: Int32 = 0
    var changeCount: Int32 = 0
    /// At the stream's recorded end (recording), its final state's object in the output's `finals`.
    var final: Range<Int>?
}

/// A lane's results for one batch: for each of its events, in order. Filled by the lane's task,
/// read by the run's thread after it.
final class ReplayLaneOutput {
    var results: [ReplayLaneResult] = []
    /// The states' fields (the changed ones, recording), the indices of the fields each state
    /// changed and (comparing) their values before, one state after the other.
    var written: SummaryChangesWriter
    var reasons: [String] = []
    /// The final states written at the streams' recorded ends, one after the other.
    var finals: [UInt8] = []

    init(comparing: Bool) {
        written = SummaryChangesWriter(writesEveryField: comparing, keepsOldValues: comparing)
    }

    func removeAll() {
        results.removeAll(keepingCapacity: true)
        written.removeAll()
        reasons.removeAll(keepingCapacity: true)
        finals.removeAll(keepingCapacity: true)
    }

    /// The state before the result's (version `n - 1` of its stream): its fields with the
    /// changed ones' values before.
    func stateBefore(_ result: ReplayLaneResult) -> StateFields {
        let after = ReplayLaneState(self, result)
        var before = StateFields()
        var next = Int(result.changes)
        let last = next + Int(result.changeCount)
        for index in 0..<after.count {
            if next < last, written.changed[next] == Int32(index) {
                let start = next == 0 ? 0 : written.oldValues.ends[next - 1]
                before.append(written.oldValues.bytes[start..<written.oldValues.ends[next]])
                next += 1
            } else {
                before.append(after[index])
            }
        }
        return before
    }
}

/// A state in a lane's output, read where the lane wrote it: the run compares it, writes it or
/// copies it into what it keeps, without a copy of its own for every event.
struct ReplayLaneState {
    /// The output's buffers (shared, not copied: the lane writes to them only once the run has
    /// taken the batch).
    private let bytes: [UInt8]
    private let ends: [Int]
    private let first: Int
    let count: Int
    /// The indices of the fields that differ from the stream's state before, in order (empty
    /// when not asked for).
    let changed: ArraySlice<Int32>

    /// The state of `result`, with the fields it changed.
    init(_ output: ReplayLaneOutput, _ result: ReplayLaneResult) {
        bytes = output.written.values.bytes
        ends = output.written.values.ends
        first = Int(result.first)
        count = Int(result.fieldCount)
        changed = output.written.changed[Int(result.changes)..<Int(result.changes + result.changeCount)]
    }

    /// The value of the `k`th changed field: recording, the lane writes only those.
    func changedValue(_ k: Int) -> ArraySlice<UInt8> {
        count == changed.count ? self[k] : self[Int(changed[changed.startIndex + k])]
    }

    private func start(_ index: Int) -> Int {
        let at = first + index
        return at == 0 ? 0 : ends[at - 1]
    }

    /// The value of field `index`.
    subscript(index: Int) -> ArraySlice<UInt8> { bytes[start(index)..<ends[first + index]] }

    /// True when field `index` has the same bytes here as field `otherIndex` (by default the
    /// same) in `other`.
    func sameField(_ index: Int, as other: StateFields, at otherIndex: Int? = nil) -> Bool {
        let otherIndex = otherIndex ?? index
        guard otherIndex < other.count else { return false }
        return other.sameField(otherIndex, asBytes: self[index])
    }

    /// Appends the object these fields are the values of, with `keys`, as compact JSON.
    func writeObject(_ keys: StateFields.ObjectKeys, into out: inout [UInt8]) {
        keys.writeObject(count: count, into: &out) { index, out in out.append(contentsOf: self[index]) }
    }

    /// A copy the run keeps.
    func copy() -> StateFields {
        var fields = StateFields()
        fields.assign(self)
        return fields
    }

    /// Calls `body` with the fields' bytes and where each ends, relative to the first's start.
    func withFields(_ body: (ArraySlice<UInt8>, ArraySlice<Int>) -> Void) {
        guard count > 0 else { return body([], []) }
        body(bytes[start(0)..<ends[first + count - 1]], ends[first..<(first + count)])
    }
}
