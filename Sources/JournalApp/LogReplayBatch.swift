import EventStore

/// One page of the log as ``LogReplay`` scanned it, copied out of the store's buffers (which are
/// lent only for the scan's callback) so that another thread can fold it while the next page is
/// scanned: the fields the fold reads, with every event's `data` in one byte arena (an array per
/// event would be an allocation per event), and the names the fold side has not been given yet.
///
/// A batch is filled by the scanning thread, then lent (`HandOver`) to the fold tasks, which
/// only read it, and filled again only after they have been waited for; two batches take turns,
/// so their buffers are reused.
package final class LogReplayBatch {
    package struct Event {
        var position: Int64
        var streamID: Int64
        var typeID: Int64
        var occurredAt: Int64
        /// Where the event's `data` ends in the arena; it begins where the previous event's ends.
        var dataEnd: Int
    }

    private(set) var events: [Event] = []
    private(set) var arena: [UInt8] = []
    /// Stream and type names read while this batch was scanned, each handed over once: an event
    /// is added only after its names are read, so they reach the fold side in its batch or before.
    var streamNames: [(id: Int64, name: String)] = []
    var typeNames: [(id: Int64, name: String)] = []

    var count: Int { events.count }
    var lastPosition: Int64? { events.last?.position }

    func append(_ event: ScannedEvent) {
        arena.append(contentsOf: event.data)
        events.append(
            Event(
                position: event.position, streamID: event.streamID, typeID: event.typeID,
                occurredAt: event.occurredAt, dataEnd: arena.count))
    }

    /// Empties the batch for the next page, keeping its buffers.
    func removeAll() {
        events.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        streamNames.removeAll(keepingCapacity: true)
        typeNames.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each event and its `data` (valid only inside the call), in scan order.
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
