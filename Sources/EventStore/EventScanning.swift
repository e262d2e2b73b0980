/// One stored event lent to the body of ``EventScanning/scanAll(from:limit:_:)``: the cheap read
/// path for consumers that fold the whole log (projections). Nothing is copied or allocated per
/// event; `data` points into the store's buffers and is valid **only during the call**.
public struct ScannedEvent {
    public let position: Int64
    /// The store's id of the stream: stable for the journal's life (``EventScanning/streamNames(fromID:limit:)``
    /// and ``EventScanning/streamName(id:)`` give its name).
    public let streamID: Int64
    /// The store's id of the event type (``EventScanning/typeName(id:)`` gives its name).
    public let typeID: Int64
    /// occurredAt, in milliseconds since the epoch.
    public let occurredAt: Int64
    /// The `data` JSON object as stored (compact UTF-8 text), valid only inside the body.
    public let data: UnsafeRawBufferPointer
    /// The `meta` JSON object as stored, nil when the event has none; valid only inside the body.
    public let meta: UnsafeRawBufferPointer?

    public init(
        position: Int64, streamID: Int64, typeID: Int64, occurredAt: Int64, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer? = nil
    ) {
        self.position = position
        self.streamID = streamID
        self.typeID = typeID
        self.occurredAt = occurredAt
        self.data = data
        self.meta = meta
    }
}

/// A store that can lend its log to a fold without building a ``RecordedEvent`` per event.
/// Streams and event types come as the store's integer ids; their names are looked up once
/// per id by the consumer (in bulk for streams, whose ids grow as streams are created).
public protocol EventScanning: AnyObject {
    /// Calls `body` for up to `limit` events with position ≥ `position`, in position order,
    /// until it returns false. Returns the number of events handed to `body`.
    @discardableResult
    func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError) -> Int
    /// Up to `limit` streams with id ≥ `fromID`, in id order.
    func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)]
    /// The name of one stream id.
    func streamName(id: Int64) throws(EventStoreError) -> String
    /// The name of an event type id.
    func typeName(id: Int64) throws(EventStoreError) -> String
}
