import CSQLite
import EventStore
import JournalCore
import Simulator

/// One benchmark run: the journal, the raw SQLite baseline and the Python peer on the same
/// simulator events, then the big log (import, read, replay, rebuild, audit, size).
final class Bench {
    let options: BenchOptions
    var metrics = Metrics()
    var notes: [String] = []
    private let started = System.now()

    init(options: BenchOptions) { self.options = options }

    func log(_ message: String) {
        let elapsed = Int(System.now() - started)
        let seconds = elapsed % 60
        System.printError("[\(elapsed / 60):\(seconds < 10 ? "0" : "")\(seconds)] " + message)
    }

    /// `--dir`, made when missing, or a fresh directory under $TMPDIR.
    func workDirectory() throws -> String {
        try options.workDirectory.map { path throws(BenchError) -> String in
            try System.makeDirectory(path)
            return path
        } ?? System.temporaryDirectory(prefix: "journal-bench-")
    }

    func run() throws {
        if let journal = options.auditJournal { return try measureAuditOnly(journal) }
        if let journal = options.readJournal { return try measureReadOnly(journal) }
        if let transactions = options.generatorTransactions { return try measureGenerator(transactions) }
        let directory = try workDirectory()
        defer { if !options.keepFiles && options.workDirectory == nil { System.removeTree(directory) } }
        guard let journal = Bench.findJournalExecutable() else {
            throw BenchError("setup", "no release 'journal' executable next to bench (run 'swift build -c release')")
        }
        let load = System.loadAverage()
        metrics.setText("mode", options.quick ? "quick" : "full")
        metrics["runs"] = Double(options.runs)
        metrics.setText("load_average_at_start", load.map { Metrics.decimal($0, places: 2) }.joined(separator: " "))
        log(
            "bench \(options.quick ? "--quick" : "(full)"): work directory \(directory), load average "
                + "\(metrics.text("load_average_at_start") ?? "?"), SQLite \(String(cString: sqlite3_libversion()))"
        )
        if let path = options.replayJournal {
            try measureReplayOnly(path, journal: journal)
            print(Report.table(metrics, options: options))
            try writeJSONIfAsked()
            return
        }
        if options.serveOnly {
            try measureServe(journal: journal, directory: directory)
            print(Report.table(metrics, options: options))
            try writeJSONIfAsked()
            return
        }

        // The append workload, in memory, and its NDJSON for the peer and the import runs.
        var start = System.now()
        let workload = Workload(seed: 1, events: options.appendEvents)
        let events = workload.next(options.appendEvents)
        let appendFile = directory + "/append.ndjson"
        var writer = try NDJSONWriter(path: appendFile)
        try writer.write(events)
        try writer.close()
        log(
            "generated \(events.count) events "
                + "(\(Int(Double(events.count) / (System.now() - start))) events/s) → \(appendFile)"
        )

        try measureAppends(events, directory: directory)
        if options.appendsOnly {
            print(Report.table(metrics, options: options))
            return
        }
        try measurePeer(appendFile, directory: directory)
        try measureImport(appendFile, events: events.count, journal: journal, directory: directory)
        try measureNaiveLoader(appendFile, directory: directory)
        try measureSimulate(journal: journal, directory: directory)
        if options.skipServe {
            metrics.setText("serve_status", "skipped: --no-serve")
        } else {
            try measureServe(journal: journal, directory: directory)
        }

        // The big log.
        start = System.now()
        let bigFile = directory + "/big.ndjson"
        let big = Workload(seed: 2, events: options.bigEvents)
        var bigWriter = try NDJSONWriter(path: bigFile)
        var remaining = options.bigEvents
        while remaining > 0 {
            let chunk = big.next(min(remaining, 100_000))
            guard !chunk.isEmpty else { break }
            try bigWriter.write(chunk)
            remaining -= chunk.count
        }
        let bigEvents = options.bigEvents - remaining
        try bigWriter.close()
        log(
            "generated the big log: \(bigEvents) events, \(bigWriter.bytes / 1_000_000) MB NDJSON "
                + "(\(Int(Double(bigEvents) / (System.now() - start))) events/s)"
        )
        try measureBigLog(
            bigFile, events: bigEvents, ndjsonBytes: bigWriter.bytes, journal: journal, directory: directory)
        computeRatios()
        print(Report.table(metrics, options: options))
        try writeJSONIfAsked()
        log("done")
    }

    /// What a reader pays before it answers (spec §9, docs/decisions/cut-checks.md): the cut
    /// check every reading command makes once (`checkForCuts()`), and the read models' check of
    /// the event at their checkpoint (one checked event read at the head, and the head), which
    /// `query`, `find` and `report` add. Warm cache, after a warm-up.
    private func measureCutChecks(_ store: SQLiteEventStore) throws {
        func latencies(_ body: () throws -> Void) throws -> [Double] {
            for _ in 0..<100 { try body() }
            var result: [Double] = []
            result.reserveCapacity(options.auditSamples)
            for _ in 0..<options.auditSamples {
                let start = System.now()
                try body()
                result.append((System.now() - start) * 1_000)
            }
            return result
        }
        let cuts = try latencies { try store.checkForCuts() }
        let folded = try latencies { _ = try store.readAll(from: try store.headPosition(), limit: 1) }
        for (name, values) in [("cut_check", cuts), ("folded_check", folded)] {
            metrics["\(name)_p50_ms"] = Statistics.percentile(values, 0.5)
            metrics["\(name)_p99_ms"] = Statistics.percentile(values, 0.99)
            let p50 = Metrics.decimal(Statistics.percentile(values, 0.5), places: 3)
            let p99 = Metrics.decimal(Statistics.percentile(values, 0.99), places: 3)
            log("\(name): \(values.count) runs, p50 \(p50) ms, p99 \(p99) ms")
        }
    }

    /// `--audit JOURNAL`: the audit latency over an existing journal, after one warm-up pass over
    /// the same seeded streams (the full run measures it on a warm cache too, after the reads).
    private func measureAuditOnly(_ path: String) throws {
        var configuration = SQLiteEventStore.Configuration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        let count = try store.headPosition()
        _ = try JournalBench.audit(store, samples: options.auditSamples)
        let (latencies, meanEvents) = try JournalBench.audit(store, samples: options.auditSamples)
        metrics["audit_log_events"] = Double(count)
        metrics["audit_p50_ms"] = Statistics.percentile(latencies, 0.5)
        metrics["audit_p99_ms"] = Statistics.percentile(latencies, 0.99)
        metrics["audit_stream_length_mean"] = meanEvents
        log(
            """
            audit: \(latencies.count) random streams of a \(count)-event log \
            (\(Metrics.decimal(meanEvents, places: 1)) events each on average), p50 \
            \(Metrics.decimal(Statistics.percentile(latencies, 0.5), places: 3)) ms, p99 \
            \(Metrics.decimal(Statistics.percentile(latencies, 0.99), places: 3)) ms
            """
        )
        try measureCutChecks(store)
        // Positions up to the latest kept checkpoint's size, which `prove` proves against.
        if let journal = Bench.findJournalExecutable(), let size = try store.checkpoints().map(\.size).max() {
            let directory = try System.temporaryDirectory(prefix: "journal-bench-")
            defer { System.removeTree(directory) }
            try measureEvidence(path: path, journal: journal, directory: directory, size: size) { position in
                try store.readAll(from: position, limit: 1).first?.stream.rawValue
            }
        } else {
            log("prove and bundle: skipped (no kept checkpoint in \(path), or no release journal executable)")
        }
        try writeJSONIfAsked()
    }

    /// Signs a checkpoint of the big log with a new key, so that `prove` and `bundle` have one.
    private func signCheckpoint(path: String, journal: String, directory: String) throws {
        let key = directory + "/bench.key"
        System.remove(key)
        _ = try runJournal(journal, ["keygen", "bench.example/journal", "--out", key], directory: directory)
        _ = try runJournal(journal, ["checkpoint", "--key", key, "--db", path], directory: directory)
    }

    /// `journal ARGUMENTS` as a child process, its output dropped; a failure throws with its stderr.
    private func runJournal(_ journal: String, _ arguments: [String], directory: String) throws
        -> System.ChildResult
    {
        let stderrPath = directory + "/journal-command.err"
        let result = try System.run([journal] + arguments, stdoutPath: "/dev/null", stderrPath: stderrPath)
        guard result.status == 0 else {
            throw BenchError(
                "journal \(arguments.joined(separator: " "))",
                "exit \(result.status): \(System.readText(stderrPath) ?? "")")
        }
        return result
    }

    /// `journal prove` and `journal bundle` as a user runs them, process start included:
    /// `evidenceSamples` random positions of the journal's latest kept checkpoint and the streams of
    /// their events, each command run once untimed first.
    private func measureEvidence(
        path: String, journal: String, directory: String, size: Int64, streamAt: (Int64) throws -> String?
    ) throws {
        var random = SeededRandom(seed: 11)
        var proofs: [Double] = []
        var bundles: [Double] = []
        func timed(_ arguments: [String]) throws -> Double {
            try runJournal(journal, arguments, directory: directory).seconds * 1_000
        }
        for sample in 0...Self.evidenceSamples {
            let position = Int64(random.int(below: Int(size))) + 1
            guard let stream = try streamAt(position) else { continue }
            let proof = try timed(["prove", String(position), "--db", path])
            let bundle = try timed(["bundle", stream, "--out", directory + "/bench-bundle.json", "--db", path])
            // The first sample warms the page cache and the executable's pages.
            if sample > 0 {
                proofs.append(proof)
                bundles.append(bundle)
            }
        }
        guard !proofs.isEmpty else { return }
        metrics["evidence_log_events"] = Double(size)
        metrics["prove_p50_ms"] = Statistics.percentile(proofs, 0.5)
        metrics["prove_p95_ms"] = Statistics.percentile(proofs, 0.95)
        metrics["bundle_p50_ms"] = Statistics.percentile(bundles, 0.5)
        metrics["bundle_p95_ms"] = Statistics.percentile(bundles, 0.95)
        log(
            """
            prove and bundle over a \(size)-event log, \(proofs.count) random positions, process start \
            included: prove p50 \(Metrics.decimal(Statistics.percentile(proofs, 0.5), places: 2)) ms, p95 \
            \(Metrics.decimal(Statistics.percentile(proofs, 0.95), places: 2)) ms; bundle p50 \
            \(Metrics.decimal(Statistics.percentile(bundles, 0.5), places: 2)) ms, p95 \
            \(Metrics.decimal(Statistics.percentile(bundles, 0.95), places: 2)) ms
            """
        )
    }

    /// Timed runs of `prove` and of `bundle` (after one untimed run of each).
    static let evidenceSamples = 30

    /// `--json FILE`: the metrics as one JSON object.
    func writeJSONIfAsked() throws {
        guard let path = options.jsonPath else { return }
        let file = try OutputFile(path: path)
        try file.write(Array(metrics.json().utf8))
        file.close()
        log("wrote \(path)")
    }

    // MARK: - Appends

    private func measureAppends(_ events: [BenchEvent], directory: String) throws {
        let rows = RawBench.rows(events[...])
        var sizes: [(batch: Int, count: Int)] = [
            (1_000, events.count), (100, events.count),
            (10, options.b10Events), (1, options.b1Events)
        ]
        if let only = options.onlyBatch { sizes = [(only, events.count)] }
        for (batch, count) in sizes {
            var ours: [Timing] = []
            var raw: [Timing] = []
            for run in 0..<options.runs {
                ours.append(
                    try JournalBench.append(events[..<count], batch: batch, path: directory + "/journal-b\(batch).db"))
                raw.append(try RawBench.append(rows[..<count], batch: batch, path: directory + "/raw-b\(batch).db"))
                if batch == 1_000 && run == options.runs - 1 {
                    RawSQLite.checkpoint(path: directory + "/raw-b1000.db")
                    metrics["raw_bytes_per_event"] =
                        Double(
                            System.fileSize(directory + "/raw-b1000.db")
                                + System.fileSize(directory + "/raw-b1000.db-wal")) / Double(count)
                    var reads: [Double] = []
                    for _ in 0..<options.runs {
                        reads.append(try RawBench.readAll(path: directory + "/raw-b1000.db").eps)
                    }
                    metrics["raw_read_all_eps"] = Statistics.median(reads)
                }
            }
            metrics["append_b\(batch)_eps"] = Statistics.median(ours.map(\.eps))
            metrics["raw_append_b\(batch)_eps"] = Statistics.median(raw.map(\.eps))
            if batch >= 100 {
                metrics["append_b\(batch)_cpu_eps"] = Statistics.median(ours.map(\.cpuEPS))
                metrics["raw_append_b\(batch)_cpu_eps"] = Statistics.median(raw.map(\.cpuEPS))
            }
            log(
                """
                append, \(batch) per commit, \(count) events: journal \(Int(Statistics.median(ours.map(\.eps))))/s \
                (CPU \(Int(Statistics.median(ours.map(\.cpuEPS))))/s), raw \(Int(Statistics.median(raw.map(\.eps))))/s \
                (CPU \(Int(Statistics.median(raw.map(\.cpuEPS))))/s); runs: \(ours.map { Int($0.eps) }) / \
                \(raw.map { Int($0.eps) })
                """
            )
            System.removeDatabase(directory + "/journal-b\(batch).db")
            System.removeDatabase(directory + "/raw-b\(batch).db")
        }
        guard options.onlyBatch == nil else { return }
        var ours: [Double] = []
        var raw: [Double] = []
        let count = options.groupEvents
        // The raw writers pay one fsync each, like one writer at one event per commit: they get
        // as many events as that run, not the journal's group-commit count.
        let rawCount = min(count, max(options.b1Events, options.groupWriters))
        for _ in 0..<options.runs {
            ours.append(
                try JournalBench.appendGroup(
                    events[..<count], writers: options.groupWriters, path: directory + "/journal-group.db"))
            raw.append(
                try RawBench.appendGroup(
                    rows[..<rawCount], writers: options.groupWriters, path: directory + "/raw-group.db"))
        }
        metrics["append_group_eps"] = Statistics.median(ours)
        metrics["raw_append_group_eps"] = Statistics.median(raw)
        log(
            "append, \(options.groupWriters) concurrent writers of one event, \(count) events (raw: \(rawCount)): "
                + "journal \(Int(Statistics.median(ours)))/s, raw \(Int(Statistics.median(raw)))/s"
        )
        System.removeDatabase(directory + "/journal-group.db")
        System.removeDatabase(directory + "/raw-group.db")
    }

    // MARK: - Peer

    private func measurePeer(_ file: String, directory: String) throws {
        guard !options.skipPeer else {
            notes.append("peer skipped (--no-peer)")
            metrics.setText("peer_status", "skipped: --no-peer")
            return
        }
        guard let script = baselineScript("bench/peers/run-eventsourcing.sh", name: "peer", statusKey: "peer_status")
        else { return }
        guard
            let (object, seconds) = try runBaselineScript(
                [
                    "/bin/bash", script, file, "--events", "\(options.appendEvents)",
                    "--b10-events", "\(options.b10Events)", "--b1-events", "\(options.b1Events)",
                    "--runs", "\(options.runs)"
                ], name: "peer", statusKey: "peer_status", directory: directory)
        else { return }
        metrics.setText("peer_status", "eventsourcing 9.5.6 on SQLite")
        for (key, value) in object {
            if case let .number(number) = value, let double = Double(number.description) { metrics[key] = double }
        }
        log(
            "peer (eventsourcing) in \(Int(seconds)) s: "
                + object.keys.map { key in
                    "\(key)=\(Int(metrics[key] ?? 0))"
                }.joined(separator: " "))
    }

    // MARK: - Import

    private func measureImport(_ file: String, events: Int, journal: String, directory: String) throws {
        var rates: [Double] = []
        var cpuRates: [Double] = []
        let path = directory + "/import.db"
        for _ in 0..<options.runs {
            System.removeDatabase(path)
            let result = try System.run(
                [journal, "import", file, "--db", path], stdoutPath: "/dev/null",
                stderrPath: directory + "/import.err")
            guard result.status == 0 else {
                throw BenchError(
                    "journal import", "exit \(result.status): \(System.readText(directory + "/import.err") ?? "")")
            }
            rates.append(Double(events) / result.seconds)
            cpuRates.append(Double(events) / result.cpuSeconds)
        }
        System.removeDatabase(path)
        metrics["import_eps"] = Statistics.median(rates)
        metrics["import_cpu_eps"] = Statistics.median(cpuRates)
        log(
            "journal import of \(events) events: \(Int(Statistics.median(rates)))/s, CPU "
                + "\(Int(Statistics.median(cpuRates)))/s (runs: \(rates.map { Int($0) }))"
        )
    }

    /// `journal ARGUMENTS` over the big log, as a user runs it (`replay --all`: the scan with its
    /// link check, a JSON tree and a fold per event, the digest; `verify`: every link, version and
    /// tree tile), timed as a child process.
    private func runOverBigLog(journal: String, _ arguments: [String], events: Int, directory: String) throws
        -> Timing
    {
        let result = try runJournal(journal, arguments, directory: directory)
        return Timing(events: events, wall: result.seconds, cpu: result.cpuSeconds)
    }

    /// `replay --all --record FILE` and `--against FILE` over the big log (spec §12), each
    /// round also running `replay --all`, so that each is timed against `replay --all` in the
    /// same round (goal: within 1.5× its time; the ratios are medians of the rounds'), with the
    /// record's bytes per event and each command's peak RSS.
    private func measureReplayRecord(
        path: String, events: Int, journal: String, directory: String, rounds: Int? = nil
    ) throws {
        let record = directory + "/big.rec"
        var replays: [System.ChildResult] = []
        var records: [System.ChildResult] = []
        var againsts: [System.ChildResult] = []
        for _ in 0..<(rounds ?? options.bigRuns) {
            System.remove(record)
            replays.append(try runJournal(journal, ["replay", "--all", "--db", path], directory: directory))
            records.append(
                try runJournal(journal, ["replay", "--all", "--record", record, "--db", path], directory: directory))
            againsts.append(
                try runJournal(journal, ["replay", "--all", "--against", record, "--db", path], directory: directory))
        }
        let count = Double(events)
        for (key, runs) in [("replay_record", records), ("replay_against", againsts)] {
            metrics[key + "_eps"] = Statistics.median(runs.map { count / $0.seconds })
            metrics[key + "_cpu_eps"] = Statistics.median(runs.map { count / $0.cpuSeconds })
            metrics[key + "_ratio_replay"] = Statistics.median(zip(runs, replays).map { $0.seconds / $1.seconds })
            metrics[key + "_cpu_ratio_replay"] = Statistics.median(
                zip(runs, replays).map { $0.cpuSeconds / $1.cpuSeconds })
            metrics[key + "_peak_rss_mb"] = Double(runs.map(\.maxRSSBytes).max() ?? 0) / 1_048_576
        }
        metrics["replay_rounds_all_eps"] = Statistics.median(replays.map { count / $0.seconds })
        metrics["replay_rounds_all_cpu_eps"] = Statistics.median(replays.map { count / $0.cpuSeconds })
        metrics["replay_all_peak_rss_mb"] = Double(replays.map(\.maxRSSBytes).max() ?? 0) / 1_048_576
        metrics["replay_record_bytes_per_event"] = Double(System.fileSize(record)) / count
        func figures(_ key: String) -> String {
            "\(Int(metrics[key + "_eps"] ?? 0))/s (CPU \(Int(metrics[key + "_cpu_eps"] ?? 0))/s, "
                + "\(Metrics.decimal(metrics[key + "_ratio_replay"] ?? 0, places: 2))× replay --all's time, "
                + "\(Metrics.decimal(metrics[key + "_cpu_ratio_replay"] ?? 0, places: 2))× its CPU)"
        }
        log(
            "replay --all \(Int(metrics["replay_rounds_all_eps"] ?? 0))/s (CPU "
                + "\(Int(metrics["replay_rounds_all_cpu_eps"] ?? 0))/s); --record \(figures("replay_record")); "
                + "--against \(figures("replay_against")); record \(System.fileSize(record)) bytes, "
                + "\(Metrics.decimal(metrics["replay_record_bytes_per_event"] ?? 0, places: 1)) an event")
        System.remove(record)
    }

    /// `--replay JOURNAL`: only the replay rows (``measureReplayRecord``) over an existing journal
    /// file, read only (the record is written in a temporary folder).
    private func measureReplayOnly(_ path: String, journal: String) throws {
        var configuration = SQLiteEventStore.Configuration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        let events = try SQLiteEventStore(path: path, configuration: configuration).headPosition()
        let directory = try System.temporaryDirectory(prefix: "journal-bench-")
        defer { System.removeTree(directory) }
        metrics["replay_log_events"] = Double(events)
        try measureReplayRecord(
            path: path, events: Int(events), journal: journal, directory: directory, rounds: options.runs)
        metrics["replay_all_eps"] = metrics["replay_rounds_all_eps"]
        metrics["replay_all_cpu_eps"] = metrics["replay_rounds_all_cpu_eps"]
    }

    // MARK: - The big log

    private func measureBigLog(_ file: String, events: Int, ndjsonBytes: Int64, journal: String, directory: String)
        throws
    {
        let path = directory + "/big.db"
        System.removeDatabase(path)
        let result = try System.run(
            [journal, "import", file, "--db", path], stdoutPath: "/dev/null",
            stderrPath: directory + "/import-big.err")
        guard result.status == 0 else {
            throw BenchError(
                "journal import (big)", "exit \(result.status): \(System.readText(directory + "/import-big.err") ?? "")"
            )
        }
        let count = Double(events)
        metrics["import_big_events"] = count
        metrics["import_big_eps"] = count / result.seconds
        metrics["import_big_cpu_eps"] = count / result.cpuSeconds
        metrics["import_peak_rss_mb"] = Double(result.maxRSSBytes) / 1_048_576
        // The import is one transaction: its pages sit in the WAL until a checkpoint. Sizes are
        // compared after one, as the file will be at rest.
        RawSQLite.checkpoint(path: path)
        let size = System.fileSize(path) + System.fileSize(path + "-wal")
        metrics["bytes_per_event"] = Double(size) / count
        metrics["ndjson_bytes_per_event"] = Double(ndjsonBytes) / count
        metrics["bytes_per_event_ratio_ndjson"] = Double(size) / Double(ndjsonBytes)
        log(
            "journal import of the big log: \(Int(count / result.seconds))/s, peak RSS "
                + "\(result.maxRSSBytes / 1_048_576) MB, \(size / 1_000_000) MB on disk"
        )
        System.remove(file)

        let store = try SQLiteEventStore(path: path)
        var reads: [Timing] = []
        var recordedReads: [Timing] = []
        var scans: [Timing] = []
        var replays: [Timing] = []
        var verifies: [Timing] = []
        var rebuilds: [Timing] = []
        for _ in 0..<options.bigRuns {
            let read = try JournalBench.readAll(store)
            reads.append(read)
            recordedReads.append(try JournalBench.readAllRecorded(store))
            scans.append(try JournalBench.scanAll(store))
            let replay = try runOverBigLog(
                journal: journal, ["replay", "--all", "--db", path], events: Int(count), directory: directory)
            replays.append(replay)
            verifies.append(
                try runOverBigLog(journal: journal, ["verify", "--db", path], events: Int(count), directory: directory))
            log(
                "read all \(Int(read.eps))/s (CPU \(Int(read.cpuEPS))/s), replay all "
                    + "\(Int(replay.eps))/s (CPU \(Int(replay.cpuEPS))/s)"
            )
        }
        metrics["read_all_eps"] = Statistics.median(reads.map(\.eps))
        metrics["read_all_cpu_eps"] = Statistics.median(reads.map(\.cpuEPS))
        metrics["read_all_recorded_eps"] = Statistics.median(recordedReads.map(\.eps))
        metrics["read_all_recorded_cpu_eps"] = Statistics.median(recordedReads.map(\.cpuEPS))
        metrics["scan_all_eps"] = Statistics.median(scans.map(\.eps))
        metrics["scan_all_cpu_eps"] = Statistics.median(scans.map(\.cpuEPS))
        log(
            "scan all (borrowing, no RecordedEvent) \(Int(Statistics.median(scans.map(\.eps))))/s (CPU "
                + "\(Int(Statistics.median(scans.map(\.cpuEPS))))/s)"
        )
        metrics["replay_all_eps"] = Statistics.median(replays.map(\.eps))
        metrics["replay_all_cpu_eps"] = Statistics.median(replays.map(\.cpuEPS))
        try measureReplayRecord(path: path, events: events, journal: journal, directory: directory)
        metrics["verify_eps"] = Statistics.median(verifies.map(\.eps))
        metrics["verify_cpu_eps"] = Statistics.median(verifies.map(\.cpuEPS))
        log(
            "journal verify \(Int(Statistics.median(verifies.map(\.eps))))/s (CPU "
                + "\(Int(Statistics.median(verifies.map(\.cpuEPS))))/s)")
        let (latencies, meanEvents) = try JournalBench.audit(store, samples: options.auditSamples)
        metrics["audit_log_events"] = count
        metrics["audit_p50_ms"] = Statistics.percentile(latencies, 0.5)
        metrics["audit_p99_ms"] = Statistics.percentile(latencies, 0.99)
        metrics["audit_stream_length_mean"] = meanEvents
        log(
            """
            audit: \(latencies.count) random streams of a \(events)-event log, p50 \
            \(Metrics.decimal(Statistics.percentile(latencies, 0.5), places: 3)) ms, p99 \
            \(Metrics.decimal(Statistics.percentile(latencies, 0.99), places: 3)) ms
            """
        )
        try signCheckpoint(path: path, journal: journal, directory: directory)
        try measureEvidence(path: path, journal: journal, directory: directory, size: Int64(events)) { position in
            try store.readAll(from: position, limit: 1).first?.stream.rawValue
        }
        for _ in 0..<options.bigRuns {
            let rebuild = try JournalBench.rebuild(path: path, store: store)
            rebuilds.append(rebuild)
            log("rebuild every projection: \(Int(rebuild.eps))/s (CPU \(Int(rebuild.cpuEPS))/s)")
        }
        metrics["rebuild_eps"] = Statistics.median(rebuilds.map(\.eps))
        metrics["rebuild_cpu_eps"] = Statistics.median(rebuilds.map(\.cpuEPS))
        try measureImportIntoExisting(bigJournal: path, journal: journal, directory: directory)
        try measureMirror(path: path, journal: journal, directory: directory, events: events)
    }

    private func computeRatios() {
        for name in ["append_b1000", "append_b100", "append_b10", "append_b1", "append_group", "simulate"] {
            guard let ours = metrics["\(name)_eps"] else { continue }
            if let peer = metrics["peer_\(name)_eps"], peer > 0 { metrics["\(name)_ratio_peer"] = ours / peer }
            if let raw = metrics["raw_\(name)_eps"], raw > 0 { metrics["\(name)_ratio_raw"] = ours / raw }
        }
        if let ours = metrics["import_eps"], let naive = metrics["naive_loader_eps"], naive > 0 {
            metrics["import_ratio_naive"] = ours / naive
        }
        if let ours = metrics["read_all_eps"], let raw = metrics["raw_read_all_eps"], raw > 0 {
            metrics["read_all_ratio_raw"] = ours / raw
        }
        if let ours = metrics["read_all_eps"], let peer = metrics["peer_read_all_eps"], peer > 0 {
            metrics["read_all_ratio_peer"] = ours / peer
        }
    }

    // MARK: - Locations

    static func findJournalExecutable() -> String? {
        guard let directory = System.executableDirectory() else { return nil }
        let path = directory + "/journal"
        return System.fileExists(path) ? path : nil
    }

    /// The repository's baseline script at `path`, or nil (its status set to skipped and a log
    /// line written) when the bench does not run from the repository.
    func baselineScript(_ path: String, name: String, statusKey: String) -> String? {
        if let script = Bench.findRepositoryFile(path) { return script }
        metrics.setText(statusKey, "skipped: \(path) not found")
        log("\(name) skipped: \(path) not found (run from the repository)")
        return nil
    }

    /// Runs a baseline script (a Python peer) whose standard output is one JSON object of
    /// metrics, with its output in `directory`. Nil when it fails: the reason (its standard
    /// error, or its exit status) goes to `statusKey` and the log.
    func runBaselineScript(_ command: [String], name: String, statusKey: String, directory: String) throws
        -> (object: JSONObject, seconds: Double)?
    {
        let output = directory + "/\(statusKey).json"
        let errors = directory + "/\(statusKey).err"
        let result = try System.run(command, stdoutPath: output, stderrPath: errors)
        guard result.status == 0, let text = System.readText(output),
            case let .object(object)? = try? JSONParser().parse(text)
        else {
            let stderrText = (System.readText(errors) ?? "").trimmingTrailingNewlines()
            let reason = stderrText.isEmpty ? "exit \(result.status), no output" : stderrText
            metrics.setText(statusKey, "skipped: \(reason)")
            log("\(name) skipped: \(reason)")
            return nil
        }
        return (object, result.seconds)
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
