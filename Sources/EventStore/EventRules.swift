import JournalCore

/// The rules every backend applies to proposed events before storing them, with the same
/// errors and messages on SQLite and PostgreSQL.
enum EventRules {
    /// Throws `.invalid` for an id that is not a UUID or a type that is not 1 to 200 printable
    /// ASCII characters without spaces, and `.tooLarge` for data and meta over `maxPayloadBytes`.
    static func validate(_ events: [ProposedEvent], stream: StreamName, maxPayloadBytes: Int) throws(EventStoreError) {
        for event in events {
            guard UUIDText.isUUID(event.id) else {
                throw .invalid("event id \"\(event.id.prefix(60))\" is not a UUID (8-4-4-4-12 hexadecimal digits)",
                               stream: stream, eventID: String(event.id.prefix(60)))
            }
            let typeBytes = event.type.utf8
            guard !typeBytes.isEmpty, typeBytes.count <= 200, typeBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw .invalid("event \(event.id): type \"\(event.type.prefix(60))\" must be 1 to 200 printable ASCII characters without spaces",
                               stream: stream, eventID: event.id)
            }
            let size = event.data.count + (event.meta?.count ?? 0)
            guard size <= maxPayloadBytes else {
                throw EventStoreError(code: .tooLarge,
                                      message: "event \(event.id): data and meta are \(size) bytes, over the limit of \(maxPayloadBytes)",
                                      stream: stream.rawValue, eventID: event.id)
            }
        }
    }
}
