import JournalCore

/// Builds the canonical `data` object of an event created by a command (see ``EventDataWriter``).
struct DataBuilder: EventDataWriter {
    var object = JSONObject()

    init() {
        // Catalog payloads have at most six fields: one allocation instead of one per doubling.
        object.reserveCapacity(6)
    }

    mutating func set(_ key: String, string value: String) { object.appendUnchecked(key: key, value: .string(value)) }
    mutating func set(_ key: String, int value: Int64) {
        object.appendUnchecked(key: key, value: .number(JSONNumber(value)))
    }
    mutating func set(_ key: String, bool value: Bool) { object.appendUnchecked(key: key, value: .bool(value)) }
    mutating func set(_ key: String, strings value: [String]) {
        object.appendUnchecked(key: key, value: .array(value.map { .string($0) }))
    }
    mutating func set(_ key: String, value: JSONValue) { object.appendUnchecked(key: key, value: value) }
}

/// A payload whose `data` is kept as received when decoded, and made from its fields only when
/// asked for when built by a command.
@usableFromInline
protocol PayloadFields {
    /// `data` as received when decoded; nil when built by a command.
    var received: JSONObject? { get }
    /// The fields of the canonical `data`, in catalog order, absent optional fields skipped.
    func writeFields<W: EventDataWriter>(to builder: inout W)
}

extension PayloadFields {
    /// The canonical `data` object of the payload's fields.
    func canonicalData() -> JSONObject {
        var builder = DataBuilder()
        writeFields(to: &builder)
        return builder.object
    }

    /// The fields of `data`, in order: those received, or the canonical ones.
    @inlinable
    func writeData<W: EventDataWriter>(to writer: inout W) {
        if let received {
            for entry in received.entries { writer.set(entry.key, value: entry.value) }
        } else {
            writeFields(to: &writer)
        }
    }
}
