import EventStore
import Foundation
import Synchronization

/// `append-batches`: T threads, each appending its share of the batches, one transaction per
/// batch; concurrent batches share commits through the store's group commit.
struct BatchAppender {
    let path: String
    let first: Int
    let count: Int
    let batchSize: Int
    let threads: Int

    init(_ options: HarnessOptions) throws(HarnessError) {
        path = try options.string("db")
        first = try options.int("first", default: 0)
        count = try options.int("count")
        batchSize = try options.int("batch-size")
        threads = try options.int("threads", default: 1)
        guard count >= 0, batchSize >= 1, batchSize < 100_000, (1...64).contains(threads) else {
            throw .usage("need --count ≥ 0, 1 ≤ --batch-size < 100000, 1 ≤ --threads ≤ 64")
        }
    }

    /// Batch `b` belongs to thread `(b - first) % threads`.
    func run() throws -> Int32 {
        let store = try SQLiteEventStore(path: path)
        let failure = Mutex<String?>(nil)
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            let work = ThreadWork(
                store: store, thread: thread,
                batches: Array(stride(from: first + thread, to: first + count, by: threads)),
                batchSize: batchSize)
            let worker = Thread {
                do {
                    try work.run()
                } catch {
                    failure.withLock { $0 = $0 ?? "thread \(thread): \(error)" }
                }
                done.leave()
            }
            worker.start()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) { throw HarnessError.failure(message) }
        return 0
    }
}

private struct ThreadWork: Sendable {
    let store: SQLiteEventStore
    let thread: Int
    let batches: [Int]
    let batchSize: Int

    func run() throws(EventStoreError) {
        let ledger = try ProbeEvents.ledger(thread: thread)
        var ledgerVersion = try store.lastVersion(of: ledger)
        for batch in batches {
            var parts = [
                StreamAppend(
                    stream: ledger, expectedVersion: ledgerVersion.map { .exact($0) } ?? .noStream,
                    events: [ProbeEvents.event(batch: batch, index: 0, thread: thread)])
            ]
            for index in 1..<batchSize {
                parts.append(
                    StreamAppend(
                        stream: try ProbeEvents.stream(batch: batch, index: index), expectedVersion: .noStream,
                        events: [ProbeEvents.event(batch: batch, index: index, thread: thread)]))
            }
            let results = try store.append(parts)
            ledgerVersion = results[0].lastVersion
            Output.line("committed \(batch)")
        }
    }
}
