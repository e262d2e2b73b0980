import EventStore

/// Where projections read the log from: the store, or anything that pages through events in
/// position order.
public protocol ProjectionEventSource {
    /// Up to `limit` events with position ≥ `position`, in position order.
    func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent]
    /// The last committed position (0 when empty).
    func headPosition() throws -> Int64
}

/// Reads the log of an ``EventStore``.
public struct StoreEventSource: ProjectionEventSource {
    public let store: any EventStore

    public init(store: any EventStore) { self.store = store }

    public func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent] {
        try store.readAll(from: position, limit: limit)
    }

    public func headPosition() throws -> Int64 { try store.headPosition() }
}
