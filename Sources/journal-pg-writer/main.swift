import EventStore
import JournalCore

// journal-pg-writer: appends a deterministic workload to a journal, as one of several
// concurrent writer processes. Used by the PostgreSQL concurrency test and the benchmark.
//
//   journal-pg-writer URL WRITER EVENTS BATCH
//   journal-pg-writer bench [EVENTS]        (the benchmark, see Bench.swift and docs/postgres.md)
//
// Writes EVENTS events with ids 77000000-<WRITER>-4000-8000-<n> in appends of BATCH events,
// each append spread over up to three streams of this writer (an atomic multi-stream append).
// URL is a postgres:// URL or a SQLite path. Prints "ok <events> <seconds>" on success; errors
// go to stderr (exit 1).
func fail(_ message: String) -> Never {
    try? FileDescriptor.standardError.writeAll(Array("error: \(message)\n".utf8))
    CurrentProcess.exit(1)
}

let arguments = CommandLine.arguments
if arguments.count >= 2 && arguments[1] == "bench" {
    do {
        try runBench(events: arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000)
    } catch {
        fail("\(error)")
    }
    CurrentProcess.exit(0)
}
guard arguments.count == 5, let writer = Int(arguments[2]), (0..<10_000).contains(writer),
    let total = Int(arguments[3]), total >= 0, let batch = Int(arguments[4]), batch > 0
else {
    fail("usage: journal-pg-writer URL WRITER(0-9999) EVENTS BATCH")
}
let location = arguments[1]

func hex(_ value: Int, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(digits - text.count, 0)) + text
}

func stream(_ n: Int) -> StreamName {
    try! StreamName("3ds-5e000000-\(hex(writer, digits: 4))-4000-8000-\(hex(n, digits: 12))")
}

let store: any EventStore
do {
    if PostgresURL.isPostgres(location) {
        store = try PostgresEventStore(url: location)
    } else {
        store = try SQLiteEventStore(path: location)
    }
} catch {
    fail("\(error)")
}

let start = monotonicSeconds()
let time = Timestamp("2026-11-29T09:00:00.000Z")!
var written = 0
while written < total {
    let count = min(batch, total - written)
    var parts: [String: [ProposedEvent]] = [:]
    var order: [StreamName] = []
    for n in written..<(written + count) {
        let name = stream(n % 3 + (n / 300) * 3)
        let data =
            #"{"writer":\#(writer),"n":\#(n),"#
            + #""acsTransID":"acacacac-0000-4000-8000-\#(hex(n, digits: 12))","channel":"app"}"#
        let event = ProposedEvent(
            id: "77000000-\(hex(writer, digits: 4))-4000-8000-\(hex(n, digits: 12))",
            type: "ChallengeRequestSent", occurredAt: time.adding(milliseconds: Int64(n)),
            data: Array(data.utf8))
        if parts[name.rawValue] == nil { order.append(name) }
        parts[name.rawValue, default: []].append(event)
    }
    do {
        try store.append(order.map { StreamAppend(stream: $0, expectedVersion: .any, events: parts[$0.rawValue]!) })
    } catch {
        fail("append at event \(written): \(error)")
    }
    written += count
}
let seconds = monotonicSeconds() - start
print("ok \(written) \(seconds)")
