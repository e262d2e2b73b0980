import JournalCore
import Projections

/// The fold side of ``LogReplay``: the folds of the open streams of one lane (the stream ids
/// equal to `lane` modulo `lanes`), fed one scanned ``ReplayBatch`` at a time. Streams are
/// independent, so the lanes fold the same batch at once, each skipping the others' events. It
/// never calls the store; the names it needs come with the batches.
///
/// A stream's fold lives from its first event to its last one as the store records it (its
/// end, given with its name), or to its failure: then its final outcome (its failure, else its
/// final state as compact JSON) goes to ``finished`` and its fold's place is reused by a later
/// stream. What is held is then the folds of the streams open across the scan's position, not
/// the log's, and a few bytes a stream id. A stream whose end is not known (a store that
/// records none, or an end beyond the scan) keeps its fold to the end of the run
/// (``forEachOpen(_:)``).
///
/// Used by one thread at a time: each batch's fold runs in a `BackgroundTask` (the fold handed
/// over with `HandOver`) that is waited for before the next one starts, and before the scanning
/// thread reads what it left.
package final class LogReplayFold {
    /// A stream being folded.
    struct Open {
        var fold: StreamFold
        let name: String
        /// The position of its last event as the store records it (`Int64.max`: not known).
        let end: Int64
        /// The events folded so far: also the version of the next one.
        var events = 0
    }

    /// The outcomes of the streams that ended (or failed) in the batches folded since the last
    /// time the scanning thread took them: the states' bytes in one arena.
    struct Finished {
        var outcomes: [(name: String, events: Int, failure: StreamReplay.Failure?, state: Range<Int>)] = []
        var bytes: [UInt8] = []

        mutating func removeAll() {
            outcomes.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    let lane: Int64
    let lanes: Int64
    /// The open streams' folds, each in a place of its own, reused once the stream is over.
    private var open: [Open?] = []
    /// Each place's stream's end, read for every event (beside `open`, so that it is not read
    /// through the optional stream).
    private var ends: [Int64] = []
    private var freePlaces: [Int32] = []
    /// Per stream id divided by `lanes`: its fold's place in `open`, or one of the marks below.
    /// Ids are dense from 1 (a stream gets the next id when it is created): an array.
    private var places: [Int32] = []
    /// No event of the stream yet.
    private static let notStarted: Int32 = -1
    /// The stream failed (its later events are skipped) or its name has no fold.
    private static let failed: Int32 = -2
    /// The stream's last event (its recorded end) was folded.
    private static let ended: Int32 = -3
    /// Names (and ends) handed over ahead of their streams' first events.
    private var names: [Int64: (name: String, end: Int64)] = [:]
    private var types: [String] = []
    private let parser = JSONParser()
    /// The folds held now.
    private(set) var live = 0
    /// The names held ahead of their streams' first events.
    var heldNames: Int { names.count }
    var finished = Finished()
    /// The first event found after its stream's recorded end (the store's record of the stream
    /// does not hold): the run stops there.
    private(set) var eventAfterEnd: (position: Int64, streamID: Int64)?

    init(lane: Int, of lanes: Int) {
        precondition(lanes > 0 && (0..<lanes).contains(lane), "a lane of at least one")
        self.lane = Int64(lane)
        self.lanes = Int64(lanes)
    }

    /// Whether the stream `id` (one of this lane's) had an event.
    func hasStarted(_ id: Int64) -> Bool {
        let slot = Int(id / lanes)
        return slot < places.count && places[slot] != Self.notStarted
    }

    /// Folds the batch's events of this lane's streams into them, in position order.
    func fold(_ batch: ReplayBatch) {
        for (entry, name, end) in batch.starts where Int64(entry) % lanes == lane {
            names[Int64(entry)] = (name, end)
        }
        types = batch.types
        batch.withEachEvent { event, data in
            guard Int64(event.entry) % lanes == lane, eventAfterEnd == nil else { return }
            fold(event, data: data)
        }
    }

    /// Calls `body` with each stream still open (its end not reached): its name, events and fold.
    func forEachOpen(_ body: (_ name: String, _ events: Int, _ fold: StreamFold) throws -> Void) rethrows {
        for case let stream? in open { try body(stream.name, stream.events, stream.fold) }
    }

    /// The scanning side checks that the stream id is in range before it adds the event.
    private func fold(_ event: ReplayBatch.Event, data bytes: UnsafeRawBufferPointer) {
        let slot = Int(Int64(event.entry) / lanes)
        if slot >= places.count {
            places.append(
                contentsOf: repeatElement(Self.notStarted, count: max(slot + 1 - places.count, places.count / 2)))
        }
        var place = places[slot]
        if place == Self.notStarted {
            place = start(Int64(event.entry), slot: slot)
            guard place >= 0 else { return }
        }
        guard place >= 0 else {
            if place == Self.ended { eventAfterEnd = (event.position, Int64(event.entry)) }
            return
        }
        let index = Int(place)
        do {
            try open[index]!.fold.apply(
                type: types[Int(event.type)], dataBytes: bytes,
                occurredAt: Timestamp(millisecondsSinceEpoch: event.occurredAt), parser: parser)
        } catch {
            let stream = open[index]!
            finish(
                stream.name, events: stream.events,
                failure: StreamReplay.Failure(
                    version: Int64(stream.events), position: event.position, reason: error.reason))
            letGo(index, slot: slot, as: Self.failed)
            return
        }
        open[index]!.events += 1
        if event.position == ends[index] {
            let stream = open[index]!
            finish(stream.name, events: stream.events, fold: stream.fold)
            letGo(index, slot: slot, as: Self.ended)
        }
    }

    /// Starts the fold of the stream `id` at its first event; returns its place, or `failed`
    /// when its name has no fold (its outcome is then finished).
    private func start(_ id: Int64, slot: Int) -> Int32 {
        // The name is needed to start the stream's fold (its category) and for its outcome.
        guard let (name, end) = names.removeValue(forKey: id) else {
            preconditionFailure("a stream folded before it is named")
        }
        let fold: StreamFold
        do {
            fold = try StreamFold(stream: name)
        } catch {
            finish(name, events: 0, failure: StreamReplay.Failure(version: 0, position: 0, reason: error.reason))
            places[slot] = Self.failed
            return Self.failed
        }
        let stream = Open(fold: fold, name: name, end: end)
        let place: Int32
        if let free = freePlaces.popLast() {
            place = free
            open[Int(place)] = stream
            ends[Int(place)] = end
        } else {
            place = Int32(open.count)
            open.append(stream)
            ends.append(end)
        }
        places[slot] = place
        live += 1
        return place
    }

    private func letGo(_ index: Int, slot: Int, as mark: Int32) {
        open[index] = nil
        freePlaces.append(Int32(index))
        places[slot] = mark
        live -= 1
    }

    private func finish(_ name: String, events: Int, failure: StreamReplay.Failure? = nil, fold: StreamFold? = nil) {
        let start = finished.bytes.count
        if failure == nil { StreamReplay.Outcome(fold: fold, events: events).writeSummary(into: &finished.bytes) }
        finished.outcomes.append((name, events, failure, start..<finished.bytes.count))
    }
}
