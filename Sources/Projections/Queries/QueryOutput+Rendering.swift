import JournalCore

/// The three output formats of `journal query`.
///
/// - JSON: the report object alone, one line, keys in the documented order (contract §5 for
///   `otp` and `timeouts`).
/// - Text: a header (query, window, events covered), then the report as aligned `name  value`
///   lines; a map of per-key objects (per directory server, UI type, method) becomes a table
///   with one row per key.
/// - CSV: `metric,value` rows: `since`, `until`, `events`, then every number of the report under
///   its dotted JSON path (`threeDS.outcomes.completedY`); RFC 4180 quoting.
extension QueryOutput {
    public var json: String { JSONWriter.string(report.json) }

    public var text: String {
        var lines = ["query   \(name.rawValue)", "window  \(window)", "events  \(events)"]
        if case let .object(object) = report.json {
            lines.append("")
            lines += Self.textLines(object, indent: "")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public var csv: String {
        var rows = ["metric,value", "since,\(window.since.map(String.init(describing:)) ?? "")",
                    "until,\(window.until.map(String.init(describing:)) ?? "")", "events,\(events)"]
        Self.flatten(report.json, path: "") { path, value in rows.append("\(Self.csvField(path)),\(value)") }
        return rows.joined(separator: "\n") + "\n"
    }

    // MARK: - Text

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: return "-"
        case let .string(text): return text
        case .bool, .number, .array, .object: return JSONWriter.string(value)
        }
    }

    /// Scalars and empty objects print on one line (`(none)` for an empty map).
    private static func isLine(_ value: JSONValue) -> Bool {
        if case let .object(object) = value { return object.isEmpty }
        return true
    }

    private static func lineText(_ value: JSONValue) -> String {
        if case let .object(object) = value, object.isEmpty { return "(none)" }
        return scalar(value)
    }

    static func textLines(_ object: JSONObject, indent: String) -> [String] {
        var lines: [String] = []
        let width = object.filter { isLine($0.value) }.map(\.key.count).max() ?? 0
        let valueWidth = object.filter { isLine($0.value) }.map { lineText($0.value).count }.max() ?? 0
        for (key, value) in object {
            guard case let .object(nested) = value, !nested.isEmpty else {
                let text = lineText(value)
                lines.append(indent + key.padded(width) + "  " + String(repeating: " ", count: valueWidth - text.count) + text)
                continue
            }
            lines.append(indent + key)
            // A `by…` map of per-key objects reads best as a table, one row per key.
            if key.hasPrefix("by"), nested.allSatisfy({ if case .object = $0.value { return true } else { return false } }) {
                lines += matrix(nested, indent: indent + "  ")
            } else {
                lines += textLines(nested, indent: indent + "  ")
            }
        }
        return lines
    }

    /// One row per key, one column per number (nested maps flattened as `outcomes.completedY`).
    private static func matrix(_ rows: JSONObject, indent: String) -> [String] {
        var columns: [String] = []
        var cells: [[String: String]] = []
        for (_, value) in rows {
            var row: [String: String] = [:]
            flatten(value, path: "") { path, text in
                if !columns.contains(path) { columns.append(path) }
                row[path] = text
            }
            cells.append(row)
        }
        // Columns grouped by their first path component, groups in order of first appearance.
        var groups: [String] = []
        for column in columns {
            let group = String(column.prefix(while: { $0 != "." }))
            if !groups.contains(group) { groups.append(group) }
        }
        columns = groups.flatMap { group in
            columns.filter { $0 == group || $0.hasPrefix(group + ".") }.sorted()
        }
        // Two header lines: a group name (`requests`, `outcomes`) over its columns, then the
        // column names without the group prefix.
        let leaves = columns.map { column -> String in
            guard let dot = column.firstIndex(of: ".") else { return column }
            return String(column[column.index(after: dot)...])
        }
        let groupOf = columns.map { column -> String? in
            column.contains(".") ? String(column.prefix(while: { $0 != "." })) : nil
        }
        var body: [[String]] = []
        for ((key, _), row) in zip(rows, cells) { body.append([key] + columns.map { row[$0] ?? "-" }) }
        var widths = [Int](repeating: 0, count: columns.count + 1)
        for line in body + [[""] + leaves] {
            for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        // Widen a group's first column when the group name is longer than its columns together.
        var index = 0
        while index < columns.count {
            guard let group = groupOf[index] else { index += 1; continue }
            var end = index
            while end + 1 < columns.count, groupOf[end + 1] == group { end += 1 }
            let span = (index...end).reduce(0) { $0 + widths[$1 + 1] } + 2 * (end - index)
            if group.count > span { widths[index + 1] += group.count - span }
            index = end + 1
        }
        func render(_ line: [String], rightAligned: Bool) -> String {
            var text = indent
            for (i, cell) in line.enumerated() {
                if i == 0 {
                    text += cell.padded(widths[0])
                } else if rightAligned {
                    text += "  " + String(repeating: " ", count: widths[i] - cell.count) + cell
                } else {
                    text += "  " + cell.padded(widths[i])
                }
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var lines: [String] = []
        if groupOf.contains(where: { $0 != nil }) {
            var text = indent + "".padded(widths[0])
            var i = 0
            while i < columns.count {
                guard let group = groupOf[i], i == 0 || groupOf[i - 1] != group else {
                    if groupOf[i] == nil { text += "  " + "".padded(widths[i + 1]) }
                    i += 1
                    continue
                }
                var end = i
                while end + 1 < columns.count, groupOf[end + 1] == group { end += 1 }
                let span = (i...end).reduce(0) { $0 + widths[$1 + 1] } + 2 * (end - i)
                text += "  " + group.padded(span)
                i = end + 1
            }
            while text.hasSuffix(" ") { text.removeLast() }
            lines.append(text)
        }
        lines.append(render([""] + leaves, rightAligned: true))
        for line in body { lines.append(render(line, rightAligned: true)) }
        return lines
    }

    // MARK: - Flattening (CSV and tables)

    /// Calls `emit` with the dotted path and text of every scalar under `value`.
    static func flatten(_ value: JSONValue, path: String, _ emit: (String, String) -> Void) {
        switch value {
        case let .object(object):
            for (key, nested) in object { flatten(nested, path: path.isEmpty ? key : "\(path).\(key)", emit) }
        case .null:
            emit(path, "")
        case .bool, .number, .string, .array:
            emit(path, scalar(value))
        }
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
