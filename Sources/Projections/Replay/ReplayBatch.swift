/// A page of the log as a replay's reading thread hands it to its fold lanes (``ReplayRun``'s
/// ``ReplayLane``s, `replay --all`'s `LogReplayFold`s): each event's stream (its entry in the
/// replay: the run's entry, or the store's stream id), type, time and `data` (copied into one
/// arena: the store lends an event's bytes only while it is read, and an array per event would
/// be an allocation per event), and the names the lanes are given with it.
///
/// Filled by the reading thread, then lent to the lanes (`HandOver`) while they fold it (they
/// only read it), then, for a run, read by the reading thread again (the lanes' results in
/// position order), and only then filled again; the reading thread waits for the lanes between
/// these steps. A few batches take turns (two for `replay --all`, ``ReplayRun/pagesAhead`` + 1
/// for a run), so their buffers are reused.
package final class ReplayBatch {
    package struct Event {
        /// The replay's entry of the event's stream.
        package var entry: Int32
        /// The event's type, an index in `types`.
        package var type: Int32
        package var occurredAt: Int64
        package var position: Int64
        /// Where the event's `data` ends in the arena; it begins where the previous event's ends.
        package var dataEnd: Int
    }

    // Used by one thread at a time (lent to the lanes, which only read it), one access at a
    // time: no run-time exclusivity checks on what each event appends (docs/benchmarks-history.md,
    // "Exclusivity checks").
    @exclusivity(unchecked) package private(set) var events: [Event] = []
    @exclusivity(unchecked) private(set) var arena: [UInt8] = []
    /// Streams named with this batch: entry, name (a lane starts the stream's fold from its
    /// name) and the position of its last event, when the store records it (`Int64.max`
    /// otherwise). A run names a stream with the batch of its first event; `replay --all` with
    /// the batch being scanned when the names were read, before the stream's first event.
    @exclusivity(unchecked) package var starts: [(entry: Int32, name: String, end: Int64)] = []
    /// Type names by index, as of this batch.
    @exclusivity(unchecked) package var types: [String] = []

    package init() {}

    package var count: Int { events.count }
    package var lastPosition: Int64? { events.last?.position }

    package func append(entry: Int, type: Int, occurredAt: Int64, position: Int64, data: UnsafeRawBufferPointer) {
        arena.append(contentsOf: data)
        events.append(
            Event(
                entry: Int32(entry), type: Int32(type), occurredAt: occurredAt, position: position,
                dataEnd: arena.count))
    }

    /// Empties the batch for the next page, keeping its buffers.
    package func removeAll() {
        events.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each event and its `data` (valid only inside the call), in order.
    package func withEachEvent(_ body: (Event, UnsafeRawBufferPointer) -> Void) {
        arena.withUnsafeBytes { arena in
            var start = 0
            for event in events {
                body(event, UnsafeRawBufferPointer(rebasing: arena[start..<event.dataEnd]))
                start = event.dataEnd
            }
        }
    }
}
