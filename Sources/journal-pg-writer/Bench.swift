import EventStore
import JournalCore

#if canImport(Glibc)
    import JournalTestSupport
    import Glibc
#endif

// `journal-pg-writer bench [EVENTS]`: the PostgreSQL benchmark, beside SQLite on the same
// workload. Starts a private PostgreSQL 15 server with its default durable settings (fsync on,
// synchronous_commit on), runs each scenario into a fresh schema, prints one line per figure.

func monotonicSeconds() -> Double {
    Double(SystemClock.monotonicNanoseconds()) / 1e9
}

func hex12(_ n: Int) -> String {
    let text = String(n, radix: 16)
    return String(repeating: "0", count: max(12 - text.count, 0)) + text
}

/// The same event shape as the writer processes: ~130 bytes of JSON, streams of ~100 events.
func benchEvent(_ writer: Int, _ n: Int) -> (StreamName, ProposedEvent) {
    let stream = try! StreamName(
        "3ds-5e000000-\(String(repeating: "0", count: 3))\(writer)-4000-8000-\(hex12(n % 3 + (n / 300) * 3))")
    let data = #"{"writer":\#(writer),"n":\#(n),"acsTransID":"acacacac-0000-4000-8000-\#(hex12(n))","channel":"app"}"#
    return (
        stream,
        ProposedEvent(
            id: "77000000-000\(writer)-4000-8000-\(hex12(n))", type: "ChallengeRequestSent",
            occurredAt: Timestamp(millisecondsSinceEpoch: 1_796_292_000_000 + Int64(n)),
            data: Array(data.utf8))
    )
}

/// Appends `total` events, `perCommit` per append call (one transaction each); rows/s.
func appendRate(_ store: any EventStore, total: Int, perCommit: Int, writer: Int = 0) throws -> Double {
    let start = monotonicSeconds()
    var n = 0
    while n < total {
        var parts: [StreamAppend] = []
        for k in n..<min(n + perCommit, total) {
            let (stream, event) = benchEvent(writer, k)
            if let last = parts.indices.last, parts[last].stream == stream {
                parts[last].events.append(event)
            } else {
                parts.append(StreamAppend(stream: stream, events: [event]))
            }
        }
        try store.append(parts)
        n += perCommit
    }
    return Double(total) / (monotonicSeconds() - start)
}

func readAllRate(_ store: any EventStore) throws -> (Double, Int) {
    let start = monotonicSeconds()
    var next: Int64 = 1
    var count = 0
    while true {
        let page = try store.readAll(from: next, limit: 1_000)
        guard let last = page.last else { break }
        count += page.count
        next = last.position + 1
    }
    return (Double(count) / (monotonicSeconds() - start), count)
}

/// The reference: plain INSERTs of the same rows through libpq pipeline mode, no hashing, no
/// validation, positions from a bigserial (the toolchain notes' 55k–68k rows/s baseline).
func rawPipelineRate(_ url: String, total: Int, perCommit: Int) throws -> Double {
    let pg = try PostgresConnection(url)
    try pg.execute(
        """
        CREATE TABLE raw_events(position bigserial PRIMARY KEY, stream_id text NOT NULL, version bigint NOT NULL,
                                type text NOT NULL, data bytea NOT NULL, UNIQUE(stream_id, version))
        """)
    let start = monotonicSeconds()
    var versions: [String: Int64] = [:]
    var n = 0
    while n < total {
        var statements = [PostgresStatement("BEGIN")]
        for k in n..<min(n + perCommit, total) {
            let (stream, event) = benchEvent(0, k)
            let version = (versions[stream.rawValue] ?? -1) + 1
            versions[stream.rawValue] = version
            statements.append(
                PostgresStatement(
                    "INSERT INTO raw_events(stream_id, version, type, data) VALUES ($1, $2, $3, $4)",
                    [.text(stream.rawValue), .int64(version), .text(event.type), .bytea(event.data)]))
        }
        statements.append(PostgresStatement("COMMIT"))
        _ = try pg.pipeline(statements)
        n += perCommit
    }
    return Double(total) / (monotonicSeconds() - start)
}

func runBench(events: Int) throws {
    let server = try PostgresScratchServer.start()
    defer { server.stop() }
    var schemaNumber = 0
    func freshURL() throws -> String {
        schemaNumber += 1
        try PostgresConnection(server.url()).execute("CREATE SCHEMA bench\(schemaNumber)")
        return server.url(schema: "bench\(schemaNumber)")
    }
    func freshSQLite() -> String {
        var template = Array("/tmp/journal-bench-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "/bench.db"
    }
    func line(_ label: String, _ rate: Double, _ unit: String = "rows/s") {
        print(label.padding(60) + String(Int(rate.rounded())).leftPadding(9) + " " + unit)
    }
    let single = max(events / 50, 200)
    print(
        "PostgreSQL \(try PostgresConnection(server.url()).serverVersion), fsync on, synchronous_commit on; "
            + "SQLite WAL synchronous=FULL; \(events) events per batched run")
    for perCommit in [100, 1_000] {
        line(
            "raw libpq pipeline INSERT, \(perCommit)/commit (reference)",
            try rawPipelineRate(try freshURL(), total: events, perCommit: perCommit))
    }
    for perCommit in [1, 100, 1_000] {
        let total = perCommit == 1 ? single : events
        let postgres = try PostgresEventStore(url: try freshURL())
        line(
            "PostgreSQL store append, \(perCommit)/commit", try appendRate(postgres, total: total, perCommit: perCommit)
        )
        let sqlite = try SQLiteEventStore(path: freshSQLite())
        line("SQLite store append, \(perCommit)/commit", try appendRate(sqlite, total: total, perCommit: perCommit))
        if perCommit == 1_000 {
            let (postgresRead, count) = try readAllRate(postgres)
            line("PostgreSQL store read all (\(count) events, pages of 1000)", postgresRead, "events/s")
            let (sqliteRead, sqliteCount) = try readAllRate(sqlite)
            line("SQLite store read all (\(sqliteCount) events, pages of 1000)", sqliteRead, "events/s")
        }
    }
    // Four writer processes, 100 events per commit each, into one journal.
    for (label, location) in [("PostgreSQL", try freshURL()), ("SQLite", freshSQLite())] {
        if label == "PostgreSQL" {
            _ = try PostgresEventStore(url: location)
        } else {
            _ = try SQLiteEventStore(path: location)
        }
        let perWriter = events / 4
        let start = monotonicSeconds()
        var pids: [pid_t] = []
        for writer in 0..<4 {
            var pid = pid_t()
            let arguments = [CommandLine.arguments[0], location, String(writer), String(perWriter), "100"]
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else { fail("cannot spawn a writer") }
            for pointer in argv { free(pointer) }
            pids.append(pid)
        }
        for pid in pids {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            if status != 0 { fail("a writer process failed (status \(status))") }
        }
        line(
            "\(label) store append, 4 writer processes × 100/commit",
            Double(perWriter * 4) / (monotonicSeconds() - start))
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(width - count, 0)) }
    func leftPadding(_ width: Int) -> String { String(repeating: " ", count: max(width - count, 0)) + self }
}
