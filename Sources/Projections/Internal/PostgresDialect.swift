/// Rewrites the read models' SQL from SQLite's spelling to PostgreSQL's: the one place that
/// knows their differences (the projections write SQLite's spelling everywhere).
///
/// Per statement, outside quoted literals and identifiers:
/// - placeholders: `?N` → `$N`, and each bare `?` → `$1`, `$2`, … in order;
/// - `PRAGMA …` (SQLite tuning) is dropped;
/// - in `CREATE TABLE`: `INTEGER` → `BIGINT`, `BLOB` → `BYTEA`, `REAL` → `DOUBLE PRECISION`,
///   `TEXT` → `TEXT COLLATE "C"` (byte order, as SQLite compares: range scans such as
///   `key >= 'req|' AND key < 'req}'` and `ORDER BY` give the same rows), `WITHOUT ROWID`
///   dropped (type names are matched in upper case, as whole words);
/// - `INSERT OR IGNORE INTO …` → `INSERT INTO … ON CONFLICT DO NOTHING`;
/// - `INSERT OR REPLACE INTO t(k, a, b) VALUES(…)` → `INSERT INTO t(k, a, b) VALUES(…)
///   ON CONFLICT (k) DO UPDATE SET a = excluded.a, b = excluded.b`: the **first column is the
///   primary key** (the convention of every `OR REPLACE` in the projections).
///
/// Everything else (upserts naming their target table, `coalesce`, `CASE`, `count(*)`, joins,
/// `GROUP BY 1`) is already common to both engines.
enum PostgresDialect {
    /// The statements of `sql` (separated by `;`), translated; dropped ones are left out.
    static func statements(_ sql: String) -> [String] {
        split(Array(sql.utf8)).compactMap(translate)
    }

    /// One statement translated (nil when PostgreSQL has no use for it).
    static func translate(_ statement: [UInt8]) -> String? {
        var bytes = trimmed(statement)
        guard !bytes.isEmpty else { return nil }
        let words = leadingWords(bytes, count: 4)
        if words.first == "PRAGMA" { return nil }
        bytes = placeholders(bytes)
        if words.starts(with: ["CREATE", "TABLE"]) || words.starts(with: ["CREATE", "TEMP", "TABLE"]) {
            bytes = columnTypes(bytes)
        }
        if words.starts(with: ["INSERT", "OR", "IGNORE", "INTO"]) {
            return "INSERT INTO" + text(after: bytes, words: 4) + " ON CONFLICT DO NOTHING"
        }
        if words.starts(with: ["INSERT", "OR", "REPLACE", "INTO"]) {
            return upsert(text(after: bytes, words: 4))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Scanning

    private static let quote = UInt8(ascii: "'"), doubleQuote = UInt8(ascii: "\"")

    /// Calls `body` for each byte with whether it lies inside a quoted literal or identifier.
    private static func scan(_ bytes: [UInt8], _ body: (Int, Bool) -> Void) {
        var open: UInt8?
        for (index, byte) in bytes.enumerated() {
            if let current = open {
                body(index, true)
                if byte == current { open = nil } // a doubled quote closes and reopens
            } else if byte == quote || byte == doubleQuote {
                open = byte
                body(index, true)
            } else {
                body(index, false)
            }
        }
    }

    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        scan(bytes) { index, quoted in
            if !quoted && bytes[index] == UInt8(ascii: ";") {
                result.append(Array(bytes[start..<index]))
                start = index + 1
            }
        }
        result.append(Array(bytes[start...]))
        return result
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\r")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return Array(bytes[first...last])
    }

    /// The first `count` words, upper-cased.
    private static func leadingWords(_ bytes: [UInt8], count: Int) -> [String] {
        var words: [String] = []
        var index = 0
        while words.count < count && index < bytes.count {
            while index < bytes.count && isSpace(bytes[index]) { index += 1 }
            let start = index
            while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
            guard index > start else { break }
            words.append(String(decoding: bytes[start..<index], as: UTF8.self).uppercased())
        }
        return words
    }

    /// The text after the first `words` words (which the caller has checked).
    private static func text(after bytes: [UInt8], words: Int) -> String {
        var index = 0
        for _ in 0..<words {
            while index < bytes.count && isSpace(bytes[index]) { index += 1 }
            while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[index...], as: UTF8.self)
    }

    // MARK: - Rewrites

    static func placeholders(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var next = 1
        var skip = 0
        scan(bytes) { index, quoted in
            if skip > 0 {
                skip -= 1
                return
            }
            let byte = bytes[index]
            guard !quoted, byte == UInt8(ascii: "?") else {
                out.append(byte)
                return
            }
            out.append(UInt8(ascii: "$"))
            var end = index + 1
            while end < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end > index + 1 {
                out += bytes[(index + 1)..<end] // ?N → $N
                skip = end - index - 1
            } else {
                out += Array(String(next).utf8)
                next += 1
            }
        }
        return out
    }

    static let typeNames: [String: String] = [
        "INTEGER": "BIGINT", "BLOB": "BYTEA", "REAL": "DOUBLE PRECISION", "TEXT": "TEXT COLLATE \"C\""
    ]

    static func columnTypes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var quotedAt = Array(repeating: false, count: bytes.count)
        scan(bytes) { index, quoted in quotedAt[index] = quoted }
        var index = 0
        while index < bytes.count {
            guard !quotedAt[index], isWordByte(bytes[index]),
                index == 0 || !isWordByte(bytes[index - 1])
            else {
                out.append(bytes[index])
                index += 1
                continue
            }
            var end = index
            while end < bytes.count && isWordByte(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[index..<end], as: UTF8.self)
            if word == "WITHOUT" {
                var next = end
                while next < bytes.count && isSpace(bytes[next]) { next += 1 }
                var wordEnd = next
                while wordEnd < bytes.count && isWordByte(bytes[wordEnd]) { wordEnd += 1 }
                if String(decoding: bytes[next..<wordEnd], as: UTF8.self) == "ROWID" {
                    while let last = out.last, isSpace(last) { out.removeLast() }
                    index = wordEnd
                    continue
                }
            }
            out += Array((typeNames[word] ?? word).utf8)
            index = end
        }
        return out
    }

    /// `t(k, a, b) VALUES(…)` → `INSERT INTO t(k, a, b) VALUES(…) ON CONFLICT (k) DO UPDATE SET …`.
    static func upsert(_ rest: String) -> String {
        let bytes = Array(rest.utf8)
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")),
            let close = bytes[open...].firstIndex(of: UInt8(ascii: ")"))
        else {
            return "INSERT OR REPLACE INTO" + rest // not the expected shape: let the server say so
        }
        let columns = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
            .split(separator: ",").map { String(decoding: trimmed(Array($0.utf8)), as: UTF8.self) }
        guard let key = columns.first else { return "INSERT OR REPLACE INTO" + rest }
        let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }
        let action = updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", ")
        return "INSERT INTO" + rest + " ON CONFLICT (\(key)) DO \(action)"
    }
}
