import JournalCore

/// What `journal replay --all --against FILE` found (spec §12): the streams on both sides,
/// each changed one at its first differing version, and the streams only one side has.
public struct ReplayComparison: Sendable {
    /// Whether a side folds through the version (or, for a difference in length alone, through
    /// all of its versions).
    public enum Outcome: String, Sendable {
        case folds, fails
    }

    /// A field of the state that differs: its dotted path, the value then and now (`null` for a
    /// field one side does not have).
    public struct Field: Sendable, Equatable {
        public let path: String
        public let before: JSONValue
        public let after: JSONValue

        public init(path: String, before: JSONValue, after: JSONValue) {
            self.path = path
            self.before = before
            self.after = after
        }
    }

    public struct Difference: Sendable {
        public let stream: String
        /// The first version whose state (or outcome) differs, or the first version only one
        /// side has.
        public let version: Int64
        public let then: Outcome
        public let now: Outcome
        public let thenReason: String?
        public let nowReason: String?
        public let versionsThen: Int64
        public let versionsNow: Int64
        /// Empty when the outcomes or the numbers of versions differ and no field does.
        public let fields: [Field]
    }

    /// Streams both sides have.
    public let streams: Int
    /// The changed streams, in name order.
    public let differences: [Difference]
    public let onlyNow: [String]
    public let onlyThen: [String]
    public let rulesThen: String
    public let rulesNow: String

    public var changed: Int { differences.count }

    /// True when nothing differs (the rules identifiers may).
    public var isSame: Bool { differences.isEmpty && onlyNow.isEmpty && onlyThen.isEmpty }

    /// The summary line.
    public var summaryLine: String {
        "compared \(streams) streams: \(changed) changed, \(onlyNow.count) only now, \(onlyThen.count) only then "
            + "(rules \(rulesThen) → \(rulesNow))"
    }

    /// The text report: the summary line; per changed stream, a line naming the version and how
    /// each side ends there, then a line per differing field; then the streams only one side has.
    public func textLines() -> [String] {
        var lines = [summaryLine]
        for difference in differences {
            func side(_ outcome: Outcome, _ reason: String?, _ versions: Int64) -> String {
                let ends = reason.map { "fails: \($0)" } ?? outcome.rawValue
                return "\(ends) (\(versions) version\(versions == 1 ? "" : "s"))"
            }
            lines.append(
                "\(difference.stream) at version \(difference.version): then "
                    + side(difference.then, difference.thenReason, difference.versionsThen) + ", now "
                    + side(difference.now, difference.nowReason, difference.versionsNow))
            for field in difference.fields {
                lines.append("  \(field.path): \(JSONWriter.string(field.before)) → \(JSONWriter.string(field.after))")
            }
        }
        lines += onlyNow.map { "only now: \($0)" }
        lines += onlyThen.map { "only then: \($0)" }
        return lines
    }

    /// The JSON report, keys as spec §12 lists them.
    public func json() -> JSONObject {
        var object = JSONObject()
        object["streams"] = .number(JSONNumber(streams))
        object["changed"] = .number(JSONNumber(changed))
        object["onlyNow"] = .array(onlyNow.map { .string($0) })
        object["onlyThen"] = .array(onlyThen.map { .string($0) })
        object["rules"] = .object(JSONObject([("then", .string(rulesThen)), ("now", .string(rulesNow))]))
        object["differences"] = .array(
            differences.map { difference in
                var item = JSONObject()
                item["stream"] = .string(difference.stream)
                item["version"] = .number(JSONNumber(difference.version))
                item["then"] = .string(difference.then.rawValue)
                item["now"] = .string(difference.now.rawValue)
                if let reason = difference.thenReason { item["thenReason"] = .string(reason) }
                if let reason = difference.nowReason { item["nowReason"] = .string(reason) }
                item["versionsThen"] = .number(JSONNumber(difference.versionsThen))
                item["versionsNow"] = .number(JSONNumber(difference.versionsNow))
                item["fields"] = .array(
                    difference.fields.map { field in
                        .object(
                            JSONObject([
                                ("path", .string(field.path)), ("before", field.before), ("after", field.after)
                            ]))
                    })
                return .object(item)
            })
        return object
    }
}
