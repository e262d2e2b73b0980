import Domain
import JournalCore

/// The CSV output of `journal query`, for spreadsheets: one row per record under a header of
/// plain column names (RFC 4180 quoting).
///
/// - `rates`: one row for the window (`since`, `until`, `events`, then every count and rate of
///   the JSON, then `selected` and `activated` per ID&V method type, all five always present),
///   or one row per bucket with `--every` (`start`, `end`, `events`, the same columns).
/// - The other queries: `since`, `until`, `events`, `section`, `key`, then the numbers. The
///   first row (section `total`) holds the numbers outside the per-key maps; then one row per
///   key of each map (section = the map's JSON path, e.g. `byDirectoryServer`,
///   `threeDS.byUiType`, `protocolErrors.byCode`): the key's numbers, or its count in `count`.
///   With `--every`, `start` and `end` instead of `since` and `until`, and these rows per bucket.
///
/// A column is named by the last component of its JSON path, or by as many of the last ones as
/// make it unique (joined by `_`: `threeDS_otpSubmissions`); durations stay in milliseconds;
/// a `null` is an empty field.
extension QueryOutput {
    public var csv: String {
        let windowColumns = report is BucketedReport ? ["start", "end"] : ["since", "until"]
        let parts: [(start: String, end: String, events: Int64, report: any QueryReport)]
        if let bucketed = report as? BucketedReport {
            parts = bucketed.buckets.map { ($0.start.description, $0.end.description, $0.events, $0.report) }
        } else {
            parts = [(window.since?.description ?? "", window.until?.description ?? "", events, report)]
        }
        if name == .rates { return Self.ratesCSV(windowColumns, parts) }
        // Records: (section, key, [path: value]).
        var records: [(part: Int, section: String, key: String, values: [String: JSONValue])] = []
        var paths: [String] = []
        func note(_ path: String) { if !paths.contains(path) { paths.append(path) } }
        for (index, part) in parts.enumerated() {
            var total: [String: JSONValue] = [:]
            var sections: [(String, String, [String: JSONValue])] = []
            Self.records(part.report.json, path: "") { section, key, path, value in
                note(path)
                if let section {
                    if let last = sections.last, last.0 == section, last.1 == key {
                        sections[sections.count - 1].2[path] = value
                    } else {
                        sections.append((section, key, [path: value]))
                    }
                } else {
                    total[path] = value
                }
            }
            records.append((index, "total", "", total))
            records += sections.map { (index, $0.0, $0.1, $0.2) }
        }
        let names = Self.columnNames(paths)
        var lines = [(windowColumns + ["events", "section", "key"] + names).joined(separator: ",")]
        for record in records {
            let part = parts[record.part]
            let fields =
                [part.start, part.end, String(part.events), record.section, record.key]
                + paths.map { record.values[$0].map(Self.field) ?? "" }
            lines.append(fields.map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Calls `emit(section, key, path, value)` for every scalar: section nil outside the `by…`
    /// maps (path from the root), else the map's path, the key, and the path inside the key's
    /// value (`count` for a plain count).
    private static func records(
        _ value: JSONValue, path: String,
        _ emit: (String?, String, String, JSONValue) -> Void
    ) {
        guard case let .object(object) = value else {
            emit(nil, "", path, value)
            return
        }
        for (key, nested) in object {
            let childPath = path.isEmpty ? key : "\(path).\(key)"
            if key.hasPrefix("by"), case let .object(map) = nested {
                for (mapKey, entry) in map {
                    if case .object = entry {
                        flatten(entry, path: "") { inner, leaf in emit(childPath, mapKey, inner, leaf) }
                    } else {
                        emit(childPath, mapKey, "count", entry)
                    }
                }
            } else {
                records(nested, path: childPath, emit)
            }
        }
    }

    /// The shortest unique suffix of each path, joined by `_`.
    static func columnNames(_ paths: [String]) -> [String] {
        let split = paths.map { $0.split(separator: ".").map(String.init) }
        var names = split.map { parts -> String in
            for length in 1...max(1, parts.count) {
                let suffix = parts.suffix(length)
                let clash = split.contains { other in
                    other != parts && other.count >= length && other.suffix(length) == suffix
                }
                if !clash { return suffix.joined(separator: "_") }
            }
            return parts.joined(separator: "_")
        }
        // Paths that are suffixes of each other keep their full names.
        for i in names.indices where names.filter({ $0 == names[i] }).count > 1 {
            names[i] = split[i].joined(separator: "_")
        }
        return names
    }

    private static func field(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case let .string(text): return text
        case let .number(number): return number.text
        case .bool, .array, .object: return JSONWriter.string(value)
        }
    }

    static func ratesCSV(
        _ windowColumns: [String],
        _ parts: [(
            start: String, end: String, events: Int64,
            report: any QueryReport
        )]
    ) -> String {
        let types = IDVMethodType.allCases.map(\.rawValue)
        let header =
            windowColumns + [
                "events", "transactions", "responses", "frictionless", "challenged", "authenticated",
                "abandoned", "failed", "frictionlessRate", "challengeRate", "authenticationRate",
                "abandonmentRate", "journeys", "eligible", "green", "red", "yellow", "activated",
                "activationRate"
            ]
            + types.flatMap { ["\($0)_selected", "\($0)_activated"] }
        var lines = [header.joined(separator: ",")]
        for part in parts {
            guard let r = part.report as? RatesReport else { continue }
            let counts = [
                r.transactions, r.responses, r.frictionless, r.challenged, r.authenticated, r.abandoned, r.failed
            ]
            let rates = [r.frictionlessRate, r.challengeRate, r.authenticationRate, r.abandonmentRate]
            var fields =
                [part.start, part.end, String(part.events)] + counts.map(String.init)
                + rates.map { $0.decimalText ?? "" }
            fields += [r.journeys, r.eligible, r.green, r.red, r.yellow, r.activated].map(String.init)
            fields.append(r.activationRate.decimalText ?? "")
            for type in types {
                let method = r.byMethod[type] ?? RatesReport.Method()
                fields += [String(method.selected), String(method.activated)]
            }
            lines.append(fields.map(csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
