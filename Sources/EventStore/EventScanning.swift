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
    /// The event's version in its stream.
    public let version: Int64
    /// recordedAt, in milliseconds since the epoch.
    public let recordedAt: Int64
    /// The event id as stored: a lowercase canonical UUID packed into 16 bytes when
    /// `idIsPacked`, else its UTF-8 text (``withIDText(_:)`` gives the text either way); valid
    /// only inside the body.
    public let storedID: UnsafeRawBufferPointer
    public let idIsPacked: Bool
    /// The event's stored chain hash (32 bytes); valid only inside the body.
    public let hash: UnsafeRawBufferPointer

    public init(
        position: Int64, streamID: Int64, typeID: Int64, occurredAt: Int64, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer? = nil, version: Int64 = 0, recordedAt: Int64 = 0,
        storedID: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), idIsPacked: Bool = false,
        hash: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) {
        self.position = position
        self.streamID = streamID
        self.typeID = typeID
        self.occurredAt = occurredAt
        self.data = data
        self.meta = meta
        self.version = version
        self.recordedAt = recordedAt
        self.storedID = storedID
        self.idIsPacked = idIsPacked
        self.hash = hash
    }

    /// Lends the id's UTF-8 text: a packed UUID written out in lowercase, any other id as stored.
    public func withIDText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard idIsPacked, storedID.count == 16 else { return body(storedID.bindMemory(to: UInt8.self)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
            EventIDCoding.writeText(packed: storedID, to: UnsafeMutableRawPointer(text.baseAddress!))
            return body(UnsafeBufferPointer(text))
        }
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
    /// Up to `limit` streams with id ≥ `fromID`, in id order, each with the position of its last
    /// event as recorded with it (`journal_streams.last_position`; nil when none is recorded).
    func streamEnds(fromID: Int64, limit: Int) throws(EventStoreError)
        -> [(id: Int64, name: String, lastPosition: Int64?)]
    /// The name of one stream id.
    func streamName(id: Int64) throws(EventStoreError) -> String
    /// The name of an event type id.
    func typeName(id: Int64) throws(EventStoreError) -> String
}

extension EventScanning {
    /// A store that records no stream ends: every end unknown.
    public func streamEnds(fromID: Int64, limit: Int) throws(EventStoreError)
        -> [(id: Int64, name: String, lastPosition: Int64?)]
    {
        try streamNames(fromID: fromID, limit: limit).map { ($0.id, $0.name, nil) }
    }
}
