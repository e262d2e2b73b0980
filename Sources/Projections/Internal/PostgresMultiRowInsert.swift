import EventStore

/// Turns runs of the same single-row `INSERT` (the rows of a batch: facts, stream rows,
/// counters) into multi-row `INSERT … VALUES (…), (…), …` statements, so the server parses,
/// plans and executes one statement per 100 rows instead of one per row.
///
/// Only `INSERT INTO t(c1, …, cn) VALUES($1, …, $n)` with an optional parameterless
/// `ON CONFLICT …` tail is coalesced; anything else is sent as it is. With
/// `ON CONFLICT (k…) DO UPDATE`, a statement never holds two rows with the same key (PostgreSQL
/// refuses to update a row twice in one statement): a repeated key starts a new statement, so
/// the rows still apply in their order. Statement sizes are 100, 10 or 1 rows, so each
/// connection prepares at most three texts per insert. PostgreSQL resolves a NULL parameter of
/// a multi-row `VALUES` to the target column's type, as for one row.
struct PostgresMultiRowInsert {
    /// The parsed single-row statement.
    let prefix: String
    let columns: Int
    let tail: String
    /// Positions (0-based) of the conflict target's columns, for `DO UPDATE` (nil otherwise).
    let conflictKey: [Int]?

    static let sizes = [100, 10, 1]

    /// Parses `sql`; nil when it is not a coalescible insert.
    init?(_ text: String) {
        // One line (the projections break long statements); no literal whose text could change.
        guard !text.contains("'") else { return nil }
        let sql = text.split(whereSeparator: { $0 == "\n" || $0 == "\t" }).joined(separator: " ")
        guard sql.hasPrefix("INSERT INTO "),
            let values = sql.firstRange(of: " VALUES(") ?? sql.firstRange(of: " VALUES (")
        else {
            return nil
        }
        let head = sql[..<values.lowerBound]
        guard let open = head.firstIndex(of: "("), head.last == ")" else { return nil }
        let names = head[head.index(after: open)..<head.index(before: head.endIndex)]
            .split(separator: ",").map { $0.trimmingSpaces }
        guard let close = sql[values.upperBound...].firstIndex(of: ")") else { return nil }
        let placeholders = sql[values.upperBound..<close].split(separator: ",").map { $0.trimmingSpaces }
        guard !names.isEmpty, placeholders == (1...names.count).map({ "$\($0)" }) else { return nil }
        var tail = String(sql[sql.index(after: close)...])
        while tail.hasPrefix("  ") { tail.removeFirst() }
        guard !tail.contains("$"), tail.isEmpty || tail.hasPrefix(" ON CONFLICT") else { return nil }
        var key: [Int]?
        if tail.contains("DO UPDATE") {
            guard let keyOpen = tail.firstIndex(of: "("), let keyClose = tail.firstIndex(of: ")") else { return nil }
            let keyNames = tail[tail.index(after: keyOpen)..<keyClose].split(separator: ",").map { $0.trimmingSpaces }
            let positions = keyNames.compactMap { names.firstIndex(of: $0) }
            guard !positions.isEmpty, positions.count == keyNames.count else { return nil }
            key = positions
        }
        prefix = String(head) + " VALUES "
        columns = names.count
        self.tail = tail
        conflictKey = key
    }

    /// The statement text for `rows` rows.
    func sql(rows: Int) -> String {
        var text = prefix
        var n = 1
        for row in 0..<rows {
            text += row == 0 ? "(" : ", ("
            for column in 0..<columns {
                text += column == 0 ? "$\(n)" : ", $\(n)"
                n += 1
            }
            text += ")"
        }
        return text + tail
    }

    /// The statements for a run of executions of the single-row statement, in order.
    func coalesce(_ runs: ArraySlice<PostgresStatement>, texts: inout [Int: String]) -> [PostgresStatement] {
        var groups: [ArraySlice<PostgresStatement>] = []
        if let conflictKey {
            var start = runs.startIndex
            var seen: Set<[String]> = []
            for index in runs.indices {
                let key = conflictKey.map { Self.keyText(runs[index].parameters[$0]) }
                if !seen.insert(key).inserted {
                    groups.append(runs[start..<index])
                    start = index
                    seen = [key]
                }
            }
            groups.append(runs[start...])
        } else {
            groups = [runs]
        }
        var result: [PostgresStatement] = []
        for group in groups {
            var index = group.startIndex
            while index < group.endIndex {
                let size = Self.sizes.first { $0 <= group.endIndex - index }!
                if size == 1 {
                    result.append(group[index])
                } else {
                    let text = texts[size] ?? sql(rows: size)
                    texts[size] = text
                    var parameters: [PostgresValue] = []
                    parameters.reserveCapacity(size * columns)
                    for statement in group[index..<(index + size)] { parameters += statement.parameters }
                    result.append(PostgresStatement(text, parameters))
                }
                index += size
            }
        }
        return result
    }

    private static func keyText(_ value: PostgresValue) -> String {
        switch value {
        case .null: return "\u{0}null"
        case let .int64(v): return "i\(v)"
        case let .text(v): return "t" + v
        case let .bytea(v): return "b" + v.map(String.init).joined(separator: ",")
        case .textArray, .byteaArray, .int64Array: return "\u{0}array" // never a key here
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\n" }).reversed().drop(while: { $0 == " " || $0 == "\n" }).reversed())
    }
}
