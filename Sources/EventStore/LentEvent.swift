import JournalCore

/// One stored event lent to the body of ``EventStore/readAll(from:limit:_:)``: every field of a
/// ``RecordedEvent``, its bytes left where the store read them (the row, the decoded payload, the
/// names the chain check spells into the link) and valid **only during the call**. Nothing is
/// allocated per event; ``recorded()`` copies one into a ``RecordedEvent`` for a caller that
/// keeps it.
public struct LentEvent {
    /// The columns the borrowing scan lends (``ScannedEvent``: the stored id, the hash, the
    /// payload).
    public let row: ScannedEvent
    /// The stream's name as stored (UTF-8), valid only inside the body.
    public let stream: UnsafeRawBufferPointer
    /// The event type's name as stored (UTF-8), valid only inside the body.
    public let type: UnsafeRawBufferPointer

    public init(row: ScannedEvent, stream: UnsafeRawBufferPointer, type: UnsafeRawBufferPointer) {
        self.row = row
        self.stream = stream
        self.type = type
    }

    public var position: Int64 { row.position }
    public var version: Int64 { row.version }
    public var occurredAt: Timestamp { Timestamp(millisecondsSinceEpoch: row.occurredAt) }
    public var recordedAt: Timestamp { Timestamp(millisecondsSinceEpoch: row.recordedAt) }
    /// The `data` object as stored (compact JSON text), valid only inside the body.
    public var data: UnsafeRawBufferPointer { row.data }
    /// The `meta` object as stored, nil when the event has none; valid only inside the body.
    public var meta: UnsafeRawBufferPointer? { row.meta }
    /// The stored chain hash (32 bytes), in place; valid only inside the body.
    public var hash: UnsafeRawBufferPointer { row.hash }

    /// The event as a ``RecordedEvent`` of its own (copies of every field).
    /// - Throws: `.integrity` at its position for a stored stream name that breaks the naming rule
    ///   (as ``EventStore/readAll(from:limit:)`` reports it).
    public func recorded() throws(EventStoreError) -> RecordedEvent {
        let name = String(decoding: stream, as: UTF8.self)
        guard let streamName = try? StreamName(name) else {
            throw .integrity(at: position, "stream #\(row.streamID) is missing or has an invalid name")
        }
        return RecordedEvent(
            position: position, stream: streamName, version: version,
            id: row.withIDText { String(decoding: $0, as: UTF8.self) }, type: String(decoding: type, as: UTF8.self),
            occurredAt: occurredAt, recordedAt: recordedAt, data: Array(data), meta: meta.map { Array($0) },
            hash: Array(hash))
    }
}
