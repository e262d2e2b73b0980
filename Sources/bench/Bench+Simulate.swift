import JournalCore

extension Bench {
    /// `journal simulate` as a user runs it (a child process, seed 1, five transactions to one
    /// digitization, about `bigEvents` events: the goal is for journals of millions, and a run of
    /// 200,000 is mostly its two threads starting and finishing): into a fresh journal, and with `--ndjson` to
    /// /dev/null, which is the generator alone. The raw column of its row is the raw baseline's
    /// 1000-per-commit append of simulator events from the same run: what bare SQLite inserts
    /// of such events cost, without the generator, ids, hashes or compression.
    func measureSimulate(journal: String, directory: String) throws {
        let transactions = max(1, options.bigEvents / 7)
        let workload = [
            "simulate", "--seed", "1", "--transactions", "\(transactions)",
            "--digitizations", "\(max(1, transactions / 5))"
        ]
        let path = directory + "/simulate.db"
        var stored: [Timing] = []
        var generated: [Timing] = []
        for _ in 0..<options.runs {
            System.removeDatabase(path)
            let summary = directory + "/simulate.json"
            let run = try System.run(
                [journal] + workload + ["--db", path, "--format", "json"], stdoutPath: summary,
                stderrPath: directory + "/simulate.err")
            guard run.status == 0, let events = Self.simulatedEvents(System.readText(summary)) else {
                throw BenchError(
                    "journal simulate", "exit \(run.status): \(System.readText(directory + "/simulate.err") ?? "")")
            }
            stored.append(Timing(events: events, wall: run.seconds, cpu: run.cpuSeconds))
            let ndjson = try System.run(
                [journal] + workload + ["--ndjson"], stdoutPath: "/dev/null",
                stderrPath: directory + "/simulate.err")
            guard ndjson.status == 0 else {
                throw BenchError(
                    "journal simulate --ndjson",
                    "exit \(ndjson.status): \(System.readText(directory + "/simulate.err") ?? "")")
            }
            generated.append(Timing(events: events, wall: ndjson.seconds, cpu: ndjson.cpuSeconds))
        }
        System.removeDatabase(path)
        metrics["simulate_eps"] = Statistics.median(stored.map(\.eps))
        metrics["simulate_cpu_eps"] = Statistics.median(stored.map(\.cpuEPS))
        metrics["simulate_ndjson_eps"] = Statistics.median(generated.map(\.eps))
        metrics["simulate_ndjson_cpu_eps"] = Statistics.median(generated.map(\.cpuEPS))
        if let raw = metrics["raw_append_b1000_eps"] { metrics["raw_simulate_eps"] = raw }
        log(
            """
            journal simulate of \(stored.first?.events ?? 0) events: into the store \
            \(Int(Statistics.median(stored.map(\.eps))))/s (CPU \(Int(Statistics.median(stored.map(\.cpuEPS))))/s), \
            generation alone (--ndjson) \(Int(Statistics.median(generated.map(\.eps))))/s (CPU \
            \(Int(Statistics.median(generated.map(\.cpuEPS))))/s)
            """
        )
    }

    /// The `events` count of `journal simulate --format json`'s summary.
    static func simulatedEvents(_ text: String?) -> Int? {
        guard let text, case let .object(summary)? = try? JSONParser().parse(text),
            case let .number(number)? = summary["events"]
        else { return nil }
        return Int(number.description)
    }
}
