import EventStore

/// Where projections read the log from: the store, or anything that pages through events in
/// position order.
public protocol ProjectionEventSource {
    /// Up to `limit` events with position ≥ `position`, in position order.
    func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent]
    /// The last committed position (0 when empty).
    func headPosition() throws -> Int64
    /// The store's cheap read path, when it has one: the engine then reads the log through it
    /// instead of `readAll` (no `RecordedEvent` per event). Nil by default.
    var scanner: (any EventScanning)? { get }
}

extension ProjectionEventSource {
    public var scanner: (any EventScanning)? { nil }
}

/// Reads the log of an ``EventStore`` (through its ``EventScanning`` read path when it has one).
public struct StoreEventSource: ProjectionEventSource {
    public let store: any EventStore

    public init(store: any EventStore) { self.store = store }

    public func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent] {
        try store.readAll(from: position, limit: limit)
    }

    public func headPosition() throws -> Int64 { try store.headPosition() }

    public var scanner: (any EventScanning)? { store as? any EventScanning }
}
