import Domain
import EventStore
import Foundation
import JournalCore
import Projections
import Simulator
import Synchronization

/// The journal's side of every measurement, through the public `EventStore` API with the
/// production configuration (WAL, `synchronous=FULL`, hashing, LZ4 dictionary compression).
enum JournalBench {
    /// Appends `events` in commits of `batch` consecutive log events (one multi-stream append
    /// each, one fsync each) into a fresh journal at `path`; returns events per second.
    static func append(_ events: ArraySlice<BenchEvent>, batch: Int, path: String) throws -> Timing {
        System.removeDatabase(path)
        let commits = stride(from: events.startIndex, to: events.endIndex, by: batch).map { start in
            groupByStream(events[start..<min(start + batch, events.endIndex)])
        }
        let store = try SQLiteEventStore(path: path)
        let start = Timing.start()
        for commit in commits {
            if commit.count == 1 {
                try store.append(commit[0].events, to: commit[0].stream, expectedVersion: .any)
            } else {
                try store.append(commit)
            }
        }
        return Timing(events: events.count, since: start)
    }

    /// The events of one commit, per stream in log order.
    static func groupByStream(_ events: ArraySlice<BenchEvent>) -> [StreamAppend] {
        var order: [StreamName] = []
        var byStream: [StreamName: [ProposedEvent]] = [:]
        for item in events {
            if byStream[item.stream] == nil { order.append(item.stream) }
            byStream[item.stream, default: []].append(item.event)
        }
        return order.map { StreamAppend(stream: $0, expectedVersion: .any, events: byStream[$0]!) }
    }

    /// `writers` threads, each appending its streams' events one event per call and waiting for
    /// each call (durable) before the next; returns events per second over all writers.
    static func appendGroup(_ events: ArraySlice<BenchEvent>, writers: Int, path: String) throws -> Double {
        System.removeDatabase(path)
        let store = try SQLiteEventStore(path: path)
        let shares = partition(events, writers: writers)
        let seconds = try ConcurrentRun.run(count: writers) { writer in
            for item in shares[writer] {
                try store.append([item.event], to: item.stream, expectedVersion: .any)
            }
        }
        return Double(events.count) / seconds
    }

    /// Splits events between writers by stream, so each stream keeps its order within a writer.
    static func partition(_ events: ArraySlice<BenchEvent>, writers: Int) -> [[BenchEvent]] {
        var shares = [[BenchEvent]](repeating: [], count: writers)
        var owner: [StreamName: Int] = [:]
        for item in events {
            let writer =
                owner[item.stream]
                ?? {
                    let next = owner.count % writers
                    owner[item.stream] = next
                    return next
                }()
            shares[writer].append(item)
        }
        return shares
    }

    /// Reads the whole log in pages of 1000 through the public read-all API, each event lent in
    /// place (`readAll(from:limit:_:)`: names, id, payload decompressed, hash; each link checked);
    /// returns (events, seconds).
    static func readAll(_ store: SQLiteEventStore) throws -> Timing {
        let start = Timing.start()
        var position: Int64 = 1
        var count = 0
        var bytes = 0
        while true {
            var last: Int64 = 0
            let read = try store.readAll(from: position, limit: 1_000) { event in
                bytes &+= event.data.count &+ event.stream.count
                last = event.position
                return true
            }
            count += read
            guard read == 1_000 else { break }
            position = last + 1
        }
        let timing = Timing(events: count, since: start)
        if bytes < 0 { print("") } // keeps the payload reads observable
        return timing
    }

    /// Reads the whole log in pages of 1000 as arrays (`readAll(from:limit:)`: rows to
    /// `RecordedEvent`, payloads decompressed); returns (events, seconds).
    static func readAllRecorded(_ store: SQLiteEventStore) throws -> Timing {
        let start = Timing.start()
        var position: Int64 = 1
        var count = 0
        var bytes = 0
        while true {
            let page = try store.readAll(from: position, limit: 1_000)
            for event in page { bytes &+= event.data.count }
            count += page.count
            guard page.count == 1_000, let last = page.last else { break }
            position = last.position + 1
        }
        let timing = Timing(events: count, since: start)
        if bytes < 0 { print("") } // keeps the payload reads observable
        return timing
    }

    /// Reads the whole log through the borrowing scan (`EventScanning.scanAll`: position, stream
    /// and type ids, occurredAt, data decompressed; no `RecordedEvent`), in pages of 10,000, as
    /// the projections read it; returns (events, seconds).
    static func scanAll(_ store: SQLiteEventStore) throws -> Timing {
        let start = Timing.start()
        var position: Int64 = 1
        var count = 0
        var bytes = 0
        while true {
            var last: Int64 = 0
            let read = try store.scanAll(from: position, limit: 10_000) { event in
                bytes &+= event.data.count
                last = event.position
                return true
            }
            count += read
            guard read == 10_000 else { break }
            position = last + 1
        }
        let timing = Timing(events: count, since: start)
        if bytes < 0 { print("") } // keeps the payload reads observable
        return timing
    }

    /// Rebuilds every projection from position 1; returns (events applied, seconds).
    static func rebuild(path: String, store: SQLiteEventStore) throws -> Timing {
        let engine = try ProjectionEngine(databasePath: path, source: StoreEventSource(store: store))
        defer { engine.close() }
        let start = Timing.start()
        let applied = try engine.rebuild()
        return Timing(events: Int(applied), since: start)
    }

    /// Reads the whole history of `samples` streams picked at random (seeded); returns each
    /// read's latency in milliseconds and the mean events per stream read.
    static func audit(_ store: SQLiteEventStore, samples: Int) throws -> (latencies: [Double], meanEvents: Double) {
        let streams = try store.streams(category: nil)
        guard !streams.isEmpty else { return ([], 0) }
        var random = SeededRandom(seed: 7)
        var latencies: [Double] = []
        var events = 0
        latencies.reserveCapacity(samples)
        for _ in 0..<samples {
            let stream = streams[random.int(below: streams.count)]
            let start = System.now()
            let history = try store.read(stream: stream, from: 0, direction: .forward, limit: Int.max)
            latencies.append((System.now() - start) * 1_000)
            events += history.count
        }
        return (latencies, Double(events) / Double(samples))
    }
}

/// Runs `count` threads that start together and returns the wall time until the last finishes.
enum ConcurrentRun {
    static func run(count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws -> Double {
        let ready = DispatchGroup()
        let done = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        let failures = FailureBox()
        for index in 0..<count {
            ready.enter()
            done.enter()
            let thread = Thread {
                ready.leave()
                gate.wait()
                do { try body(index) } catch { failures.record(error) }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        ready.wait()
        let start = System.now()
        for _ in 0..<count { gate.signal() }
        done.wait()
        let seconds = System.now() - start
        if let error = failures.first { throw error }
        return seconds
    }
}

final class FailureBox: Sendable {
    private let errors = Mutex<[any Error]>([])
    func record(_ error: any Error) { errors.withLock { $0.append(error) } }
    var first: (any Error)? { errors.withLock { $0.first } }
}
