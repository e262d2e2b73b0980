import EventStore

/// A store as one of an older schema reads: its events and names, no recorded stream ends
/// (``EventScanning/streamEnds(fromID:limit:)`` gives none), so a replay holds every fold.
public final class NoStreamEnds: EventScanning {
    let store: any EventScanning
    public init(_ store: any EventScanning) { self.store = store }

    public func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError)
        -> Int
    {
        try store.scanAll(from: position, limit: limit, body)
    }

    public func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)] {
        try store.streamNames(fromID: fromID, limit: limit)
    }

    public func streamName(id: Int64) throws(EventStoreError) -> String { try store.streamName(id: id) }
    public func typeName(id: Int64) throws(EventStoreError) -> String { try store.typeName(id: id) }
}
