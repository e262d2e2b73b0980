/// A table for the text output: a key column, then right-aligned columns, optionally grouped
/// under a name printed above them (`outcomes`, `requests`). A table wider than ``maxWidth``
/// becomes several tables of the same rows, each repeating the key column, split between
/// groups where possible.
struct TextTable {
    struct Column {
        var group: String?
        var name: String
    }

    static let maxWidth = 100

    var keyHeader = ""
    var columns: [Column] = []
    var rows: [(key: String, cells: [String])] = []

    func render(indent: String) -> [String] {
        guard !columns.isEmpty else {
            return ([keyHeader] + rows.map(\.key)).filter { !$0.isEmpty }.map { indent + $0 }
        }
        let keyWidth = ([keyHeader] + rows.map(\.key)).map(\.count).max() ?? 0
        var widths = columns.indices.map { i in
            ([columns[i].name] + rows.map { i < $0.cells.count ? $0.cells[i] : "" }).map(\.count).max() ?? 0
        }
        // A group's name wider than its columns widens its first column.
        var start = 0
        while start < columns.count {
            var end = start
            while end + 1 < columns.count, columns[start].group != nil, columns[end + 1].group == columns[start].group {
                end += 1
            }
            let span = (start...end).reduce(0) { $0 + widths[$1] } + 2 * (end - start)
            if let group = columns[start].group, group.count > span { widths[start] += group.count - span }
            start = end + 1
        }
        // Chunks of whole groups while they fit; a group is split when it is wider than a table
        // on its own, or when it would leave this table less than half full.
        var chunks: [[Int]] = []
        var current: [Int] = []
        var used = indent.count + keyWidth
        var index = 0
        while index < columns.count {
            var end = index
            while end + 1 < columns.count, columns[end + 1].group != nil, columns[end + 1].group == columns[index].group
            {
                end += 1
            }
            let group = Array(index...end)
            let width = group.reduce(0) { $0 + 2 + widths[$1] }
            if used + width <= Self.maxWidth || current.isEmpty && width + indent.count + keyWidth <= Self.maxWidth {
                current += group
                used += width
            } else if !current.isEmpty && indent.count + keyWidth + width <= Self.maxWidth
                && used - indent.count - keyWidth >= (Self.maxWidth - indent.count - keyWidth) / 2
            {
                // The group fits a table of its own and this one is at least half full.
                chunks.append(current)
                current = group
                used = indent.count + keyWidth + width
            } else {
                for column in group {
                    if used + 2 + widths[column] > Self.maxWidth && !current.isEmpty {
                        chunks.append(current)
                        current = []
                        used = indent.count + keyWidth
                    }
                    current.append(column)
                    used += 2 + widths[column]
                }
            }
            index = end + 1
        }
        if !current.isEmpty { chunks.append(current) }
        var lines: [String] = []
        for (number, chunk) in chunks.enumerated() {
            if number > 0 { lines.append("") }
            lines += render(chunk, keyWidth: keyWidth, widths: widths, indent: indent)
        }
        return lines
    }

    private func render(_ chunk: [Int], keyWidth: Int, widths: [Int], indent: String) -> [String] {
        func trimmed(_ text: String) -> String {
            var text = text
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var lines: [String] = []
        if chunk.contains(where: { columns[$0].group != nil }) {
            var text = indent + String(repeating: " ", count: keyWidth)
            var position = 0
            while position < chunk.count {
                let group = columns[chunk[position]].group
                var end = position
                while end + 1 < chunk.count, group != nil, columns[chunk[end + 1]].group == group { end += 1 }
                let span = (position...end).reduce(0) { $0 + widths[chunk[$1]] } + 2 * (end - position)
                text += "  " + (group ?? "").padded(span)
                position = end + 1
            }
            lines.append(trimmed(text))
        }
        var header = indent + keyHeader.padded(keyWidth)
        for column in chunk {
            header +=
                "  " + String(repeating: " ", count: widths[column] - columns[column].name.count) + columns[column].name
        }
        lines.append(trimmed(header))
        for row in rows {
            var text = indent + row.key.padded(keyWidth)
            for column in chunk {
                let cell = column < row.cells.count ? row.cells[column] : ""
                text += "  " + String(repeating: " ", count: widths[column] - cell.count) + cell
            }
            lines.append(trimmed(text))
        }
        return lines
    }
}
