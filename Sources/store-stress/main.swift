import EventStore
import JournalCore

// store-stress: a small executable for the EventStore tests and quick measurements.
//
//   store-stress append PATH WORKER COUNT      append COUNT events (one per append) as worker
//                                             WORKER, to streams shared with other workers
//   store-stress bench PATH EVENTS [BATCH]     release-mode timing of append, read-all, stream
//                                             reads and size (prints one line per metric)
func fail(_ message: String) -> Never {
    try? FileDescriptor.standardError.writeAll(Array("store-stress: \(message)\n".utf8))
    CurrentProcess.exit(2)
}

func uuid(_ a: UInt64, _ b: UInt64) -> String {
    let hex = Array("0123456789abcdef")
    func digits(_ value: UInt64, _ count: Int) -> String {
        String((0..<count).reversed().map { hex[Int((value >> UInt64($0 * 4)) & 0xF)] })
    }
    return "\(digits(a >> 32, 8))-\(digits(a >> 16, 4))-4\(digits(a, 3))-8\(digits(b >> 48, 3))-\(digits(b, 12))"
}

/// A tiny deterministic generator (SplitMix64).
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

final class Job: Sendable {
    let store: SQLiteEventStore
    let index: Int
    let count: Int
    init(_ store: SQLiteEventStore, _ index: Int, _ count: Int) {
        self.store = store
        self.index = index
        self.count = count
    }
}

/// One `group` thread: one-event appends, each waiting for its commit.
nonisolated func groupWorker(_ job: Job) {
    for n in 0..<job.count {
        let stream = try! StreamName("3ds-\(uuid(UInt64(job.index), UInt64(n / 8)))")
        let event = ProposedEvent(
            id: uuid(UInt64(job.index) << 32 | UInt64(n), 99), type: "Step",
            occurredAt: Timestamp(millisecondsSinceEpoch: Int64(n)),
            data: Array(#"{"thread":\#(job.index),"n":\#(n),"transStatus":"Y"}"#.utf8))
        do { try job.store.append([event], to: stream, expectedVersion: .any) } catch { fail("\(error)") }
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: store-stress append|bench PATH …") }
let path = arguments[2]

switch arguments[1] {
case "append":
    guard arguments.count == 5, let worker = Int(arguments[3]), let count = Int(arguments[4]) else {
        fail("usage: store-stress append PATH WORKER COUNT")
    }
    var configuration = SQLiteEventStore.Configuration()
    configuration.busyTimeoutMilliseconds = 60_000
    do {
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        for n in 0..<count {
            let stream = try StreamName("3ds-\(uuid(UInt64(n % 10), 0))")
            let event = ProposedEvent(
                id: uuid(UInt64(worker) << 32 | UInt64(n), 1), type: "Stress",
                occurredAt: Timestamp(millisecondsSinceEpoch: Int64(n)),
                data: Array(#"{"worker":\#(worker),"n":\#(n)}"#.utf8))
            try store.append([event], to: stream, expectedVersion: .any)
        }
    } catch {
        fail("worker \(worker): \(error)")
    }

case "bench":
    guard arguments.count >= 4, let total = Int(arguments[3]) else {
        fail("usage: store-stress bench PATH EVENTS [BATCH]")
    }
    let batch = arguments.count > 4 ? Int(arguments[4]) ?? 1000 : 1000
    let types = [
        "TransactionCreated", "AuthRequestParametersCreated", "AuthResponseReceived", "ChallengeStarted",
        "ChallengeRequestSent", "ChallengeResponseReceived", "ChallengeCompleted", "TransactionClosed"
    ]
    var random = Random(state: 42)
    // Interleaved streams: ~400 transactions in flight, each 8 events long.
    var active: [(id: UInt64, next: Int)] = (0..<400).map { (UInt64($0), 0) }
    var nextStream: UInt64 = 400
    var events: [(StreamName, ProposedEvent)] = []
    var ndjsonBytes = 0
    events.reserveCapacity(total)
    let base: Int64 = 1_795_000_000_000
    for n in 0..<total {
        let slot = random.below(active.count)
        let (sid, step) = active[slot]
        let stream = try! StreamName("3ds-\(uuid(sid &* 0x9E37_79B9, sid))")
        let type = types[step]
        let data =
            #"""
            {"threeDSServerTransID":"\#(uuid(random.next(), random.next()))",\#
            "acsTransID":"\#(uuid(random.next(), random.next()))","messageVersion":"2.2.0",\#
            "sdkCounterStoA":"00\#(step)","transStatus":"\#(["Y", "C", "N"][random.below(3)])",\#
            "timeoutSeconds":\#(300 + random.below(300)),"acsReferenceNumber":"ACS-\#(random.below(50))-EMVCo"}
            """#
        let meta =
            #"{"correlationId":"\#(uuid(sid, 7))","platform":"\#(["ios", "android"][random.below(2)])","#
            + #""sdkVersion":"2.\#(random.below(4)).\#(random.below(10))","appVersion":"7.1.\#(random.below(30))"}"#
        let occurred = Timestamp(millisecondsSinceEpoch: base + Int64(n) * 37)
        // STRESS_ORDERED_IDS: time-ordered ids (UUIDv7-like: a counter in the high bits).
        let eventID =
            CurrentProcess.variable("STRESS_ORDERED_IDS") != nil
            ? uuid(UInt64(n) << 20, random.next()) : uuid(random.next(), random.next())
        let event = ProposedEvent(
            id: eventID, type: type, occurredAt: occurred,
            data: Array(data.utf8), meta: Array(meta.utf8))
        events.append((stream, event))
        // The export line: envelope keys + journal-assigned keys.
        ndjsonBytes +=
            #"""
            {"position":\#(n + 1),"stream":"\#(stream)","version":\#(step),"id":"\#(event.id)","type":"\#(type)",\#
            "occurredAt":"\#(occurred)","recordedAt":"\#(occurred)","data":\#(data),"meta":\#(meta),\#
            "hash":"\#(String(repeating: "0", count: 64))"}
            """#
            .utf8.count + 1
        if step == 7 {
            active[slot] = (nextStream, 0)
            nextStream += 1
        } else {
            active[slot] = (sid, step + 1)
        }
    }
    /// Wall-clock seconds of `body`; also prints its CPU seconds (the machine is shared, so CPU
    /// time is the steadier measure of our own cost).
    func seconds(_ label: String = "", _ body: () throws -> Void) rethrows -> Double {
        let wall = SystemClock.monotonicNanoseconds()
        let cpu = SystemClock.processCPUNanoseconds()
        try body()
        let elapsedWall = Double(SystemClock.monotonicNanoseconds() - wall) / 1e9
        let elapsedCPU = Double(SystemClock.processCPUNanoseconds() - cpu) / 1e9
        if !label.isEmpty {
            print(
                "  \(label): wall \(elapsedWall) s, cpu \(elapsedCPU) s, \(Int(Double(total) / elapsedCPU)) events per "
                    + "cpu-second"
            )
        }
        return elapsedWall
    }
    if CurrentProcess.variable("STRESS_GENERATE_ONLY") != nil { CurrentProcess.exit(0) }
    do {
        var configuration = SQLiteEventStore.Configuration()
        if let sync = CurrentProcess.variable("STRESS_SYNC") {
            configuration.synchronous = sync == "off" ? .off : sync == "normal" ? .normal : .full
        }
        if CurrentProcess.variable("STRESS_NODICT") != nil { configuration.dictionaryTrainingEvents = 0 }
        if CurrentProcess.variable("STRESS_RAW") != nil {
            // The raw baseline: the same rows through the SQLite C API into a minimal table
            // (position key, integer stream id, version, payload), same pragmas, no hashing,
            // no compression, no id index.
            let rawPath = path + ".raw"
            let db = try SQLiteConnection(path: rawPath)
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS raw(position INTEGER PRIMARY KEY, stream_id INTEGER NOT NULL,
                                               version INTEGER NOT NULL, payload BLOB NOT NULL);
                CREATE UNIQUE INDEX IF NOT EXISTS raw_stream_version ON raw(stream_id, version);
                """)
            var ids: [String: Int64] = [:]
            var versions: [Int64: Int64] = [:]
            let rawTime = try seconds("raw append") {
                var index = 0
                var position: Int64 = 0
                while index < events.count {
                    let end = min(index + batch, events.count)
                    try db.transaction {
                        let insert = try db.cached("INSERT INTO raw VALUES (?, ?, ?, ?)")
                        for (stream, event) in events[index..<end] {
                            let id = ids[stream.rawValue] ?? Int64(ids.count + 1)
                            ids[stream.rawValue] = id
                            let version = (versions[id] ?? -1) + 1
                            versions[id] = version
                            position += 1
                            insert.bind(position, at: 1)
                            insert.bind(id, at: 2)
                            insert.bind(version, at: 3)
                            insert.bind(blob: event.data + (event.meta ?? []), at: 4)
                            try insert.run()
                        }
                    }
                    index = end
                }
            }
            print("raw_append_b\(batch)_eps \(Int(Double(total) / rawTime))")
        }
        let store = try SQLiteEventStore(path: path, configuration: configuration)
        let appendTime = try seconds("append") {
            var index = 0
            while index < events.count {
                let end = min(index + batch, events.count)
                if CurrentProcess.variable("STRESS_TX") != nil {
                    try store.write { tx in
                        for (stream, event) in events[index..<end] {
                            try tx.append([event], to: stream, expectedVersion: .any)
                        }
                    }
                } else {
                    try store.append(events[index..<end].map { StreamAppend(stream: $0.0, events: [$0.1]) })
                }
                index = end
            }
        }
        print("append_b\(batch)_eps \(Int(Double(total) / appendTime))")
        if CurrentProcess.variable("STRESS_APPEND_ONLY") != nil { CurrentProcess.exit(0) }
        // Multi-stream appends in one call (one StreamAppend per event).
        var read = 0
        let readTime = try seconds("read all") {
            var next: Int64 = 1
            while true {
                let page = try store.readAll(from: next, limit: 1000)
                guard let last = page.last else { break }
                read += page.count
                next = last.position + 1
            }
        }
        print("read_all_eps \(Int(Double(read) / readTime))")
        let streams = try store.streams(category: "3ds")
        var latencies: [Double] = []
        for _ in 0..<2000 {
            let stream = streams[random.below(streams.count)]
            latencies.append(try seconds { _ = try store.readStream(stream) })
        }
        latencies.sort()
        print("audit_p99_ms \(latencies[latencies.count * 99 / 100] * 1000)")
        let verifyTime = try seconds("verify") { _ = try store.verify() }
        print("verify_eps \(Int(Double(total) / verifyTime))")
        _ = try store.withConnection { db in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let size = Double((try? FileStatus.of(path))?.size ?? 0)
        print(
            "bytes_per_event \(size / Double(total)) ndjson_bytes_per_event "
                + "\(Double(ndjsonBytes) / Double(total)) ratio \(size / Double(ndjsonBytes))"
        )
    } catch {
        fail("\(error)")
    }

case "group":
    // store-stress group PATH THREADS PER_THREAD: concurrent one-event appends, each waiting for
    // its durable commit (synchronous=FULL), sharing commits through group commit.
    guard arguments.count == 5, let threads = Int(arguments[3]), let perThread = Int(arguments[4]) else {
        fail("usage: store-stress group PATH THREADS PER_THREAD")
    }
    do {
        let store = try SQLiteEventStore(path: path)
        let start = SystemClock.monotonicNanoseconds()
        var handles: [SystemThread] = []
        for index in 0..<threads {
            let job = Job(store, index, perThread)
            guard let thread = SystemThread({ groupWorker(job) }) else { fail("cannot start a thread") }
            handles.append(thread)
        }
        for thread in handles { thread.join() }
        let elapsed = Double(SystemClock.monotonicNanoseconds() - start) / 1e9
        print(
            "append_group_eps \(Int(Double(threads * perThread) / elapsed)) (\(threads) threads, "
                + "\(store.groupCommitCount) commits for \(threads * perThread) appends)"
        )
    } catch {
        fail("\(error)")
    }

case "read":
    // Reads an existing journal whole, N times (for profiling the read path).
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
    do {
        let store = try SQLiteEventStore(path: path)
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let start = clock.now
            var read = 0
            var next: Int64 = 1
            while true {
                let page = try store.readAll(from: next, limit: 1000)
                guard let last = page.last else { break }
                read += page.count
                next = last.position + 1
            }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
            print("read_all_eps \(Int(Double(read) / seconds))")
        }
    } catch {
        fail("\(error)")
    }

default:
    fail("unknown command \(arguments[1])")
}
