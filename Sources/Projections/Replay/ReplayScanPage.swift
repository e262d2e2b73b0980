/// A page of the log as ``ReplayLogScan``'s reading thread hands it to the thread that feeds
/// the run: each event's stream and type ids, position, time and `data` (copied into one arena:
/// the store lends an event's bytes only while it is read), and, at the first event of each
/// stream in the scan, its name and recorded last position.
///
/// Filled by the reading thread while the feeding thread feeds a page before it; a page is
/// handed over (`HandOver`) to one thread at a time, the feeding thread waiting for its reading,
/// and ``ReplayLogScan/pagesAhead`` + 1 pages are reused in turn.
final class ReplayScanPage {
    struct Event {
        var streamID: Int64
        var typeID: Int64
        var position: Int64
        var occurredAt: Int64
        /// Where the event's `data` ends in the arena; it begins where the previous event's ends.
        var dataEnd: Int
        /// Its stream's name and recorded end in `starts`, at the stream's first event; -1 otherwise.
        var start: Int32
    }

    // Used by one thread at a time (handed over), one access at a time: no run-time
    // exclusivity checks on what each event appends (docs/benchmarks-history.md,
    // "Exclusivity checks").
    @exclusivity(unchecked) private(set) var events: [Event] = []
    @exclusivity(unchecked) private(set) var arena: [UInt8] = []
    /// The names (and recorded last positions, when the store records them) of the streams
    /// whose first event is in this page.
    @exclusivity(unchecked) private(set) var starts: [(name: String, end: Int64?)] = []
    /// Type names by id (below 2^16), and every type name by id, as of this page.
    @exclusivity(unchecked) var typeNames: [String?] = []
    @exclusivity(unchecked) var types: [Int64: String] = [:]
    /// The reading's error, after the page's events (they are fed first).
    @exclusivity(unchecked) var failure: (any Error)?
    /// The position to read from next; nil once the log (or the position asked for) is reached.
    @exclusivity(unchecked) var next: Int64?

    var count: Int { events.count }

    func append(_ event: ScannedEventFields, data: UnsafeRawBufferPointer, start: (name: String, end: Int64?)?) {
        arena.append(contentsOf: data)
        var index: Int32 = -1
        if let start {
            index = Int32(starts.count)
            starts.append(start)
        }
        events.append(
            Event(
                streamID: event.streamID, typeID: event.typeID, position: event.position,
                occurredAt: event.occurredAt, dataEnd: arena.count, start: index))
    }

    func removeAll() {
        events.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        failure = nil
        next = nil
    }

    /// Calls `body` with each event and its `data` (valid only inside the call), in order, until
    /// it returns false.
    func withEachEvent(_ body: (Event, UnsafeRawBufferPointer) throws -> Bool) rethrows {
        try arena.withUnsafeBytes { arena in
            var start = 0
            for event in events {
                guard try body(event, UnsafeRawBufferPointer(rebasing: arena[start..<event.dataEnd])) else { return }
                start = event.dataEnd
            }
        }
    }
}

/// What a page keeps of a scanned event besides its `data`.
struct ScannedEventFields {
    var streamID: Int64
    var typeID: Int64
    var position: Int64
    var occurredAt: Int64
}
