import JournalCore

/// The rules every backend applies to proposed events before storing them, with the same
/// errors and messages on SQLite and PostgreSQL.
enum EventRules {
    /// Throws `.invalid` for an id that is not a UUID or a type that is not 1 to 200 printable
    /// ASCII characters without spaces, and `.tooLarge` for data and meta over `maxPayloadBytes`.
    static func validate(_ events: [ProposedEvent], stream: StreamName, maxPayloadBytes: Int) throws(EventStoreError) {
        for event in events { try validate(event, stream: stream, maxPayloadBytes: maxPayloadBytes) }
    }

    /// `validate(_:stream:maxPayloadBytes:)` of one event (no array made for it).
    static func validate(_ event: ProposedEvent, stream: StreamName, maxPayloadBytes: Int) throws(EventStoreError) {
        guard UUIDText.isUUID(event.id) else {
            throw .invalid(
                "event id \"\(event.id.prefix(60))\" is not a UUID (8-4-4-4-12 hexadecimal digits)",
                stream: stream, eventID: String(event.id.prefix(60)))
        }
        guard isTypeName(event.type) else {
            throw .invalid(
                "event \(event.id): type \"\(event.type.prefix(60))\" must be 1 to 200 printable "
                    + "ASCII characters without spaces",
                stream: stream, eventID: event.id)
        }
        let size = event.data.count + (event.meta?.count ?? 0)
        guard size <= maxPayloadBytes else {
            throw EventStoreError(
                code: .tooLarge,
                message: "event \(event.id): data and meta are \(size) bytes, over the limit of \(maxPayloadBytes)",
                stream: stream.rawValue, eventID: event.id)
        }
    }

    /// 1 to 200 printable ASCII characters without spaces; one pass over the bytes in place.
    static func isTypeName(_ type: String) -> Bool {
        UTF8Bytes.with(type) { bytes in
            !bytes.isEmpty && bytes.count <= 200 && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        }
    }
}
