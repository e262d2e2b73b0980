import JournalCore

/// A Swift type a catalog field holds, and how it goes between the field and the `data` object:
/// read with the catalog's JSON rules (`null` means absent, every failure names the field),
/// written the way a command writes it (see ``EventDataWriter``).
protocol FieldValue: Sendable, Equatable {
    /// The value of the field `key`, whose JSON value is `value` (present, not `null`).
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> Self
    /// The value of the field `key` when it is absent or `null`.
    static func absent(_ r: FieldReader, _ key: String) throws(EventDecodingError) -> Self
    /// The value as written into `data`.
    var output: FieldOutput { get }
}

extension FieldValue {
    /// A required field: absent is an error.
    static func absent(_ r: FieldReader, _ key: String) throws(EventDecodingError) -> Self {
        throw r.fail(.missingField, key, "is required")
    }

    /// The field `key` of the reader's object.
    @inline(__always)
    static func read(_ r: FieldReader, _ key: String) throws(EventDecodingError) -> Self {
        guard let value = r.value(key) else { return try absent(r, key) }
        return try read(value, r, key)
    }
}

extension Optional: FieldValue where Wrapped: FieldValue {
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> Wrapped? {
        try Wrapped.read(value, r, key)
    }

    static func absent(_ r: FieldReader, _ key: String) throws(EventDecodingError) -> Wrapped? { nil }

    var output: FieldOutput { self?.output ?? .absent }
}

extension String: FieldValue {
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> String {
        guard case let .string(string) = value else { throw r.wrongType(key, "a string", value) }
        return string
    }

    var output: FieldOutput { .string(self) }
}

extension Bool: FieldValue {
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> Bool {
        guard case let .bool(bool) = value else { throw r.wrongType(key, "a boolean", value) }
        return bool
    }

    var output: FieldOutput { .bool(self) }
}

extension Int64: FieldValue {
    /// A JSON integer (no fraction, no exponent) that fits.
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> Int64 {
        guard case let .number(number) = value, number.isInteger else { throw r.wrongType(key, "an integer", value) }
        guard let int = number.int64 else {
            throw r.invalid(
                key, "must be an integer between \(Int64.min) and \(Int64.max), got \(ValueEcho.describe(value))")
        }
        return int
    }

    var output: FieldOutput { .int(self) }
}

extension CatalogValue {
    /// A string that must be one of the enumeration's raw values.
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> Self {
        try r.enumValue(key, try String.read(value, r, key), Self.self)
    }

    var output: FieldOutput { .string(rawValue) }
}

extension ChallengeCounter: FieldValue {
    /// A three-digit counter string (`000` to `999`).
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> ChallengeCounter
    {
        let text = try String.read(value, r, key)
        guard let counter = ChallengeCounter(text: text) else {
            throw r.invalid(key, "must be three decimal digits, got \(ValueEcho.describe(text))")
        }
        return counter
    }

    var output: FieldOutput { .string(text) }
}

/// The element of an array field: how the whole array is read and written.
protocol ListElement: Sendable, Equatable {
    static func readList(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> [Self]
    static func output(_ list: [Self]) -> FieldOutput
}

extension Array: FieldValue where Element: ListElement {
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> [Element] {
        try Element.readList(value, r, key)
    }

    var output: FieldOutput { Element.output(self) }
}

extension String: ListElement {
    /// An array of strings.
    static func readList(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> [String] {
        guard case let .array(array) = value else { throw r.wrongType(key, "an array of strings", value) }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard case let .string(string) = element else {
                throw r.fail(.wrongType, "\(key)[\(index)]", "must be a string, got \(element.typeName)")
            }
            strings.append(string)
        }
        return strings
    }

    static func output(_ list: [String]) -> FieldOutput { .strings(list) }
}

/// A field's value as written into `data`, in the terms of ``EventDataWriter``: writing a
/// payload goes through these few cases instead of generic code per field type.
enum FieldOutput {
    /// An optional field that is absent: nothing is written.
    case absent
    case string(String)
    case int(Int64)
    case bool(Bool)
    case strings([String])
    case json(JSONValue)
    /// The field's string, then the string of the field `key` it calls for (see
    /// ``ThreeDSEvent/ChallengeResponseReceived/Result``).
    case stringThen(String, key: String, String)

    @inline(__always)
    func write<W: EventDataWriter>(_ key: String, to writer: inout W) {
        switch self {
        case .absent: return
        case let .string(value): writer.set(key, string: value)
        case let .int(value): writer.set(key, int: value)
        case let .bool(value): writer.set(key, bool: value)
        case let .strings(value): writer.set(key, strings: value)
        case let .json(value): writer.set(key, value: value)
        case let .stringThen(value, second, secondValue):
            writer.set(key, string: value)
            writer.set(second, string: secondValue)
        }
    }
}
