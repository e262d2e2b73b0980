import JournalCore

/// The invalid lines of one import, reported so that 50,000 of them stay readable: the first
/// ``shownOnStderr`` as `error:` lines while the import runs, then how many more there were and
/// a count per rule; the first ``keptForJSON`` in the `--format json` report, with the rest
/// counted. Every text in it is already masked (``Importer/Rejection``).
package struct ImportErrorReport {
    /// Invalid lines printed on stderr, as they are found.
    static let shownOnStderr = 100
    /// Invalid lines listed in the JSON report's `errors`.
    static let keptForJSON = 1_000

    package init() {}

    package struct Entry {
        var line: Int
        var rejection: Importer.Rejection
    }

    package private(set) var count = 0
    private(set) var byRule: [String: Int] = [:]
    private(set) var kept: [Entry] = []

    /// Records an invalid line; returns the text of its `error:` line while fewer than
    /// ``shownOnStderr`` were shown, nil after.
    package mutating func record(line: Int, _ rejection: Importer.Rejection) -> String? {
        count += 1
        byRule[rejection.rule, default: 0] += 1
        if kept.count < Self.keptForJSON { kept.append(Entry(line: line, rejection: rejection)) }
        return count <= Self.shownOnStderr ? "line \(line): \(rejection.report)" : nil
    }

    /// Invalid lines not printed on stderr.
    var notShown: Int { max(0, count - Self.shownOnStderr) }

    /// `(rule, count)`, the most frequent first, then by name.
    var rules: [(rule: String, count: Int)] {
        byRule.map { (rule: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.rule < $1.rule }
    }

    /// The `error:` lines after the shown ones: how many were not shown, then one per rule.
    /// Empty when every invalid line was shown.
    package var summaryLines: [String] {
        guard notShown > 0 else { return [] }
        var lines = [
            "\(notShown) more invalid \(notShown == 1 ? "line" : "lines") not shown "
                + "(the first \(Self.shownOnStderr) are above); by rule:"
        ]
        for item in rules {
            lines.append("  \(item.rule): \(item.count) \(item.count == 1 ? "line" : "lines")")
        }
        return lines
    }

    /// Adds `errors`, `moreErrors` and `byRule` to the JSON report.
    package func addJSON(to object: inout JSONObject) {
        object["errors"] = .array(
            kept.map { entry in
                var error = JSONObject()
                error["line"] = .number(JSONNumber(entry.line))
                error["stream"] = entry.rejection.stream.map { .string($0) } ?? .null
                error["type"] = entry.rejection.type.map { .string($0) } ?? .null
                error["rule"] = .string(entry.rejection.rule)
                error["reason"] = .string(entry.rejection.reason)
                return .object(error)
            })
        object["moreErrors"] = .number(JSONNumber(count - kept.count))
        var rules = JSONObject()
        for rule in byRule.keys.sorted() {
            rules.appendUnchecked(key: rule, value: .number(JSONNumber(byRule[rule] ?? 0)))
        }
        object["byRule"] = .object(rules)
    }
}

/// An input that is not NDJSON at all: a JSON array, or pretty-printed objects spread over many
/// lines. Reported once, with the command that fixes it, instead of one parse error per line.
/// Judged on the first non-blank line only (a stray `{` deep in a file is one invalid line):
/// it opens an array, or it opens an object the next non-blank line goes on with.
package enum NotNDJSON: Equatable {
    case jsonArray
    case prettyPrinted

    /// The rule identifier.
    package static let rule = "not-ndjson"

    /// Detects a JSON array from the first non-blank line and how it failed as an envelope:
    /// a line that is only `[`, a whole array, or an array cut at the end of the line.
    package static func isArrayStart(_ line: InputLine, rule: String, reason: String) -> Bool {
        let text = trimmed(line.bytes)
        guard text.first == UInt8(ascii: "[") else { return false }
        return text.count == 1 || rule == "envelope.not-object" || reason.contains("end of input")
    }

    /// True for a line that opens an object and stops before its end (`{`, `{"id": "…",`).
    package static func isPartialObject(_ line: InputLine, reason: String) -> Bool {
        trimmed(line.bytes).first == UInt8(ascii: "{") && reason.contains("end of input")
    }

    /// True for a line that goes on a pretty-printed object: a key (`"type": …`) or its end.
    package static func continuesObject(_ line: InputLine) -> Bool {
        let text = trimmed(line.bytes)
        return text.first == UInt8(ascii: "\"") || text.first == UInt8(ascii: "}")
    }

    private static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    package var reason: String {
        switch self {
        case .jsonArray:
            return "the input is a JSON array, not NDJSON (one JSON object per line)"
        case .prettyPrinted:
            return
                "the input is pretty-printed JSON (an object over several lines), not NDJSON (one JSON object per line)"
        }
    }

    /// The command that turns the input into NDJSON.
    package func hint(input path: String) -> String {
        let filter = self == .jsonArray ? "'.[]'" : "."
        if path == "-" { return "make it one object per line first, e.g. pipe it through: jq -c \(filter)" }
        let file = TextRendering.printable(path)
        let quoted = file.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" }) ? "'\(file)'" : file
        return "make it one object per line first: jq -c \(filter) \(quoted) > \(quoted).ndjson; "
            + "then import \(quoted).ndjson"
    }
}
