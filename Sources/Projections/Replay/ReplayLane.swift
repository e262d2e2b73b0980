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
    // Used by one thread at a time (its task, or the run's thread between tasks), one access at
    // a time: no run-time exclusivity checks on the per-event state. They pay: `--record` 22.45
    // → 21.22 s CPU, `--against` 23.53 → 21.03 s over 5 alternating runs of 1 M events
    // (docs/benchmarks-history.md, "Exclusivity checks").
    /// The live folds, each in a place of its own, reused once the fold is let go: a log has
    /// millions of streams, a few thousand open at once, and a fold is hundreds of bytes.
    @exclusivity(unchecked) private var folds: [Fold?] = []
    @exclusivity(unchecked) private var freePlaces: [Int32] = []
    /// Per stream (by entry divided by `lanes`): its fold's place in `folds`; -1 before the
    /// stream's first event, when its name has no fold, and once the fold is let go.
    @exclusivity(unchecked) private var places: [Int32] = []
    /// Per stream: ``ReplayLaneFlags`` bits.
    @exclusivity(unchecked) private var flags: [UInt8] = []
    /// Per stream: its category's index in `keyTable`.
    @exclusivity(unchecked) private var categories: [UInt16] = []
    /// The summary keys of each category (prefix), from its initial state.
    @exclusivity(unchecked) private var keyTable: [[String]] = []
    @exclusivity(unchecked) private var categoryOf: [String: UInt16] = [:]
    @exclusivity(unchecked) private var names: [Int32: String] = [:]
    /// The recorded last position of this lane's streams whose fold is live and whose end is known.
    @exclusivity(unchecked) private var ends: [Int32: Int64] = [:]
    /// The folds held now: a stream's fold is let go at its last event (or its failure).
    @exclusivity(unchecked) private(set) var live = 0
    private let parser = JSONParser()
    /// Two outputs: the run reads one batch's results while the lane fills the next one's.
    let outputs = [ReplayLaneOutput(), ReplayLaneOutput()]

    init(lane: Int, of lanes: Int) {
        precondition(lanes > 0 && (0..<lanes).contains(lane), "a lane of at least one")
        self.lane = lane
        self.lanes = lanes
    }

    func owns(entry: Int32) -> Bool { Int(entry) % lanes == lane }

    /// The state of `entry` (one of this lane's) after the batches folded so far; nil when its
    /// fold is gone (ended, failed) or never began.
    func state(ofEntry entry: Int) -> StateFields? {
        let slot = entry / lanes
        guard slot < places.count, places[slot] >= 0, folds[Int(places[slot])] != nil else { return nil }
        let out = ReplayLaneOutput()
        return out.state(at: write(Int(places[slot]), category: Int(categories[slot]), into: out))
    }

    /// Folds this lane's events of `batch` into their streams, leaving the results in
    /// `outputs[output]`.
    func fold(_ batch: ReplayBatch, into output: Int) {
        ThreadPriority.lowerCurrent(env: "JR_NICE")
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
                end(event.entry, result: &result)
            }
            out.results.append(result)
        }
    }

    /// The stream's last event (its recorded end) or its failure: its state is its last one.
    private func end(_ entry: Int32, result: inout ReplayLaneResult) {
        ends.removeValue(forKey: entry)
        if result.kind == .state { result.ended = true }
        letGo(Int(entry) / lanes)
    }

    /// Lets the fold of the stream at `slot` go, if it has one.
    private func letGo(_ slot: Int) {
        let place = places[slot]
        guard place >= 0 else { return }
        folds[Int(place)] = nil
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
                    keyTable.append(fold.replaySummary.keys)
                    categories[slot] = UInt16(truncatingIfNeeded: keyTable.count - 1)
                    categoryOf[prefix] = categories[slot]
                }
                if let place = freePlaces.popLast() {
                    places[slot] = place
                    folds[Int(place)] = fold
                } else {
                    places[slot] = Int32(folds.count)
                    folds.append(fold)
                }
                live += 1
            } catch {
                flags[slot] |= ReplayLaneFlags.failed
                out.reasons.append(error.reason)
                return ReplayLaneResult(kind: .startFails, first: Int32(out.reasons.count - 1))
            }
        }
        let place = Int(places[slot])
        guard place >= 0, folds[place] != nil else { return ReplayLaneResult(kind: .skipped) }
        let category = Int(categories[slot])
        var result = ReplayLaneResult(kind: .state)
        if flags[slot] & ReplayLaneFlags.ended != 0 {
            result.before = write(place, category: category, into: out)
        }
        do {
            try folds[place]!.replay(type: type, data: data, occurredAt: occurredAt, parser: parser)
        } catch {
            flags[slot] |= ReplayLaneFlags.failed
            out.reasons.append(error.reason)
            return ReplayLaneResult(kind: .fails, first: Int32(out.reasons.count - 1))
        }
        result.ended = folds[place]!.replayEnded
        if result.ended { flags[slot] |= ReplayLaneFlags.ended } else { flags[slot] &= ~ReplayLaneFlags.ended }
        result.first = write(place, category: category, into: out)
        return result
    }

    /// Writes the state of the fold at `place` field by field, read where it is (a fold is
    /// hundreds of bytes, with references: a copy for every event costs); returns its first
    /// field's index.
    private func write(_ place: Int, category: Int, into out: ReplayLaneOutput) -> Int32 {
        let first = out.fields.ends.count
        if !folds[place]!.writeReplayFields(into: &out.fields) || out.fields.ends.count - first != keyTable[category].count
        {
            // The fold cannot write its fields (or wrote others): from its summary.
            let start = first == 0 ? 0 : out.fields.ends[first - 1]
            out.fields.bytes.removeSubrange(start...)
            out.fields.ends.removeSubrange(first...)
            let fields = StateFields(folds[place]!.replaySummary, keys: keyTable[category])
            for index in 0..<fields.count {
                out.fields.bytes.append(contentsOf: fields[index])
                out.fields.ends.append(out.fields.bytes.count)
            }
        }
        out.counts.append(contentsOf: repeatElement(0, count: out.fields.ends.count - out.counts.count))
        out.counts[first] = Int32(out.fields.ends.count - first)
        return Int32(first)
    }
}

/// A lane's bits per stream.
enum ReplayLaneFlags {
    /// Its first event was folded (its fold started, or its name refused).
    static let started: UInt8 = 1
    /// It does not fold (from some version on).
    static let failed: UInt8 = 2
    /// Its state after the last event is ended (``ReplayFold/replayEnded``).
    static let ended: UInt8 = 4
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
    /// The state before the event (its first field), when the one before it had ended: the run
    /// dropped its copy then and may need it again; -1 otherwise.
    var before: Int32 = -1
}

/// A lane's results for one batch: for each of its events, in order. Filled by the lane's task,
/// read by the run's thread after it.
final class ReplayLaneOutput {
    // Filled by its lane's task, then read by the run's thread, one access at a time: unchecked
    // as the lane's state is (measured with it).
    @exclusivity(unchecked) var results: [ReplayLaneResult] = []
    @exclusivity(unchecked) var fields = SummaryFieldsWriter()
    @exclusivity(unchecked) var reasons: [String] = []
    /// At each state's first field: its number of fields.
    @exclusivity(unchecked) var counts: [Int32] = []

    func removeAll() {
        results.removeAll(keepingCapacity: true)
        fields.bytes.removeAll(keepingCapacity: true)
        fields.ends.removeAll(keepingCapacity: true)
        reasons.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
    }

    /// The fields that begin at `first`: a copy the run keeps.
    func state(at first: Int32) -> StateFields {
        let first = Int(first)
        let count = Int(counts[first])
        let start = first == 0 ? 0 : fields.ends[first - 1]
        let end = fields.ends[first + count - 1]
        var ends = [Int]()
        ends.reserveCapacity(count)
        for index in first..<(first + count) { ends.append(fields.ends[index] - start) }
        return StateFields(bytes: Array(fields.bytes[start..<end]), ends: ends)
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

    init(_ output: ReplayLaneOutput, at first: Int32) {
        bytes = output.fields.bytes
        ends = output.fields.ends
        self.first = Int(first)
        count = Int(output.counts[Int(first)])
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

    /// Calls `body` with the fields in place (``FieldsView``).
    func withView<Result>(_ body: (FieldsView) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in body(FieldsView(bytes: bytes, ends: ends, first: first, count: count)) }
        }
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
