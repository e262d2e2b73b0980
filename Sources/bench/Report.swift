/// The table for people: one row per metric, the journal beside the raw baseline and the peer,
/// the metric's goal and whether this run met it.
enum Report {
    struct Row: Sendable {
        let label: String
        let key: String
        let goal: String
        /// nil when the goal is not a single number on this metric.
        let met: (@Sendable (Metrics) -> Bool?)?
    }

    static let rows: [Row] = [
        Row(
            label: "append, 1000 per commit (ev/s)", key: "append_b1000", goal: "≥250k, ≥3× peer, ≥0.5× raw",
            met: { m in
                all(
                    m["append_b1000_eps"].map { $0 >= 250_000 }, m["append_b1000_ratio_peer"].map { $0 >= 3 },
                    m["append_b1000_ratio_raw"].map { $0 >= 0.5 })
            }),
        Row(
            label: "append, 100 per commit (ev/s)", key: "append_b100", goal: "≥3× peer",
            met: { m in m["append_b100_ratio_peer"].map { $0 >= 3 } }),
        Row(
            label: "append, 10 per commit (ev/s)", key: "append_b10", goal: "≥3× peer",
            met: { m in m["append_b10_ratio_peer"].map { $0 >= 3 } }),
        Row(
            label: "append, 1 per commit (ev/s)", key: "append_b1", goal: "≥0.9× raw",
            met: { m in m["append_b1_ratio_raw"].map { $0 >= 0.9 } }),
        Row(
            label: "append, 64 writers × 1 (ev/s)", key: "append_group", goal: "≥60k",
            met: { m in m["append_group_eps"].map { $0 >= 60_000 } }),
        Row(
            label: "read all (ev/s)", key: "read_all", goal: "≥1.5M",
            met: { m in m["read_all_eps"].map { $0 >= 1_500_000 } }),
        Row(label: "read all, as RecordedEvent (ev/s)", key: "read_all_recorded", goal: "(extra)", met: nil),
        Row(label: "scan all, borrowing (ev/s)", key: "scan_all", goal: "(extra)", met: nil),
        Row(
            label: "journal replay --all (ev/s)", key: "replay_all", goal: "≥1M",
            met: { m in m["replay_all_eps"].map { $0 >= 1_000_000 } }),
        Row(label: "journal replay --all --record (ev/s)", key: "replay_record", goal: "(extra)", met: nil),
        Row(label: "journal replay --all --against (ev/s)", key: "replay_against", goal: "(extra)", met: nil),
        Row(
            label: "replay --all --record, time ÷ replay --all", key: "replay_record_ratio_replay", goal: "≤1.5×",
            met: { m in m["replay_record_ratio_replay"].map { $0 <= 1.5 } }),
        Row(
            label: "replay --all --against, time ÷ replay --all", key: "replay_against_ratio_replay", goal: "≤1.5×",
            met: { m in m["replay_against_ratio_replay"].map { $0 <= 1.5 } }),
        Row(
            label: "replay record (bytes/event)", key: "replay_record_bytes_per_event", goal: "≤16 + states",
            met: nil),
        Row(
            label: "journal verify (ev/s)", key: "verify", goal: "≥1.5M",
            met: { m in m["verify_eps"].map { $0 >= 1_500_000 } }),
        Row(
            label: "journal import, new journal (ev/s)", key: "import", goal: "≥250k",
            met: { m in m["import_eps"].map { $0 >= 250_000 } }),
        Row(
            label: "import ÷ naive Python loader", key: "import_ratio_naive", goal: "≥5×",
            met: { m in m["import_ratio_naive"].map { $0 >= 5 } }),
        Row(
            label: "journal import, existing journal (ev/s)", key: "import_existing", goal: "≥150k",
            met: { m in m["import_existing_eps"].map { $0 >= 150_000 } }),
        Row(
            label: "journal simulate (ev/s)", key: "simulate", goal: "≥200k",
            met: { m in m["simulate_eps"].map { $0 >= 200_000 } }),
        Row(
            label: "serve, 64 clients × 1 event (ev/s)", key: "serve", goal: "≤35 µs server CPU/event",
            met: { m in m["serve_server_cpu_us_per_event"].map { $0 <= 35 } }),
        Row(
            label: "rebuild projections (ev/s)", key: "rebuild", goal: "≥500k",
            met: { m in m["rebuild_eps"].map { $0 >= 500_000 } }),
        Row(
            label: "audit one stream, p99 (ms)", key: "audit_p99_ms", goal: "≤1 at 10M",
            met: { m in m["audit_p99_ms"].map { $0 <= 1 } }),
        Row(
            label: "journal prove, p50 (ms)", key: "prove_p50_ms", goal: "<5 at 10M",
            met: { m in m["prove_p50_ms"].map { $0 < 5 } }),
        Row(
            label: "journal bundle, p50 (ms)", key: "bundle_p50_ms", goal: "<20 at 10M",
            met: { m in m["bundle_p50_ms"].map { $0 < 20 } }),
        Row(
            label: "journal publish, full (ms)", key: "publish_full_ms", goal: "<30,000 at 10M",
            met: { m in m["publish_full_ms"].map { $0 < 30_000 } }),
        Row(
            label: "journal publish, 10k new events (ms)", key: "publish_incremental_ms", goal: "<1,000 at 10M",
            met: { m in m["publish_incremental_ms"].map { $0 < 1_000 } }),
        Row(label: "journal restore, new journal (ev/s)", key: "restore", goal: "(extra)", met: nil),
        Row(
            label: "restore ÷ import into a new journal", key: "restore_ratio_import", goal: "≥0.8×",
            met: { m in m["restore_ratio_import"].map { $0 >= 0.8 } }),
        Row(
            label: "bytes per event", key: "bytes_per_event", goal: "≤0.6× NDJSON",
            met: { m in m["bytes_per_event_ratio_ndjson"].map { $0 <= 0.6 } })
    ]

    private static func all(_ checks: Bool?...) -> Bool? {
        let known = checks.compactMap { $0 }
        return known.isEmpty ? nil : known.allSatisfy { $0 }
    }

    static func table(_ m: Metrics, options: BenchOptions) -> String {
        let header = [
            "metric", "journal", "per CPU-s", "raw SQLite", "eventsourcing", "vs raw", "vs peer", "goal", "met"
        ]
        var lines: [[String]] = [header]
        for row in rows {
            let isPlain = row.key.hasSuffix("_ms") || row.key.hasSuffix("bytes_per_event") || isRatio(row.key)
            let ours = m[isPlain ? row.key : row.key + "_eps"]
            let raw = m[isPlain ? "raw_" + row.key : "raw_" + row.key + "_eps"]
            let peer = m[isPlain ? "peer_" + row.key : "peer_" + row.key + "_eps"]
            let vsRaw = m[row.key + "_ratio_raw"].map { Metrics.decimal($0, places: 2) + "×" }
            let vsPeer = m[row.key + "_ratio_peer"].map { Metrics.decimal($0, places: 2) + "×" }
            let met = row.met?(m).map { $0 ? "yes" : "NO" } ?? "—"
            let cpu = isPlain ? nil : m[row.key + "_cpu_eps"]
            lines.append([
                row.label, cell(ours, key: row.key), cell(cpu, key: row.key), cell(raw, key: row.key),
                cell(peer, key: row.key),
                vsRaw ?? "—", vsPeer ?? "—", row.goal, met
            ])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        var out = lines.map { line in
            line.enumerated().map { column, text in
                let pad = String(repeating: " ", count: widths[column] - text.count)
                return column == 0 || column >= 7 ? text + pad : pad + text
            }.joined(separator: "  ")
        }
        out.insert(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "), at: 1)
        var footer: [String] = []
        if let ndjson = m["ndjson_bytes_per_event"], let ratio = m["bytes_per_event_ratio_ndjson"] {
            footer.append(
                "NDJSON: \(Metrics.decimal(ndjson, places: 1)) bytes per event; the journal holds "
                    + "\(Metrics.decimal(ratio, places: 2))× that"
            )
        }
        if let events = m["audit_log_events"] {
            let size = events >= 10_000_000 ? "" : " (smaller than the 10 M of the goal)"
            footer.append(
                """
                big log: \(Int(events)) events\(size); audit p50 \(Metrics.decimal(m["audit_p50_ms"] ?? 0, places: 3)) \
                ms over \(options.auditSamples) random streams of \
                \(Metrics.decimal(m["audit_stream_length_mean"] ?? 0, places: 1)) events on average
                """
            )
        }
        if let rss = m["import_peak_rss_mb"], let rate = m["import_big_eps"] {
            footer.append("import of the big log: \(Int(rate)) events/s, peak RSS \(Int(rss)) MB")
        }
        if let generated = m["simulate_ndjson_eps"], let cpu = m["simulate_ndjson_cpu_eps"] {
            footer.append(
                "simulate: the generator alone (--ndjson) \(grouped(Int64(generated))) events/s, "
                    + "\(grouped(Int64(cpu))) per CPU-s; the raw column is raw SQLite's 1000-per-commit append"
            )
        }
        if let rate = m["serve_eps"], let cpu = m["serve_server_cpu_us_per_event"] {
            footer.append(
                "serve, 64 clients × 1 event: \(grouped(Int64(rate.rounded()))) ev/s, "
                    + "\(Metrics.decimal(cpu, places: 1)) µs server CPU per event (the server's user + system time "
                    + "over the load ÷ acknowledged events; bench/serve/loadgen.c on the same cores), p99 "
                    + "\(Metrics.decimal(m["serve_p99_ms"] ?? 0, places: 2)) ms")
        } else if let status = m.text("serve_status") {
            footer.append("serve: \(status)")
        }
        if let naive = m["naive_loader_eps"] {
            footer.append(
                "naive Python loader (json.loads, sqlite3, 1000 per commit, id and (stream, version) indexes) "
                    + "on the import's file: \(grouped(Int64(naive.rounded()))) events/s"
            )
        } else if let status = m.text("naive_loader_status") {
            footer.append("naive Python loader: \(status)")
        }
        if let status = m.text("peer_status") { footer.append("peer: \(status)") }
        if let record = m["replay_record_cpu_ratio_replay"], let against = m["replay_against_cpu_ratio_replay"] {
            footer.append(
                "replay --all --record / --against: \(Metrics.decimal(record, places: 2))× / "
                    + "\(Metrics.decimal(against, places: 2))× replay --all's CPU in the same rounds; peak RSS "
                    + "\(Int(m["replay_all_peak_rss_mb"] ?? 0)) / \(Int(m["replay_record_peak_rss_mb"] ?? 0)) / "
                    + "\(Int(m["replay_against_peak_rss_mb"] ?? 0)) MB (replay --all / --record / --against)")
        }
        footer.append(
            "per CPU-s: events per CPU second of the journal's process (user + system), the rate the code allows "
                + "whatever the machine's load; appends also wait for fsync"
        )
        footer.append(
            "medians of \(options.runs) runs (\(options.bigRuns) over the big log); load average at start: "
                + "\(m.text("load_average_at_start") ?? "?")"
        )
        return (out + [""] + footer).joined(separator: "\n")
    }

    /// A row whose value is a ratio of two measured rates (`import_ratio_naive`).
    private static func isRatio(_ key: String) -> Bool { key.contains("_ratio_") }

    private static func cell(_ value: Double?, key: String) -> String {
        guard let value else { return "—" }
        if isRatio(key) { return Metrics.decimal(value, places: 2) + "×" }
        if key.hasSuffix("_ms") { return Metrics.decimal(value, places: 3) }
        if key.hasSuffix("bytes_per_event") { return Metrics.decimal(value, places: 1) }
        return grouped(Int64(value.rounded()))
    }

    static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
