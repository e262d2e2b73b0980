import JournalCore

/// The text output of `journal query`, for people: a header (query, window, events covered;
/// with `--every`, the buckets), then the report. Counts carry their share of what they are
/// part of (`frictionless  1059  37.9 %`), durations read as `1.2 s` or `4 h 2 min`, directory
/// servers as `Visa A000000003`; a map of per-key objects (per directory server, UI type,
/// method) is a table, split into several tables when wider than 100 columns.
extension QueryOutput {
    public var json: String { JSONWriter.string(report.json) }

    public var text: String {
        var lines = ["query   \(name.rawValue)", "window  \(window)"]
        if let bucketed = report as? BucketedReport {
            var line =
                "every   \(bucketed.every.rawValue): \(bucketed.buckets.count) "
                + "bucket\(bucketed.buckets.count == 1 ? "" : "s")"
            if let first = bucketed.buckets.first, let last = bucketed.buckets.last {
                line += ", \(first.start) to \(last.end)"
            }
            lines.append(line)
        }
        lines.append("events  \(events)")
        lines.append("")
        switch report {
        case let bucketed as BucketedReport: lines += Self.bucketLines(name, bucketed)
        case let rates as RatesReport: lines += Self.rateLines(rates)
        default:
            if case let .object(object) = report.json {
                lines += Self.textLines(object, path: "", indent: "", shares: Self.shares(name), root: object)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Shares

    /// Which counts are shown as a share of which (absolute dotted paths; `*` stands for any
    /// key of a map).
    static func shares(_ name: QueryName) -> [String: String] {
        switch name {
        case .funnel:
            return [
                "aresReceived": "transactions", "frictionless": "transactions", "challengeRequired": "transactions",
                "challenged": "transactions", "byAresStatus.*": "transactions", "outcomes.*": "transactions"
            ]
        case .otp:
            return [
                "threeDS.outcomes.*": "threeDS.transactions",
                "tokenization.byMethod.*": "tokenization.otpSubmissions",
                "tokenization.rejected.*": "tokenization.otpSubmissions",
                "tokenization.activated": "tokenization.journeys"
            ]
        case .timeouts:
            return [
                "threeDS.byDirectoryServer.*": "threeDS.challengeTimeouts",
                "threeDS.byUiType.*": "threeDS.challengeTimeouts"
            ]
        case .errors:
            return [
                "protocolErrors.byCode.*": "protocolErrors.count",
                "protocolErrors.byComponent.*": "protocolErrors.count",
                "runtimeErrors.byCode.*": "runtimeErrors.count"
            ]
        case .challenges, .idv, .latency, .rates:
            // idv's activations in a window are not a part of its decisions in that window.
            return [:]
        }
    }

    private static func number(at path: String, in root: JSONObject) -> Int64? {
        var current: JSONValue = .object(root)
        for component in path.split(separator: ".") {
            guard case let .object(object) = current, let next = object[String(component)] else { return nil }
            current = next
        }
        return current.numberValue?.int64
    }

    private static func share(of path: String, _ value: JSONValue, shares: [String: String], root: JSONObject)
        -> String?
    {
        guard let count = value.numberValue?.int64 else { return nil }
        let wildcard = path.split(separator: ".").dropLast().joined(separator: ".") + (path.contains(".") ? ".*" : "*")
        guard let base = shares[path] ?? shares[wildcard], let whole = number(at: base, in: root) else { return nil }
        return Readable.share(count, of: whole)
    }

    // MARK: - Values

    static let durationKeys: Set<String> = ["p50", "p95", "p99", "median"]

    /// A scalar for people: durations under `p50`, `p95`, `p99`, `median`; `-` for null.
    static func cell(_ value: JSONValue, key: String) -> String {
        switch value {
        case .null: return "-"
        case let .string(text): return text
        case let .number(number):
            if durationKeys.contains(key), let ms = number.int64 { return Readable.duration(ms) }
            return number.text
        case .bool, .array, .object: return JSONWriter.string(value)
        }
    }

    private static func isLine(_ value: JSONValue) -> Bool {
        if case let .object(object) = value { return object.isEmpty }
        return true
    }

    private static func keyText(_ key: String, inMap map: String) -> String {
        map.hasSuffix("byDirectoryServer") ? Readable.directoryServer(key) : key
    }

    static func textLines(
        _ object: JSONObject, path: String, indent: String, shares: [String: String],
        root: JSONObject
    ) -> [String] {
        var lines: [String] = []
        let mapName = String(path.split(separator: ".").last ?? "")
        let scalars = object.filter { isLine($0.value) }
        let keyWidth = scalars.map { keyText($0.key, inMap: mapName).count }.max() ?? 0
        func valueText(_ entry: (key: String, value: JSONValue)) -> String {
            if case let .object(nested) = entry.value, nested.isEmpty { return "(none)" }
            return cell(entry.value, key: entry.key)
        }
        let valueWidth = scalars.map { valueText($0).count }.max() ?? 0
        for (key, value) in object {
            let childPath = path.isEmpty ? key : "\(path).\(key)"
            guard case let .object(nested) = value, !nested.isEmpty else {
                let text = valueText((key, value))
                var line =
                    indent + keyText(key, inMap: mapName).padded(keyWidth) + "  "
                    + String(repeating: " ", count: valueWidth - text.count) + text
                if let share = share(of: childPath, value, shares: shares, root: root) {
                    line += "  " + String(repeating: " ", count: max(0, 7 - share.count)) + share
                }
                lines.append(line)
                continue
            }
            lines.append(indent + key)
            if key.hasPrefix("by"),
                nested.allSatisfy({ if case .object = $0.value { return true } else { return false } })
            {
                lines += table(nested, mapName: key).render(indent: indent + "  ")
            } else {
                lines += textLines(nested, path: childPath, indent: indent + "  ", shares: shares, root: root)
            }
        }
        return lines
    }

    /// One row per key, one column per number (nested maps grouped: `outcomes` over
    /// `completedY`, `completedN`, …).
    static func table(_ rows: JSONObject, mapName: String) -> TextTable {
        var paths: [String] = []
        var cells: [[String: String]] = []
        for (_, value) in rows {
            var row: [String: String] = [:]
            flatten(value, path: "") { path, leaf in
                if !paths.contains(path) { paths.append(path) }
                row[path] = cell(leaf, key: String(path.split(separator: ".").last ?? ""))
            }
            cells.append(row)
        }
        var groups: [String] = []
        for path in paths {
            let group = String(path.prefix(while: { $0 != "." }))
            if !groups.contains(group) { groups.append(group) }
        }
        paths = groups.flatMap { group in paths.filter { $0 == group || $0.hasPrefix(group + ".") }.sorted() }
        var table = TextTable()
        table.columns = paths.map { path in
            guard let dot = path.firstIndex(of: ".") else { return TextTable.Column(group: nil, name: path) }
            return TextTable.Column(group: String(path[..<dot]), name: String(path[path.index(after: dot)...]))
        }
        for ((key, _), row) in zip(rows, cells) {
            table.rows.append((keyText(key, inMap: mapName), paths.map { row[$0] ?? "-" }))
        }
        return table
    }

    /// Calls `emit` with the dotted path and value of every scalar under `value`.
    static func flatten(_ value: JSONValue, path: String, _ emit: (String, JSONValue) -> Void) {
        switch value {
        case let .object(object):
            for (key, nested) in object { flatten(nested, path: path.isEmpty ? key : "\(path).\(key)", emit) }
        case .null, .bool, .number, .string, .array:
            emit(path, value)
        }
    }

    // MARK: - Rates

    static func rateLines(_ report: RatesReport) -> [String] {
        func rows(_ entries: [(String, Int64, String?)]) -> [String] {
            let keyWidth = entries.map(\.0.count).max() ?? 0
            let valueWidth = entries.map { String($0.1).count }.max() ?? 0
            return entries.map { key, count, note in
                var line =
                    "  " + key.padded(keyWidth) + "  " + String(repeating: " ", count: valueWidth - String(count).count)
                    + String(count)
                if let note { line += "  " + note }
                return line
            }
        }
        func rate(_ rate: Rate, _ label: String) -> String {
            let percent = rate.percentText
            return String(repeating: " ", count: max(0, 8 - percent.count)) + percent + "  " + label
        }
        var lines = ["threeDS (transactions created in the window)"]
        lines += rows([
            ("transactions", report.transactions, nil),
            ("responses", report.responses, rate(Rate(report.responses, over: report.transactions), "of transactions")),
            (
                "frictionless", report.frictionless,
                rate(report.frictionlessRate, "frictionlessRate: ARes Y or A, of responses")
            ),
            ("challenged", report.challenged, rate(report.challengeRate, "challengeRate, of responses")),
            (
                "authenticated", report.authenticated,
                rate(report.authenticationRate, "authenticationRate, of responses")
            ),
            (
                "abandoned", report.abandoned,
                rate(report.abandonmentRate, "abandonmentRate: cancelled or timed out, of challenged")
            ),
            (
                "failed", report.failed,
                rate(Rate(report.failed, over: report.transactions), "protocol or runtime error, of transactions")
            )
        ])
        lines.append("tokenization (journeys whose eligibility check lies in the window)")
        lines += rows([
            ("journeys", report.journeys, nil),
            ("eligible", report.eligible, rate(Rate(report.eligible, over: report.journeys), "of journeys")),
            ("green", report.green, rate(Rate(report.green, over: report.journeys), "approved, of journeys")),
            ("red", report.red, rate(Rate(report.red, over: report.journeys), "declined, of journeys")),
            ("yellow", report.yellow, rate(Rate(report.yellow, over: report.journeys), "ID&V required, of journeys")),
            ("activated", report.activated, rate(report.activationRate, "activationRate, of yellow"))
        ])
        lines.append("  byMethod")
        if report.byMethod.isEmpty {
            lines.append("    (none)")
        } else {
            var table = TextTable()
            table.columns = ["selected", "activated", "activated of selected"].map {
                TextTable.Column(group: nil, name: $0)
            }
            for (type, method) in report.byMethod.sorted(by: { $0.key < $1.key }) {
                table.rows.append(
                    (
                        type,
                        [
                            String(method.selected), String(method.activated),
                            Rate(method.activated, over: method.selected).percentText
                        ]
                    ))
            }
            lines += table.render(indent: "    ")
        }
        return lines
    }

    // MARK: - Buckets

    /// One row per bucket: for `rates` the counts and rates, for the other queries every number
    /// outside the per-key maps (those are in `--format json` and `csv`).
    static func bucketLines(_ name: QueryName, _ report: BucketedReport) -> [String] {
        var table = TextTable()
        table.keyHeader = "start"
        if name == .rates {
            let threeDS = ["transactions", "frictionless", "challenge", "authentication", "abandonment"]
            let tokenization = ["journeys", "yellow", "activation"]
            table.columns =
                [TextTable.Column(group: nil, name: "events")]
                + threeDS.map { TextTable.Column(group: "threeDS", name: $0) }
                + tokenization.map { TextTable.Column(group: "tokenization", name: $0) }
            for bucket in report.buckets {
                guard let rates = bucket.report as? RatesReport else { continue }
                table.rows.append(
                    (
                        bucket.start.description,
                        [
                            String(bucket.events), String(rates.transactions), rates.frictionlessRate.percentText,
                            rates.challengeRate.percentText, rates.authenticationRate.percentText,
                            rates.abandonmentRate.percentText, String(rates.journeys), String(rates.yellow),
                            rates.activationRate.percentText
                        ]
                    ))
            }
            return table.render(indent: "")
        }
        // The union of every bucket's numbers: a path first met in a later bucket (a map's key
        // whose count was zero before) goes right after the path before it in that bucket, so
        // objects keep their order and maps their sorted keys.
        var paths: [String] = []
        var rows: [[String: String]] = []
        for bucket in report.buckets {
            var row: [String: String] = [:]
            var previous: String?
            flattenOutsideMaps(bucket.report.json, path: "") { path, value in
                if !paths.contains(path) {
                    let at = previous.flatMap { paths.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
                    paths.insert(path, at: at)
                }
                previous = path
                row[path] = cell(value, key: String(path.split(separator: ".").last ?? ""))
            }
            rows.append(row)
        }
        table.columns =
            [TextTable.Column(group: nil, name: "events")]
            + paths.map { path in
                let parts = path.split(separator: ".")
                guard parts.count > 1 else { return TextTable.Column(group: nil, name: path) }
                return TextTable.Column(group: parts.dropLast().joined(separator: "."), name: String(parts.last!))
            }
        for (bucket, row) in zip(report.buckets, rows) {
            table.rows.append((bucket.start.description, [String(bucket.events)] + paths.map { row[$0] ?? "-" }))
        }
        return table.render(indent: "")
    }

    /// ``flatten(_:path:_:)`` without the `by…` maps.
    static func flattenOutsideMaps(_ value: JSONValue, path: String, _ emit: (String, JSONValue) -> Void) {
        guard case let .object(object) = value else {
            emit(path, value)
            return
        }
        for (key, nested) in object where !key.hasPrefix("by") {
            flattenOutsideMaps(nested, path: path.isEmpty ? key : "\(path).\(key)", emit)
        }
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
