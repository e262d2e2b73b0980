import JournalCore

/// Renders JSON for people: `key  value` lines, aligned, nested objects indented.
package enum TextRendering {
    /// `1 line`, `2 lines`: a count with its noun in the right number (`plural` when not an -s).
    package static func counted(_ count: some BinaryInteger, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    package static func keyValueLines(_ object: JSONObject, indent: String = "  ") -> [String] {
        let width = (object.keys.map(\.count).max() ?? 0) + 2
        var lines: [String] = []
        for (key, value) in object {
            switch value {
            case let .object(nested) where !nested.isEmpty:
                lines.append(indent + key)
                lines += keyValueLines(nested, indent: indent + "  ")
            default:
                lines.append(indent + key.padding(width) + scalar(value))
            }
        }
        return lines
    }

    /// A value on one line: strings without quotes, `-` for null, arrays of strings as a
    /// comma-separated list, the rest as compact JSON.
    static func scalar(_ value: JSONValue) -> String {
        switch value {
        case let .string(text): return TextRendering.printable(text)
        case .null: return "-"
        case let .array(items) where items.allSatisfy({ $0.stringValue != nil }):
            return items.isEmpty
                ? "-" : items.compactMap { $0.stringValue.map(TextRendering.printable) }.joined(separator: ", ")
        case .bool, .number, .array, .object: return JSONWriter.string(value)
        }
    }

    /// Rows as aligned columns, separated by two spaces; the columns in `rightAligned` are
    /// aligned right (numbers). Trailing spaces are trimmed.
    package static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                if index > 0 { line += "  " }
                line += rightAligned.contains(index) ? cell.leftPadding(widths[index]) : cell.padding(widths[index])
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// A user-typed value made safe to echo: control characters escaped, at most 80 characters.
    package static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 80 ? out + "…" : out
    }

    /// `items` joined by ", ", a new line begun before an item that would take the line past
    /// `width` characters; each line but the last ends in a comma (a help text's list).
    package static func wrapped(_ items: [String], width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for item in items {
            let next = line.isEmpty ? item : line + ", " + item
            if next.count > width {
                lines.append(line + ",")
                line = item
            } else {
                line = next
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
