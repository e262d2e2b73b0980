/// A page of the log as ``ReplayRun`` hands it to its lanes: each event's stream (the run's
/// entry), type, time and `data` (copied into one arena: the store lends an event's bytes only
/// while it is read), and the names of the streams whose first event is in the page.
///
/// Filled by the run's thread, then lent to the lanes (`HandOver`) while they fold it, then
/// read by the run's thread again (the lanes' results in position order), and only then filled
/// again; the run waits for the lanes between these steps.
final class ReplayBatch {
    struct Event {
        /// The run's entry of the event's stream.
        var entry: Int32
        /// The event's type, an index in `types`.
        var type: Int32
        var occurredAt: Int64
        var position: Int64
        /// Where the event's `data` ends in the arena; it begins where the previous event's ends.
        var dataEnd: Int
    }

    private(set) var events: [Event] = []
    private(set) var arena: [UInt8] = []
    /// The streams whose first event is in this batch: entry, name (a lane starts the stream's
    /// fold from its name) and the position of its last event, when the store records it
    /// (`Int64.max` otherwise).
    var starts: [(entry: Int32, name: String, end: Int64)] = []
    /// Type names by index, as of this batch.
    var types: [String] = []

    var count: Int { events.count }

    func append(entry: Int, type: Int, occurredAt: Int64, position: Int64, data: UnsafeRawBufferPointer) {
        arena.append(contentsOf: data)
        events.append(
            Event(
                entry: Int32(entry), type: Int32(type), occurredAt: occurredAt, position: position,
                dataEnd: arena.count))
    }

    /// Empties the batch for the next page, keeping its buffers.
    func removeAll() {
        events.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each event and its `data` (valid only inside the call), in order.
    func withEachEvent(_ body: (Event, UnsafeRawBufferPointer) -> Void) {
        arena.withUnsafeBytes { arena in
            var start = 0
            for event in events {
                body(event, UnsafeRawBufferPointer(rebasing: arena[start..<event.dataEnd]))
                start = event.dataEnd
            }
        }
    }
}
