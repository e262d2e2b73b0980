import Domain
import JournalCore

/// The fold side of a ``ReplayRun``: the folds of the streams of one lane (the run's entries
/// equal to `lane` modulo `lanes`), fed a ``ReplayBatch`` at a time. Streams are independent, so
/// the lanes fold the same batch at once, each its own streams' events, and leave for each one
/// what the run needs, in the batch's order: the state after it field by field (rendered here,
/// the larger share of the work) with the fields in which it differs from the stream's state
/// before it, or its failure. The run then takes the lanes' results in position order on its own
/// thread, to write or compare the record: it reads the changes, not every field, and keeps no
/// copy of each state (the lane keeps the last one, for the next event's changes).
///
/// Its state is used by its worker thread alone (the lane is handed over with `HandOver`), page
/// after page; each page's results go to an output of their own, which the run reads once it
/// has waited for that page, while the lane goes on with the next ones.
final class ReplayLane<Fold: ReplayFold> {
    let lane: Int
    let lanes: Int
    /// Comparing: each state whole, and each change with its field's value before (a version
    /// compared the slow way needs both). Recording: the changes alone, and each stream's final
    /// state as an object at its recorded end.
    let full: Bool
    // Used by one thread at a time (its worker, or the run's thread when the worker is idle), one
    // access at a time: no run-time exclusivity checks on the per-event state. They pay: `--record` 22.45
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
    /// Each category's initial state as the run takes it (`StateFields` of the summary): what a
    /// stream's first state is compared with, as the record's initial entry holds it.
    @exclusivity(unchecked) private var initialTable: [StateFields] = []
    /// Each category's keys as its final states' objects write them.
    @exclusivity(unchecked) private var objectKeys: [StateFields.ObjectKeys] = []
    /// Per place in `folds`: the state after the fold's last event (its initial one before its
    /// first), field by field; the state after the event being folded is written in `scratch`,
    /// compared, and takes the place of the last one (the two swap their storage).
    @exclusivity(unchecked) private var lasts: [SummaryFieldsWriter] = []
    @exclusivity(unchecked) private var scratch = SummaryFieldsWriter()
    @exclusivity(unchecked) private var categoryOf: [String: UInt16] = [:]
    @exclusivity(unchecked) private var names: [Int32: String] = [:]
    /// Per stream: the recorded position of its last event while its fold is live (`Int64.max`
    /// when not known).
    @exclusivity(unchecked) private var ends: [Int64] = []
    /// The folds held now: a stream's fold is let go at its last event (or its failure).
    @exclusivity(unchecked) private(set) var live = 0
    private let parser = JSONParser()
    /// An output per page of the run (``ReplayRun/pagesAhead`` and the one being filled): the
    /// run reads one page's results while the lane fills the next ones'.
    let outputs = (0...ReplayRun<Fold>.pagesAhead).map { _ in ReplayLaneOutput() }

    init(lane: Int, of lanes: Int, full: Bool) {
        precondition(lanes > 0 && (0..<lanes).contains(lane), "a lane of at least one")
        self.lane = lane
        self.lanes = lanes
        self.full = full
    }

    func owns(entry: Int32) -> Bool { Int(entry) % lanes == lane }

    /// The state of `entry` (one of this lane's) after the batches folded so far (its last, which
    /// the lane keeps); nil when its fold is gone (ended, failed) or never began.
    func state(ofEntry entry: Int) -> StateFields? {
        let slot = entry / lanes
        guard slot < places.count, places[slot] >= 0, folds[Int(places[slot])] != nil else { return nil }
        let last = lasts[Int(places[slot])]
        return StateFields(bytes: last.bytes, ends: last.ends)
    }

    /// Folds this lane's events of `batch` into their streams, leaving the results in
    /// `outputs[output]`.
    func fold(_ batch: ReplayBatch, into output: Int) {
        for (entry, name, end) in batch.starts where owns(entry: entry) {
            names[entry] = name
            // A recording gives an ended stream's entry to a later one: its slot starts afresh.
            let slot = Int(entry) / lanes
            grow(to: slot)
            flags[slot] = 0
            letGo(slot)
            ends[slot] = end
        }
        let out = outputs[output]
        out.removeAll()
        let types = batch.types
        batch.withEachEvent { event, data in
            guard owns(entry: event.entry) else { return }
            var result = fold(
                event.entry, type: types[Int(event.type)], data: data,
                occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt), into: out)
            let slot = Int(event.entry) / lanes
            if result.kind == .state && ends[slot] == event.position {
                if !full { writeFinal(ofPlace: Int(places[slot]), category: Int(categories[slot]), into: out, &result) }
                end(event.entry, result: &result)
            } else if result.kind == .fails {
                end(event.entry, result: &result)
            }
            out.results.append(result)
        }
        out.liveFolds = live
    }

    /// The stream's last event (its recorded end) or its failure: its state is its last one.
    private func end(_ entry: Int32, result: inout ReplayLaneResult) {
        ends[Int(entry) / lanes] = .max
        if result.kind == .state { result.ended = true }
        letGo(Int(entry) / lanes)
    }

    /// Makes room for the stream at `slot` in the per-stream arrays.
    private func grow(to slot: Int) {
        guard slot >= places.count else { return }
        let grow = max(slot + 1 - places.count, places.count / 2)
        places.append(contentsOf: repeatElement(-1, count: grow))
        flags.append(contentsOf: repeatElement(0, count: grow))
        categories.append(contentsOf: repeatElement(0, count: grow))
        ends.append(contentsOf: repeatElement(.max, count: grow))
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
        grow(to: slot)
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
                    let summary = fold.replaySummary
                    keyTable.append(summary.keys)
                    initialTable.append(StateFields(summary, keys: summary.keys))
                    objectKeys.append(StateFields.ObjectKeys(summary.keys))
                    categories[slot] = UInt16(truncatingIfNeeded: keyTable.count - 1)
                    categoryOf[prefix] = categories[slot]
                }
                let initial = initialTable[Int(categories[slot])]
                if let place = freePlaces.popLast() {
                    places[slot] = place
                    folds[Int(place)] = fold
                } else {
                    places[slot] = Int32(folds.count)
                    folds.append(fold)
                    lasts.append(SummaryFieldsWriter())
                }
                lasts[Int(places[slot])].assign(initial)
                live += 1
            } catch {
                flags[slot] |= ReplayLaneFlags.failed
                out.reasons.append(error.reason)
                return ReplayLaneResult(kind: .startFails, first: Int32(out.reasons.count - 1))
            }
        }
        let place = Int(places[slot])
        guard place >= 0, folds[place] != nil else { return ReplayLaneResult(kind: .skipped) }
        var result = ReplayLaneResult(kind: .state)
        do {
            try folds[place]!.replay(type: type, data: data, occurredAt: occurredAt, parser: parser)
        } catch {
            flags[slot] |= ReplayLaneFlags.failed
            out.reasons.append(error.reason)
            return ReplayLaneResult(kind: .fails, first: Int32(out.reasons.count - 1))
        }
        result.ended = folds[place]!.replayEnded
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.ends.removeAll(keepingCapacity: true)
        render(place, category: Int(categories[slot]), into: &scratch)
        result.fieldCount = Int32(scratch.ends.count)
        result.changes = Int32(out.changed.count)
        ReplayLaneChanges.add(scratch, since: lasts[place], to: out, withOld: full)
        result.changeCount = Int32(out.changed.count) - result.changes
        if full { result.first = out.appendState(scratch) }
        swap(&scratch, &lasts[place])
        return result
    }

    /// Writes the state of the fold at `place` field by field into `fields` (empty), read where
    /// the fold is (a fold holds references: a copy of it for every event would retain and
    /// release each).
    private func render(_ place: Int, category: Int, into fields: inout SummaryFieldsWriter) {
        if !folds[place]!.writeReplayFields(into: &fields) || fields.ends.count != keyTable[category].count {
            // The fold cannot write its fields (or wrote others): from its summary.
            fields.assign(StateFields(folds[place]!.replaySummary, keys: keyTable[category]))
        }
    }

    /// Writes the final state of the stream whose fold is at `place` (its last) as an object,
    /// for the run's final outcomes.
    private func writeFinal(
        ofPlace place: Int, category: Int, into out: ReplayLaneOutput, _ result: inout ReplayLaneResult
    ) {
        result.finalStart = Int32(out.finals.count)
        let last = lasts[place]
        objectKeys[category].writeObject(count: last.ends.count, into: &out.finals) { index, bytes in
            bytes.append(contentsOf: last.value(index))
        }
        result.finalEnd = Int32(out.finals.count)
    }
}

/// A lane's bits per stream.
enum ReplayLaneFlags {
    /// Its first event was folded (its fold started, or its name refused).
    static let started: UInt8 = 1
    /// It does not fold (from some version on).
    static let failed: UInt8 = 2
}
