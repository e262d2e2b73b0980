extension Bench {
    /// Spec §10 over the big log (which keeps a checkpoint by now), as child processes:
    /// `journal publish --out DIR` into an empty folder (`publish_full_ms`, goal < 30 s at
    /// 10 M events), then again after 10,000 new events and a new checkpoint
    /// (`publish_incremental_ms`, goal < 1 s); `journal restore` of the big log's export into a
    /// new journal (`restore_eps`), beside `journal import` of the same events into a new journal
    /// (`import_big_eps`): `restore_ratio_import`, goal ≥ 0.8. Runs last: it adds events to the
    /// big log's journal.
    func measureMirror(path: String, journal: String, directory: String, events: Int) throws {
        let export = directory + "/big-export.ndjson"
        let exported = try System.run([journal, "export", "--db", path], stdoutPath: export, stderrPath: "/dev/null")
        guard exported.status == 0 else { throw BenchError("journal export (big)", "exit \(exported.status)") }
        var restores: [Timing] = []
        let restored = directory + "/restored.db"
        for _ in 0..<options.bigRuns {
            System.removeDatabase(restored)
            let result = try runTimed(journal, ["restore", export, "--db", restored], directory: directory)
            restores.append(Timing(events: events, wall: result.seconds, cpu: result.cpuSeconds))
        }
        System.removeDatabase(restored)
        System.remove(export)
        metrics["restore_eps"] = Statistics.median(restores.map(\.eps))
        metrics["restore_cpu_eps"] = Statistics.median(restores.map(\.cpuEPS))
        if let imported = metrics["import_big_eps"], imported > 0, let restore = metrics["restore_eps"] {
            metrics["restore_ratio_import"] = restore / imported
        }
        log(
            "journal restore of the big log's export: \(Int(Statistics.median(restores.map(\.eps))))/s (CPU "
                + "\(Int(Statistics.median(restores.map(\.cpuEPS))))/s)")

        let mirror = directory + "/mirror"
        System.removeTree(mirror)
        let full = try runTimed(journal, ["publish", "--out", mirror, "--db", path], directory: directory)
        metrics["publish_full_ms"] = full.seconds * 1_000
        // 10,000 new events and a checkpoint of them, then the incremental run.
        let more = directory + "/more.ndjson"
        var writer = try NDJSONWriter(path: more)
        try writer.write(Workload(seed: 4, events: 10_000).next(10_000))
        try writer.close()
        _ = try runTimed(
            journal, ["import", more, "--db", path, "--sign", directory + "/bench.key"], directory: directory)
        System.remove(more)
        let incremental = try runTimed(journal, ["publish", "--out", mirror, "--db", path], directory: directory)
        metrics["publish_incremental_ms"] = incremental.seconds * 1_000
        System.removeTree(mirror)
        log(
            "journal publish of the big log: full \(Metrics.decimal(full.seconds, places: 2)) s, after 10,000 more "
                + "events \(Metrics.decimal(incremental.seconds * 1_000, places: 1)) ms")
    }

    /// `journal ARGUMENTS` as a child process, timed; a failure throws with its stderr.
    private func runTimed(_ journal: String, _ arguments: [String], directory: String) throws -> System.ChildResult {
        let stderrPath = directory + "/journal-mirror.err"
        let result = try System.run([journal] + arguments, stdoutPath: "/dev/null", stderrPath: stderrPath)
        guard result.status == 0 else {
            throw BenchError(
                "journal \(arguments.first ?? "")", "exit \(result.status): \(System.readText(stderrPath) ?? "")")
        }
        return result
    }
}
