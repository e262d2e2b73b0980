import JournalCore

/// Why an event's `data` object does not fit the catalog of spec §3.
///
/// The message names the event type, the field and the rule, for example
/// `ChallengeStarted.timeoutSeconds must be >= 300, got 299`. Values are echoed only when short
/// (12 characters at most), so a long value (a card number, a token) never appears in a message.
public struct EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem was found.
    public enum Kind: Sendable, Equatable {
        /// The `type` is not an event type of the catalog (or not of the stream's category).
        case unknownType
        /// A required field is absent (or `null`).
        case missingField
        /// A field has the wrong JSON type (a string where an integer is required, say).
        case wrongType
        /// A field has the right JSON type but a value the catalog does not allow.
        case invalidValue
    }

    public let kind: Kind
    /// The event type as received.
    public let eventType: String
    /// The field path inside `data` (`timeoutSeconds`, `methods[1].type`), nil for an unknown type.
    public let field: String?
    /// The complete human message.
    public let message: String

    public var description: String { message }

    init(kind: Kind, eventType: String, field: String?, rule: String) {
        self.kind = kind
        self.eventType = eventType
        self.field = field
        if let field {
            self.message = "\(eventType).\(field) \(rule)"
        } else {
            self.message = "\(eventType) \(rule)"
        }
    }

    static func unknownType(_ type: String) -> EventDecodingError {
        EventDecodingError(
            kind: .unknownType, eventType: ValueEcho.typeName(type), field: nil,
            rule: "is not an event type of the catalog")
    }
}

/// Short, safe descriptions of received values for error messages.
enum ValueEcho {
    /// Values longer than this are described by their length only.
    static let maximumEchoLength = 12

    /// `"02"`, `299`, `true`, or `a string of 40 characters`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case let .bool(bool): return bool ? "true" : "false"
        case let .number(number):
            return number.text.utf8.count <= maximumEchoLength
                ? number.text
                : "a number of \(number.text.utf8.count) characters"
        case let .string(string): return describe(string)
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    static func describe(_ string: String) -> String {
        let count = string.unicodeScalars.count
        if count <= maximumEchoLength && !string.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            return "\"\(string)\""
        }
        return "a string of \(count) characters"
    }

    /// An event type name as it may appear in a message (printable ASCII, 64 characters at most).
    static func typeName(_ type: String) -> String {
        if type.utf8.count <= 64 && type.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return type }
        return "(an unreadable type of \(type.unicodeScalars.count) characters)"
    }
}
