/// A JSON value that keeps exactly what it was given.
///
/// An audit journal must export what it received: object keys keep their order and numbers keep
/// their spelling (`1.0` stays `1.0`, a 25-digit integer stays exact). Two values can still be
/// compared as JSON values, ignoring key order and number spelling, with ``isEquivalent(to:)``;
/// that is the comparison spec §2 uses for idempotent imports.
///
/// `==` is structural and exact (same keys in the same order, same number text).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON number kept as its original text, validated by the parser.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    /// The number exactly as written (`-0.50`, `1e3`, `4111111111111111`).
    public let text: String

    /// Creates a number from text the caller guarantees is a valid JSON number.
    public init(uncheckedText text: String) { self.text = text }

    public init(_ value: Int) { self.text = String(value) }
    public init(_ value: Int64) { self.text = String(value) }

    public var description: String { text }

    /// True when the text is a JSON integer: no fraction and no exponent.
    public var isInteger: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as an `Int64` when the text is an integer that fits, else nil.
    public var int64: Int64? { isInteger ? Int64(text) : nil }

    /// The value as a `Double` (lossy for long numbers; use for statistics only).
    public var double: Double? { Double(text) }

    /// A canonical decimal form: sign, significant digits without leading or trailing zeros, and
    /// the exponent of the last digit. Equal numbers have equal canonical forms, whatever their
    /// spelling (`100`, `1e2`, `100.0`, `1.00E+2`).
    var canonical: (negative: Bool, digits: [UInt8], exponent: Int) {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var exponentPart = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                let rest = String(decoding: bytes[(index + 1)...], as: UTF8.self)
                // The parser bounds exponents, so this cannot overflow for parsed input.
                exponentPart = Int(rest.hasPrefix("+") ? String(rest.dropFirst()) : rest) ?? 0
                break
            } else {
                digits.append(byte)
                if seenPoint { exponent -= 1 }
            }
            index += 1
        }
        exponent += exponentPart
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return (false, [], 0) }
        return (negative, digits, exponent)
    }

    /// True when both numbers denote the same value, whatever their spelling.
    public func isEquivalent(to other: JSONNumber) -> Bool {
        if text == other.text { return true }
        let a = canonical
        let b = other.canonical
        return a.negative == b.negative && a.digits == b.digits && a.exponent == b.exponent
    }
}

/// A JSON object that keeps its keys in the order they were written.
public struct JSONObject: Sendable, Equatable, Sequence {
    public private(set) var entries: [(key: String, value: JSONValue)]

    public init() { entries = [] }

    public init(_ entries: [(key: String, value: JSONValue)]) { self.entries = entries }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        entries.makeIterator()
    }

    /// The value for `key`, or nil when absent. Objects are small, so a linear scan is fastest.
    public subscript(key: String) -> JSONValue? {
        get {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// Makes room for `capacity` entries, so that building a small object allocates once.
    public mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// Appends without checking for an existing key (the parser checks duplicates itself).
    public mutating func appendUnchecked(key: String, value: JSONValue) {
        entries.append((key, value))
    }
}

extension JSONValue {
    /// True when both values are equal as JSON values: object key order and number spelling do
    /// not matter; array order does.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null):
            return true
        case let (.bool(a), .bool(b)):
            return a == b
        case let (.number(a), .number(b)):
            return a.isEquivalent(to: b)
        case let (.string(a), .string(b)):
            return a == b
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let counterpart = b[key], value.isEquivalent(to: counterpart) else { return false }
            }
            return true
        case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _):
            return false
        }
    }

    public var objectValue: JSONObject? {
        if case let .object(object) = self { return object }
        return nil
    }

    public var stringValue: String? {
        if case let .string(string) = self { return string }
        return nil
    }

    public var boolValue: Bool? {
        if case let .bool(bool) = self { return bool }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case let .number(number) = self { return number }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case let .array(array) = self { return array }
        return nil
    }

    /// A short name of the value's JSON type, for error messages (`string`, `integer`, …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case let .number(number): return number.isInteger ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
