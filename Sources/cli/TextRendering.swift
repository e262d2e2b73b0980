import JournalCore

/// Renders JSON for people: `key  value` lines, aligned, nested objects indented.
enum TextRendering {
    static func keyValueLines(_ object: JSONObject, indent: String = "  ") -> [String] {
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

    /// A value on one line: strings without quotes, the rest as compact JSON.
    static func scalar(_ value: JSONValue) -> String {
        if case let .string(text) = value { return Help.printable(text) }
        return JSONWriter.string(value)
    }

    /// Rows as aligned columns, separated by two spaces; the columns in `rightAligned` are
    /// aligned right (numbers). Trailing spaces are trimmed.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
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
}
