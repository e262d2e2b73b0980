import Dispatch
import EventStore
import JournalCore
import Synchronization
import Testing

@testable import Projections

/// Several processes catching up one journal's read models at once (two `journal query` runs):
/// each batch re-reads the checkpoint under the writers' lock (`BEGIN IMMEDIATE` on SQLite, the
/// `pj_meta` table lock on PostgreSQL), so no event is applied twice.
@Suite("Concurrent catch-ups")
struct ConcurrentCatchUpTests {
    @Test(
        "engines catching up at once on separate connections never apply an event twice",
        arguments: DatabaseBackend.all)
    func concurrentCatchUpsNeverApplyAnEventTwice(backend: DatabaseBackend) throws {
        var generator = LegalLogGenerator(seed: 91)
        let log = generator.log(transactions: 70, digitizations: 70)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let location = db.location
        // Create pj_meta first, as a first `journal query` would.
        try ProjectionEngine(journal: location, source: ArrayEventSource([])).close()
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            do {
                let source = ArrayEventSource([])
                let engine = try ProjectionEngine(journal: location, source: source)
                defer { engine.close() }
                var random = TestRandom(seed: UInt64(worker + 1))
                var delivered = 0
                while delivered < log.count {
                    delivered = min(log.count, delivered + Int.random(in: 1...90, using: &random))
                    source.events = Array(log[..<delivered])
                    engine.batchSize = Int.random(in: 5...40, using: &random)
                    try engine.catchUp()
                    if worker == 0 { _ = try engine.otp() } // a reader's snapshot among the writers
                }
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
}
