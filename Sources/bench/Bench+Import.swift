import JournalCore

extension Bench {
    /// The naive Python loader (`bench/peers/naive_loader.py`: `json.loads` per line, `sqlite3`,
    /// 1000 rows per commit, unique id and (stream, version) indexes, the line's JSON stored as
    /// text) on the same file `journal import` was measured on, in the same run: the baseline of
    /// `import_ratio_naive`. Skipped, with the reason in `naive_loader_status`, when python3 or
    /// the script is not there.
    func measureNaiveLoader(_ file: String, directory: String) throws {
        guard let python = System.findExecutable("python3") else {
            metrics.setText("naive_loader_status", "skipped: python3 not found")
            log("naive loader skipped: python3 not found on PATH")
            return
        }
        guard
            let script = baselineScript(
                "bench/peers/naive_loader.py", name: "naive loader", statusKey: "naive_loader_status")
        else { return }
        guard
            let (object, _) = try runBaselineScript(
                [python, script, file, "--runs", "\(options.runs)", "--dir", directory], name: "naive loader",
                statusKey: "naive_loader_status", directory: directory)
        else { return }
        for key in ["naive_loader_eps", "naive_loader_cpu_eps"] {
            if case let .number(number)? = object[key], let value = Double(number.description) { metrics[key] = value }
        }
        metrics.setText("naive_loader_status", "python3 json + sqlite3, 1000 per commit")
        log(
            "naive Python loader: \(Int(metrics["naive_loader_eps"] ?? 0))/s "
                + "(CPU \(Int(metrics["naive_loader_cpu_eps"] ?? 0))/s)")
    }

    /// `journal import` of a second file (`events` new events of another seed) into a copy of the
    /// big log's journal: the import into a journal that already holds events, which checks every
    /// id against the index and folds each stream it touches.
    func measureImportIntoExisting(bigJournal: String, journal: String, directory: String) throws {
        let file = directory + "/existing.ndjson"
        let events = options.appendEvents
        var writer = try NDJSONWriter(path: file)
        try writer.write(Workload(seed: 3, events: events).next(events))
        try writer.close()
        let path = directory + "/existing.db"
        var timings: [Timing] = []
        for _ in 0..<options.runs {
            System.removeDatabase(path)
            for suffix in ["", "-wal"] where suffix.isEmpty || System.fileExists(bigJournal + suffix) {
                guard System.runQuietly(["/bin/cp", bigJournal + suffix, path + suffix]) == 0 else {
                    throw BenchError("copy \(bigJournal + suffix)", "cp failed")
                }
            }
            let result = try System.run(
                [journal, "import", file, "--db", path], stdoutPath: "/dev/null",
                stderrPath: directory + "/import-existing.err")
            guard result.status == 0 else {
                throw BenchError(
                    "journal import (existing journal)",
                    "exit \(result.status): \(System.readText(directory + "/import-existing.err") ?? "")")
            }
            timings.append(Timing(events: events, wall: result.seconds, cpu: result.cpuSeconds))
        }
        System.removeDatabase(path)
        System.remove(file)
        metrics["import_existing_eps"] = Statistics.median(timings.map(\.eps))
        metrics["import_existing_cpu_eps"] = Statistics.median(timings.map(\.cpuEPS))
        log(
            "journal import of \(events) events into the big log's journal: "
                + "\(Int(Statistics.median(timings.map(\.eps))))/s "
                + "(CPU \(Int(Statistics.median(timings.map(\.cpuEPS))))/s; runs: \(timings.map { Int($0.eps) }))")
    }

    /// A file of the repository, found from the working directory or from the executable's
    /// (`.build/release/bench`).
    static func findRepositoryFile(_ relative: String) -> String? {
        var candidates = [relative]
        if let directory = System.executableDirectory() {
            candidates.append(directory + "/../../" + relative)
            candidates.append(directory + "/../../../" + relative)
        }
        return candidates.first(where: System.fileExists)
    }
}

extension System {
    /// The first executable called `name` on `$PATH`.
    static func findExecutable(_ name: String) -> String? {
        let path = CurrentProcess.variable("PATH") ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
