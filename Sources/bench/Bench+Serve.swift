import JournalCore

extension Bench {
    /// `journal serve` under the project's compiled load generator (`bench/serve/loadgen.c`):
    /// `serveClients` keep-alive connections, one event per request, for `serveSeconds`, against a
    /// server on a fresh journal and a free loopback port. The figure is the server process's CPU
    /// time (user + system, every thread) over the load divided by the acknowledged events: what
    /// an event costs the server whatever the client takes of the same cores. Skipped (with a
    /// status) when the load generator's source or a C compiler is missing.
    func measureServe(journal: String, directory: String) throws {
        guard let loadgen = try buildLoadGenerator(directory: directory) else { return }
        var runs: [ServeRun] = []
        for _ in 0..<options.runs {
            let run = try serveOnce(journal: journal, loadgen: loadgen, directory: directory)
            runs.append(run)
            log(
                "serve, \(Self.serveClients) clients × 1 event, \(options.serveSeconds) s: "
                    + "\(Int(run.eventsPerSecond)) ev/s, \(Metrics.decimal(run.microsecondsPerEvent, places: 1)) µs "
                    + "server CPU per event, p99 \(Metrics.decimal(run.p99Milliseconds, places: 2)) ms, "
                    + "\(run.failures) failures")
        }
        metrics["serve_eps"] = Statistics.median(runs.map(\.eventsPerSecond))
        metrics["serve_cpu_eps"] = Statistics.median(runs.map { 1e6 / $0.microsecondsPerEvent })
        metrics["serve_server_cpu_us_per_event"] = Statistics.median(runs.map(\.microsecondsPerEvent))
        metrics["serve_p99_ms"] = Statistics.median(runs.map(\.p99Milliseconds))
    }

    /// Clients of the serve row, each on its own connection with one request in flight.
    static let serveClients = 64

    /// One run of the load generator against a new server.
    struct ServeRun {
        var eventsPerSecond: Double
        var microsecondsPerEvent: Double
        var p99Milliseconds: Double
        var failures: Int
    }

    /// `cc -O2 -pthread` of `bench/serve/loadgen.c` into the work directory; nil (the row skipped,
    /// its status set) without the source or a compiler.
    private func buildLoadGenerator(directory: String) throws -> String? {
        guard let source = baselineScript("bench/serve/loadgen.c", name: "serve", statusKey: "serve_status") else {
            return nil
        }
        guard let compiler = System.findExecutable("cc") else {
            metrics.setText("serve_status", "skipped: no cc on PATH to build bench/serve/loadgen.c")
            log("serve skipped: no cc on PATH")
            return nil
        }
        let binary = directory + "/serve-loadgen"
        let errors = directory + "/serve-loadgen.err"
        let result = try System.run(
            [compiler, "-O2", "-pthread", "-o", binary, source], stdoutPath: "/dev/null", stderrPath: errors)
        guard result.status == 0 else {
            throw BenchError("cc bench/serve/loadgen.c", "exit \(result.status): \(System.readText(errors) ?? "")")
        }
        return binary
    }

    private func serveOnce(journal: String, loadgen: String, directory: String) throws -> ServeRun {
        let path = directory + "/serve.db"
        let announcement = directory + "/serve.out"
        let errors = directory + "/serve.err"
        System.removeDatabase(path)
        // The access log goes to a file, as a deployment keeps it.
        let server = try System.spawn(
            [journal, "serve", "--db", path, "--listen", "127.0.0.1:0"], stdoutPath: announcement, stderrPath: errors)
        var stopped = false
        defer { if !stopped { _ = try? System.terminate(server, name: "journal serve") } }
        let port = try waitForPort(announcement, errors: errors)
        guard let before = System.processCPUSeconds(server) else {
            throw BenchError("journal serve", "cannot read /proc/\(server)/stat")
        }
        let output = directory + "/serve-loadgen.json"
        let load = try System.run(
            [loadgen, String(port), String(Self.serveClients), String(options.serveSeconds)], stdoutPath: output,
            stderrPath: directory + "/serve-loadgen-run.err")
        guard let after = System.processCPUSeconds(server) else {
            throw BenchError("journal serve", "it stopped during the load: \(System.readText(errors) ?? "")")
        }
        stopped = true
        let exit = try System.terminate(server, name: "journal serve")
        guard exit.status == 0 else {
            throw BenchError("journal serve", "exit \(exit.status) on SIGTERM: \(System.readText(errors) ?? "")")
        }
        guard load.status == 0, let text = System.readText(output),
            case let .object(object)? = try? JSONParser().parse(text),
            let acknowledged = Self.number(object["acknowledged"]), acknowledged > 0
        else {
            throw BenchError("serve load generator", "exit \(load.status), output: \(System.readText(output) ?? "")")
        }
        System.removeDatabase(path)
        return ServeRun(
            eventsPerSecond: Self.number(object["eventsPerSecond"]) ?? 0,
            microsecondsPerEvent: (after - before) * 1e6 / acknowledged,
            p99Milliseconds: Self.number(object["p99ms"]) ?? 0, failures: Int(Self.number(object["failures"]) ?? 0))
    }

    /// The port of `listening on http://127.0.0.1:PORT`, which the server prints once it accepts.
    private func waitForPort(_ announcement: String, errors: String) throws -> Int {
        let prefix = "listening on http://127.0.0.1:"
        let deadline = System.now() + 30
        while System.now() < deadline {
            // A whole line only: the file is read while the server writes it.
            let lines = (System.readText(announcement) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines.dropLast() where line.hasPrefix(prefix) {
                if let port = Int(line.dropFirst(prefix.count)) { return port }
            }
            System.sleep(seconds: 0.02)
        }
        throw BenchError("journal serve", "no 'listening on' line within 30 s: \(System.readText(errors) ?? "")")
    }

    private static func number(_ value: JSONValue?) -> Double? {
        guard case let .number(number)? = value else { return nil }
        return Double(number.description)
    }
}
