/// What `bench` runs. `--quick` shrinks every size so the whole run takes under two minutes.
struct BenchOptions {
    var quick = false
    var jsonPath: String?
    var workDirectory: String?
    var skipPeer = false
    var keepFiles = false
    /// Only the append measurements (journal and raw), for profiling the write path.
    var appendsOnly = false
    /// With `--appends-only`: only this batch size (no group run).
    var onlyBatch: Int?
    /// Only the audit latency, over an existing journal (e.g. a 10 M-event import).
    var auditJournal: String?
    /// Only read all over an existing journal, beside raw SQLite's read of the same events.
    var readJournal: String?
    /// Only the simulator's generator (`SimulationAppender.generate`): this many transactions
    /// and a fifth as many digitizations, no store.
    var generatorTransactions: Int?
    /// Repetitions of each measured step (medians are quoted).
    var runs = 3
    /// Events of the append workload (batches of 1000 and 100, the peer, the import medians).
    var appendEvents = 200_000
    var b10Events = 20_000
    var b1Events = 2_000
    var groupEvents = 20_000
    var groupWriters = 64
    /// Events of the big log: imported once (peak memory), then read, replayed, rebuilt, audited.
    /// 1 M by default: at the import rate measured on the 2-core machine (BENCHMARKS.md) a 10 M
    /// log alone would take longer than the 15-minute budget; `--big-events 10000000` runs it.
    var bigEvents = 1_000_000
    /// Repetitions of the steps over the whole big log (read, replay, rebuild).
    var bigRuns = 3
    var auditSamples = 2_000
    /// Seconds of each serve run (64 clients × 1 event per request).
    var serveSeconds = 10
    var skipServe = false
    /// Only the serve row (a fresh journal, no append workload or big log).
    var serveOnly = false
    /// Only the replay rows (`replay --all`, `--record`, `--against`) over an existing journal.
    var replayJournal: String?

    static let usage = """
        usage: bench [--quick] [--json FILE] [--dir DIR] [--runs N] [--big-events N] [--append-events N] [--no-peer] \
        [--keep] [--appends-only [--batch N]] [--audit JOURNAL] [--read JOURNAL] [--generator N] \
        [--no-serve | --serve-only] [--serve-seconds N] [--replay JOURNAL]

          --quick          small sizes (under 2 minutes); the audit log is smaller than 10 M events
          --json FILE      also write one JSON object with the metric keys of issue 7
          --dir DIR        work directory for the databases and NDJSON files (default: a fresh one
                           under $TMPDIR, removed at the end unless --keep)
          --runs N         repetitions of each step (default 3; medians are reported)
          --big-events N   size of the big log (default 1000000; --quick: 200000)
          --append-events N  events of the append workload (default 200000; --quick: 20000)
          --no-peer        skip the Python eventsourcing peer
          --keep           keep the work directory
          --appends-only   only the append measurements (journal and raw), for profiling
          --batch N        with --appends-only: only N events per commit, no concurrent writers
          --audit JOURNAL  only the audit latency (audit_p99_ms) over an existing journal file, and
                           prove and bundle latency when it keeps a checkpoint (read only)
          --read JOURNAL   only read all over an existing journal file (read only): the lent and the
                           RecordedEvent forms, the borrowing scan and raw SQLite's read of a table
                           of the same events (made in the work directory), in turn, --runs times
          --generator N    only the simulator's generator: the store batches of N transactions and
                           N/5 digitizations (seed 1) built and dropped; events per CPU-second
          --no-serve       skip `journal serve` under the load generator (bench/serve/loadgen.c)
          --serve-only     only `journal serve` under the load generator
          --serve-seconds N  seconds of each serve run (default 10; --quick: 3)
          --replay JOURNAL only `replay --all`, `replay --all --record` and `--against` over an
                           existing journal file (read only), alternating, --runs rounds
        """

    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        var options = BenchOptions()
        var bigEvents: Int?
        var runs: Int?
        var appendEvents: Int?
        var serveSeconds: Int?
        var index = 0
        func value(_ name: String) throws(BenchError) -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("usage", "\(name) needs a value") }
            return arguments[index]
        }
        func number(_ name: String) throws(BenchError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number > 0 else {
                throw BenchError("usage", "\(name) needs a positive integer, got \(text)")
            }
            return number
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--quick": options.quick = true
            case "--json": options.jsonPath = try value("--json")
            case "--dir": options.workDirectory = try value("--dir")
            case "--runs": runs = try number("--runs")
            case "--big-events": bigEvents = try number("--big-events")
            case "--append-events": appendEvents = try number("--append-events")
            case "--no-peer": options.skipPeer = true
            case "--keep": options.keepFiles = true
            case "--appends-only": options.appendsOnly = true
            case "--batch": options.onlyBatch = try number("--batch")
            case "--audit": options.auditJournal = try value("--audit")
            case "--read": options.readJournal = try value("--read")
            case "--generator": options.generatorTransactions = try number("--generator")
            case "--no-serve": options.skipServe = true
            case "--serve-only": options.serveOnly = true
            case "--replay": options.replayJournal = try value("--replay")
            case "--serve-seconds": serveSeconds = try number("--serve-seconds")
            case "-h", "--help": throw BenchError("usage", "help")
            case let other: throw BenchError("usage", "unknown option \(other)")
            }
            index += 1
        }
        if options.quick {
            options.appendEvents = 20_000
            options.b10Events = 5_000
            options.b1Events = 300
            options.groupEvents = 3_000
            options.bigEvents = 200_000
            options.auditSamples = 500
            options.serveSeconds = 3
        }
        if let serveSeconds { options.serveSeconds = serveSeconds }
        if let runs { options.runs = runs }
        if let appendEvents {
            options.appendEvents = appendEvents
            options.b10Events = min(options.b10Events, appendEvents)
            options.b1Events = min(options.b1Events, appendEvents)
            options.groupEvents = min(options.groupEvents, appendEvents)
        }
        if let bigEvents { options.bigEvents = bigEvents }
        return options
    }
}
