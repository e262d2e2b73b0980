import JournalCore

/// One row of a payload's field table: the field's name in `data`, where the payload keeps its
/// value, and the catalog's rules on the value beyond its JSON type.
struct PayloadField<Payload, Value: FieldValue>: Sendable {
    let key: String
    let value: @Sendable (Payload) -> Value
    /// Checked in order after every field is read; the first broken rule is the error.
    let rules: [FieldRule<Value>]

    init(_ key: String, _ value: @escaping @Sendable (Payload) -> Value, _ rules: FieldRule<Value>...) {
        self.key = key
        self.value = value
        self.rules = rules
    }

    /// An optional field whose rules apply to its value when present.
    init<Wrapped>(
        _ key: String, _ value: @escaping @Sendable (Payload) -> Wrapped?,
        _ rules: FieldRule<Wrapped>...
    ) where Value == Wrapped? {
        self.key = key
        self.value = value
        self.rules = rules.map { rule in FieldRule { $0.flatMap(rule.violation) } }
    }

    @inline(__always)
    func read(_ r: FieldReader) throws(EventDecodingError) -> Value { try Value.read(r, key) }

    /// The first rule `payload`'s value breaks: the field it names and what it says.
    func violation(_ payload: Payload) -> (field: String, rule: String)? {
        let value = value(payload)
        for rule in rules {
            if let broken = rule.violation(value) { return (key + broken.path, broken.rule) }
        }
        return nil
    }
}

/// A broken rule: the path below the field it names (empty for the field itself, `[1].id` for
/// the `id` of its second element) and what the rule says.
typealias RuleViolation = (path: String, rule: String)

/// A catalog rule on a field's value: nil when the value keeps it.
struct FieldRule<Value>: Sendable {
    let violation: @Sendable (Value) -> RuleViolation?

    init(_ violation: @escaping @Sendable (Value) -> RuleViolation?) { self.violation = violation }
}

extension FieldRule where Value == Int64 {
    static func atLeast(_ minimum: Int64) -> FieldRule {
        FieldRule { $0 >= minimum ? nil : ("", "must be >= \(minimum), got \($0)") }
    }

    static func atMost(_ maximum: Int64) -> FieldRule {
        FieldRule { $0 <= maximum ? nil : ("", "must be <= \(maximum), got \($0)") }
    }

    static func within(_ range: ClosedRange<Int64>) -> FieldRule {
        FieldRule {
            range.contains($0) ? nil : ("", "must be between \(range.lowerBound) and \(range.upperBound), got \($0)")
        }
    }
}

extension FieldRule where Value == String {
    static let uuid = FieldRule { UUIDText.isUUID($0) ? nil : ("", "must be a UUID, got \(ValueEcho.describe($0))") }

    static func atMostCodePoints(_ maximum: Int) -> FieldRule {
        FieldRule {
            let length = $0.unicodeScalars.count
            return length <= maximum ? nil : ("", "must be at most \(maximum) Unicode code points, got \(length)")
        }
    }
}
