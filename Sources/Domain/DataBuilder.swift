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
