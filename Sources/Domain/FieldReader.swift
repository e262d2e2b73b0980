import JournalCore

/// Reads the fields of one event's `data` object with the catalog's rules: `null` means absent,
/// integers are JSON integers (no fraction, no exponent), and every failure names the field.
struct FieldReader {
    let eventType: String
    let data: JSONObject
    /// Prefix for nested fields (`methods[1].`), empty at the top level.
    var prefix: String = ""

    init(_ eventType: String, _ data: JSONObject, prefix: String = "") {
        self.eventType = eventType
        self.data = data
        self.prefix = prefix
    }

    func fail(_ kind: EventDecodingError.Kind, _ key: String, _ rule: String) -> EventDecodingError {
        EventDecodingError(kind: kind, eventType: eventType, field: prefix + key, rule: rule)
    }

    func invalid(_ key: String, _ rule: String) -> EventDecodingError { fail(.invalidValue, key, rule) }

    /// The value of `key`, or nil when absent or `null`.
    @inline(__always)
    func value(_ key: String) -> JSONValue? {
        for entry in data.entries where entry.key == key {
            if case .null = entry.value { return nil }
            return entry.value
        }
        return nil
    }

    private func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> EventDecodingError {
        fail(.wrongType, key, "must be \(expected), got \(value.typeName)")
    }

    func string(_ key: String) throws(EventDecodingError) -> String {
        guard let value = value(key) else { throw fail(.missingField, key, "is required") }
        guard case let .string(string) = value else { throw wrongType(key, "a string", value) }
        return string
    }

    func optionalString(_ key: String) throws(EventDecodingError) -> String? {
        guard let value = value(key) else { return nil }
        guard case let .string(string) = value else { throw wrongType(key, "a string", value) }
        return string
    }

    func bool(_ key: String) throws(EventDecodingError) -> Bool {
        guard let value = value(key) else { throw fail(.missingField, key, "is required") }
        guard case let .bool(bool) = value else { throw wrongType(key, "a boolean", value) }
        return bool
    }

    func optionalBool(_ key: String) throws(EventDecodingError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case let .bool(bool) = value else { throw wrongType(key, "a boolean", value) }
        return bool
    }

    func int(_ key: String) throws(EventDecodingError) -> Int64 {
        guard let value = value(key) else { throw fail(.missingField, key, "is required") }
        return try integer(key, value)
    }

    func optionalInt(_ key: String) throws(EventDecodingError) -> Int64? {
        guard let value = value(key) else { return nil }
        return try integer(key, value)
    }

    private func integer(_ key: String, _ value: JSONValue) throws(EventDecodingError) -> Int64 {
        guard case let .number(number) = value, number.isInteger else { throw wrongType(key, "an integer", value) }
        guard let int = number.int64 else {
            throw invalid(key, "must be an integer between \(Int64.min) and \(Int64.max), got \(ValueEcho.describe(value))")
        }
        return int
    }

    func array(_ key: String) throws(EventDecodingError) -> [JSONValue] {
        guard let value = value(key) else { throw fail(.missingField, key, "is required") }
        guard case let .array(array) = value else { throw wrongType(key, "an array", value) }
        return array
    }

    func optionalStringArray(_ key: String) throws(EventDecodingError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case let .array(array) = value else { throw wrongType(key, "an array of strings", value) }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard case let .string(string) = element else {
                throw fail(.wrongType, "\(key)[\(index)]", "must be a string, got \(element.typeName)")
            }
            strings.append(string)
        }
        return strings
    }

    /// A string field whose value must be one of an enumeration's raw values.
    func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(EventDecodingError) -> E
    where E.RawValue == String {
        let raw = try string(key)
        return try enumValue(key, raw, E.self)
    }

    func optionalEnumeration<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(EventDecodingError)
        -> E? where E.RawValue == String {
        guard let raw = try optionalString(key) else { return nil }
        return try enumValue(key, raw, E.self)
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, _ raw: String, _: E.Type)
        throws(EventDecodingError) -> E where E.RawValue == String {
        if let value = E(rawValue: raw) { return value }
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw invalid(key, "must be one of \(allowed), got \(ValueEcho.describe(raw))")
    }
}

/// Builds the canonical `data` object of an event created by a command, skipping absent
/// optional fields.
struct DataBuilder {
    var object = JSONObject()

    mutating func set(_ key: String, _ value: String) { object.appendUnchecked(key: key, value: .string(value)) }
    mutating func set(_ key: String, _ value: String?) { if let value { set(key, value) } }
    mutating func set(_ key: String, _ value: Bool) { object.appendUnchecked(key: key, value: .bool(value)) }
    mutating func set(_ key: String, _ value: Bool?) { if let value { set(key, value) } }
    mutating func set(_ key: String, _ value: Int64) {
        object.appendUnchecked(key: key, value: .number(JSONNumber(value)))
    }
    mutating func set(_ key: String, _ value: Int64?) { if let value { set(key, value) } }
    mutating func set(_ key: String, _ value: JSONValue) { object.appendUnchecked(key: key, value: value) }
    mutating func set<E: RawRepresentable>(_ key: String, _ value: E) where E.RawValue == String {
        set(key, value.rawValue)
    }
    mutating func set<E: RawRepresentable>(_ key: String, _ value: E?) where E.RawValue == String {
        if let value { set(key, value.rawValue) }
    }
}
