import Dispatch
import EventStore
import JournalCore
import Synchronization
import Testing

@testable import Projections

/// Several processes catching up one journal's read models at once (two `journal query` runs):
/// each batch re-reads the checkpoints under the writers' lock (`BEGIN IMMEDIATE` on SQLite, the
/// `pj_meta` table lock on PostgreSQL), so no event is applied twice; a query catches up only the
/// models it reads, so the others' checkpoints lag, and a batch never sets a checkpoint back.
@Suite("Concurrent catch-ups")
struct ConcurrentCatchUpTests {
    @Test(
        "engines catching up at once on separate connections never apply an event twice",
        arguments: DatabaseBackend.all, [91, 94, 95])
    func concurrentCatchUpsNeverApplyAnEventTwice(backend: DatabaseBackend, seed: UInt64) throws {
        var generator = LegalLogGenerator(seed: seed)
        let log = generator.log(transactions: 70, digitizations: 70)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let location = db.location
        // The first generation is built first, as a first `journal query` would; the engines
        // then catch it up at once while the log grows (all engines read one growing log, as
        // processes of one journal do: read models refuse a log shorter than what they folded).
        let journal = GrowingLog(log)
        journal.deliver(upTo: 20)
        let first = try ProjectionEngine(journal: location, source: journal)
        try first.catchUp()
        first.close()
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            do {
                let engine = try ProjectionEngine(journal: location, source: journal)
                defer { engine.close() }
                var random = TestRandom(seed: seed &+ UInt64(worker + 1))
                while journal.delivered < log.count {
                    journal.deliver(upTo: journal.delivered + Int.random(in: 1...90, using: &random))
                    engine.batchSize = Int.random(in: 5...40, using: &random)
                    try engine.catchUp()
                    guard worker == 0 else { continue }
                    // A query among the catch-ups: it catches up only 3ds and card, past more
                    // events than a batch holds, so the next catch-up of all starts below them.
                    journal.deliver(upTo: journal.delivered + Int.random(in: 41...90, using: &random))
                    _ = try engine.otp()
                }
                try engine.catchUp() // the log is whole: every model reaches its end
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let engine = try ProjectionEngine(journal: location, source: ArrayEventSource(log))
        defer { engine.close() }
        #expect(try engine.status().allSatisfy { $0.checkpoint == Int64(log.count) && $0.generation == 1 })
        try CheckpointTests.expectMatchesReference(engine, log)
    }

    @Test(
        "a catch-up of read models at different checkpoints never sets one back nor applies an event twice",
        arguments: DatabaseBackend.all)
    func catchUpOfUnevenCheckpointsNeverSetsOneBack(backend: DatabaseBackend) throws {
        // One process's query catches up only the models it reads (`otp`: 3ds and card); another
        // then catches up all of them, in batches smaller than the gap to `events`.
        var generator = LegalLogGenerator(seed: 92)
        let log = generator.log(transactions: 60, digitizations: 60)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let journal = GrowingLog(log)
        journal.deliver(upTo: 30)
        let query = try ProjectionEngine(journal: db.location, source: journal)
        defer { query.close() }
        try query.catchUp()
        journal.deliver(upTo: log.count)
        _ = try query.otp()
        let ahead = Int64(log.count)
        #expect(try query.status().filter { $0.checkpoint == ahead }.map(\.name) == [.threeDS, .card])
        let other = try ProjectionEngine(journal: db.location, source: journal)
        defer { other.close() }
        other.batchSize = 7
        // After every batch, the stored checkpoints as another connection sees them.
        var reached: [Int64] = []
        var stored: [[Int64]] = []
        other.onBatch = { position in
            reached.append(position)
            stored.append((try? query.status().map(\.checkpoint)) ?? [])
        }
        try other.catchUp()
        #expect(reached.first == 37 && reached.last == ahead)
        // events and streams move batch by batch; 3ds and card stay where the query left them.
        #expect(stored.first == [37, ahead, ahead, 37])
        #expect(stored.allSatisfy { $0.count == 4 && $0[1] == ahead && $0[2] == ahead })
        #expect(try other.status().allSatisfy { $0.checkpoint == ahead })
        try CheckpointTests.expectMatchesReference(other, log)
    }

    @Test(
        "a rebuild resumed beside a fresh one never sets the resumed checkpoint back",
        arguments: DatabaseBackend.all)
    func resumedRebuildBesideAFreshOneKeepsItsCheckpoint(backend: DatabaseBackend) throws {
        let log = CheckpointTests.workload(93)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 100
        try engine.catchUp()
        try engine.rebuild([.card], maxBatches: 3) // generation 2 of card, built up to 300
        #expect(try engine.status().first { $0.name == .card }?.rebuildCheckpoint == 300)
        // After every batch, card's rebuild checkpoint as another connection sees it.
        let watcher = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { watcher.close() }
        var rebuilding: [Int64?] = []
        engine.onBatch = { _ in
            rebuilding.append(try? watcher.status().first { $0.name == .card }?.rebuildCheckpoint)
        }
        try engine.rebuild([.threeDS, .card]) // 3ds from position 1, card resumes from 301
        #expect(rebuilding.prefix(3) == [300, 300, 300]) // 3ds's first batches: card waits
        #expect(rebuilding.count == 7 && rebuilding.allSatisfy { ($0 ?? 0) >= 300 })
        #expect(try engine.status().allSatisfy { $0.checkpoint == Int64(log.count) && $0.rebuildCheckpoint == nil })
        try CheckpointTests.expectMatchesReference(engine, log)
    }
}

/// The journal every engine of the test reads, as processes share one: it grows as the workers
/// deliver more of `log` (appends), and its head never goes back.
final class GrowingLog: ProjectionEventSource, Sendable {
    private let log: [RecordedEvent]
    private let count = Mutex(0)

    init(_ log: [RecordedEvent]) { self.log = log }

    /// How many events of the log were appended so far.
    var delivered: Int { count.withLock { $0 } }

    func deliver(upTo events: Int) { count.withLock { $0 = max($0, min(events, log.count)) } }

    func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent] {
        let end = delivered
        let start = log.prefix(end).firstIndex { $0.position >= position } ?? end
        return Array(log[start..<min(end, start + limit)])
    }

    func headPosition() throws -> Int64 {
        let end = delivered
        return end == 0 ? 0 : log[end - 1].position
    }
}
