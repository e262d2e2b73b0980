import EventStore
import Glibc
import JournalCore
import Testing

@testable import Projections

/// Checkpoints move with the model in one transaction: interrupted runs resume without double
/// counting, rebuilds swap in whole, a changed fold rebuilds itself.
@Suite("Checkpoints, rebuilds and code versions")
struct CheckpointTests {
    static func workload(_ seed: UInt64) -> [RecordedEvent] {
        var generator = LegalLogGenerator(seed: seed)
        return generator.log(transactions: 60, digitizations: 60)
    }

    static func expectMatchesReference(_ engine: ProjectionEngine, _ log: [RecordedEvent]) throws {
        let reference = Reference(log)
        #expect(try engine.otp() == reference.otp(.all))
        #expect(try engine.timeouts() == reference.timeouts(.all))
        #expect(try engine.funnel() == reference.funnel(.all))
        #expect(try engine.challenges() == reference.challenges(.all))
        #expect(try engine.errors() == reference.errors(.all))
        #expect(try engine.idv() == reference.idv(.all))
        #expect(try engine.latency() == reference.latency(.all))
        #expect(try engine.eventCount() == reference.eventCount(.all))
    }

    @Test(
        "a run interrupted between batches resumes without double counting", arguments: DatabaseBackend.all, [1, 2, 5])
    func interruptedRunResumesWithoutDoubleCounting(backend: DatabaseBackend, batches: Int) throws {
        let log = Self.workload(UInt64(batches) + 40)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(Array(log.prefix(100)))
        do {
            let engine = try ProjectionEngine(journal: db.location, source: source)
            try engine.catchUp() // the first build, then live catch-ups
            engine.close()
        }
        source.events = log
        do {
            let engine = try ProjectionEngine(journal: db.location, source: source)
            engine.batchSize = 37
            try engine.catchUp(maxBatches: batches) // "crash" after `batches` committed batches
            let status = try engine.status()
            for projection in status {
                #expect(projection.checkpoint == Int64(100 + 37 * batches))
                #expect(projection.lag == Int64(log.count - 100 - 37 * batches))
            }
            engine.close()
        }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try Self.expectMatchesReference(engine, log)
    }

    @Test(
        "a rebuild tells onBatch the position each committed batch reached, up to the head",
        arguments: DatabaseBackend.all)
    func rebuildReportsEachBatch(backend: DatabaseBackend) throws {
        let log = Self.workload(7)
        let positions = try Self.rebuildPositions(log, backend: backend, batchSize: 50)
        let expected = stride(from: 50, to: log.count, by: 50).map(Int64.init) + [Int64(log.count)]
        #expect(positions == expected)
    }

    @Test(
        "a run's batches start at an eighth of the batch size and double up to it",
        arguments: DatabaseBackend.all)
    func runBatchesRampUp(backend: DatabaseBackend) throws {
        let log = Self.workload(40)
        let positions = try Self.rebuildPositions(log, backend: backend, batchSize: 160, rampsFrom: 100)
        let sizes = zip(positions, [0] + positions).map { Int($0 - $1) }
        #expect(log.count > 20 + 40 + 80 + 160 + 160)
        #expect(Array(sizes.prefix(5)) == [20, 40, 80, 160, 160])
        #expect(sizes.dropLast().allSatisfy { $0 <= 160 } && positions.last == Int64(log.count))
    }

    /// Rebuilds `log`'s read models with these batch sizes, checks them against the reference
    /// and returns the position each committed batch reached (`onBatch`).
    static func rebuildPositions(
        _ log: [RecordedEvent], backend: DatabaseBackend, batchSize: Int, rampsFrom: Int? = nil
    ) throws -> [Int64] {
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = batchSize
        if let rampsFrom { engine.rampsFromBatchSize = rampsFrom }
        nonisolated(unsafe) var positions: [Int64] = []
        engine.onBatch = { positions.append($0) }
        try engine.rebuild()
        try expectMatchesReference(engine, log)
        return positions
    }

    @Test(
        "an interrupted first build resumes from its own checkpoint and then swaps in", arguments: DatabaseBackend.all)
    func interruptedFirstBuildResumes(backend: DatabaseBackend) throws {
        let log = Self.workload(50)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(log)
        do {
            let engine = try ProjectionEngine(journal: db.location, source: source)
            engine.batchSize = 41
            try engine.catchUp(maxBatches: 3)
            for projection in try engine.status() {
                #expect(projection.generation == 0) // nothing live yet: queries would wait for the build
                #expect(projection.rebuildCheckpoint == 123)
            }
            engine.close()
        }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try Self.expectMatchesReference(engine, log)
        _ = try engine.find(StreamFilter(), limit: 1) // the streams directory is read by find alone
        for projection in try engine.status() {
            #expect(projection.generation == 1)
            #expect(projection.rebuildCheckpoint == nil)
            #expect(projection.lag == 0)
        }
    }

    @Test(
        "read models answer only for the log they folded; older ones record its hash at their next batch",
        arguments: DatabaseBackend.all)
    func readModelsAnswerOnlyForTheLogTheyFolded(backend: DatabaseBackend) throws {
        let log = Self.workload(52)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(Array(log.prefix(30)))
        let engine = try ProjectionEngine(journal: db.location, source: source)
        try engine.catchUp()
        // The event the models folded last is stored with another hash: a rewritten or another log.
        source.events[29].hash = [UInt8](repeating: 7, count: 32)
        let rewritten = try #require(throws: ProjectionError.self) { try engine.catchUp() }
        #expect(rewritten.code == .integrity && rewritten.position == 30, "\(rewritten)")
        // A log that ends before the models' checkpoint: cut back.
        source.events = Array(log.prefix(20))
        let cut = try #require(throws: ProjectionError.self) { try engine.status() }
        #expect(cut.code == .integrity && cut.position == 21, "\(cut)")
        // Read models of an earlier build, without the columns: the hash is not known, so only
        // the head is checked, until the next batch records it.
        try engine.db.execute(
            "ALTER TABLE pj_meta DROP COLUMN checkpoint_hash; ALTER TABLE pj_meta DROP COLUMN build_checkpoint_hash")
        engine.close()
        source.events = Array(log.prefix(30))
        source.events[29].hash = [UInt8](repeating: 7, count: 32)
        let reopened = try ProjectionEngine(journal: db.location, source: source)
        defer { reopened.close() }
        #expect(try reopened.catchUp() == 0)
        source.events = log
        try reopened.catchUp()
        source.events[log.count - 1].hash = [UInt8](repeating: 9, count: 32)
        let changed = try #require(throws: ProjectionError.self) { try reopened.catchUp() }
        #expect(changed.code == .integrity && changed.position == Int64(log.count), "\(changed)")
    }

    @Test("a failed read leaves the checkpoint at the last committed batch", arguments: DatabaseBackend.all)
    func failedReadLeavesCheckpointAtLastCommittedBatch(backend: DatabaseBackend) throws {
        let log = Self.workload(51)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(Array(log.prefix(10)))
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try engine.catchUp()
        source.events = log
        engine.batchSize = 25
        // The catch-up reads the event its models folded last (the log still holds it), then each
        // batch and the event that batch ends at: the 10th read is the 5th batch.
        source.failOnRead = source.reads + 9
        #expect(throws: ProjectionError.self) { try engine.catchUp() }
        #expect(try engine.status().allSatisfy { $0.checkpoint == 10 + 4 * 25 })
        source.failOnRead = nil
        try Self.expectMatchesReference(engine, log)
    }

    @Test("an unreadable event stops the batch before anything of it is applied", arguments: DatabaseBackend.all)
    func unreadableEventStopsTheBatch(backend: DatabaseBackend) throws {
        var log = Self.workload(52)
        let good = log[70]
        log[70].data = Array("[1]".utf8)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(log)
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        engine.batchSize = 30
        #expect(throws: ProjectionError.self) { try engine.catchUp() } // position 71 is in the third batch
        for projection in try engine.status() {
            #expect(projection.rebuildCheckpoint == 60)
        }
        log[70] = good
        source.events = log
        try Self.expectMatchesReference(engine, log)
    }

    @Test("a batch is folded ahead while the one before is written, and answers match", arguments: DatabaseBackend.all)
    func batchesAreFoldedAheadAndAnswersMatch(backend: DatabaseBackend) throws {
        let log = Self.workload(53)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 19
        try engine.rebuild()
        #expect(engine.foldsAhead > 0)
        try Self.expectMatchesReference(engine, log)
    }

    @Test(
        "rows dropped from memory are read back, by folds in the transaction, and answers match",
        arguments: DatabaseBackend.all)
    func rowsDroppedFromMemoryAreReadBack(backend: DatabaseBackend) throws {
        let log = Self.workload(54)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(Array(log.prefix(log.count / 2)))
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        engine.batchSize = 16
        engine.limitStreamCache(to: 3)
        try engine.catchUp() // the first build: a row not touched by the last two batches is dropped
        source.events = log
        try engine.catchUp() // live: the dropped rows of streams that go on are read back by sid
        try Self.expectMatchesReference(engine, log)
        let before = engine.foldsInTransaction
        try engine.rebuild()
        #expect(engine.foldsInTransaction > before + 1) // more than the first batch: folds ahead gave up
        try Self.expectMatchesReference(engine, log)
    }

    @Test("two engines on one database never apply an event twice", arguments: DatabaseBackend.all)
    func twoEnginesNeverApplyAnEventTwice(backend: DatabaseBackend) throws {
        let log = Self.workload(53)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource([])
        let first = try ProjectionEngine(journal: db.location, source: source)
        let second = try ProjectionEngine(journal: db.location, source: source)
        defer {
            first.close()
            second.close()
        }
        var delivered = 0
        var turn = 0
        while delivered < log.count {
            delivered = min(log.count, delivered + 45)
            source.events = Array(log[..<delivered])
            try (turn % 2 == 0 ? first : second).catchUp()
            turn += 1
        }
        try Self.expectMatchesReference(first, log)
        try Self.expectMatchesReference(second, log)
    }

    @Test("a changed fold version rebuilds the projection into a new generation", arguments: DatabaseBackend.all)
    func changedFoldVersionRebuilds(backend: DatabaseBackend) throws {
        let log = Self.workload(54)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        try engine.catchUp()
        engine.setCodeVersion(99, of: .threeDS)
        let stale = try engine.status().first { $0.name == .threeDS }
        #expect(stale?.stale == true)
        try Self.expectMatchesReference(engine, log)
        let rebuilt = try engine.status().first { $0.name == .threeDS }
        #expect(rebuilt?.builtVersion == 99)
        #expect(rebuilt?.generation == 2)
        #expect(try engine.status().first { $0.name == .card }?.generation == 1)
    }

    @Test("an explicit rebuild keeps the old tables readable until it swaps", arguments: DatabaseBackend.all)
    func rebuildKeepsOldTablesUntilSwap(backend: DatabaseBackend) throws {
        let log = Self.workload(55)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(log)
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try engine.catchUp()
        let before = try engine.funnel()
        engine.batchSize = 20
        try engine.rebuild([.threeDS], maxBatches: 2) // half-built generation 2
        let status = try engine.status().first { $0.name == .threeDS }
        #expect(status?.generation == 1)
        #expect(status?.rebuildCheckpoint == 40)
        // Queries still answer from generation 1 (already at the head: nothing to catch up).
        #expect(try engine.db.readTransaction { () throws(ProjectionError) in try engine.funnelReport(.all) } == before)
        try engine.rebuild([.threeDS]) // resumes and swaps
        #expect(try engine.status().first { $0.name == .threeDS }?.generation == 2)
        try Self.expectMatchesReference(engine, log)
    }

    @Test("a rebuild on SQLite keeps its query indexes from its first batch, and its answers match")
    func rebuildKeepsIndexesFromTheStart() throws {
        let log = Self.workload(56)
        let db = try TemporaryDatabase(.sqlite)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 20
        try engine.rebuild(maxBatches: 2) // generation 1, half-built
        let indexes = try engine.db.scalarInt(
            """
            SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN
              ('pj_3ds_stream_g1_created', 'pj_3ds_stream_g1_ended', 'pj_card_stream_g1_decision')
            """)
        #expect(indexes == 3)
        #expect(try engine.status().first { $0.name == .threeDS }?.rebuildCheckpoint == 40)
        try engine.rebuild() // resumes, writing through the indexes, and swaps
        let check = try engine.db.statement("PRAGMA integrity_check")
        defer { check.reset() }
        #expect(try check.step() && check.text(0) == "ok")
        try Self.expectMatchesReference(engine, log)
    }

    @Test(
        """
        a rebuild of many batches copies the log aside while its last batch is written, and \
        leaves the write-ahead log empty
        """
    )
    func rebuildLeavesTheLogEmpty() throws {
        let log = Self.workload(57)
        let db = try TemporaryDatabase(.sqlite)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 25
        try engine.rebuild()
        var info = stat()
        let wal = stat(db.location + "-wal", &info) == 0 ? info.st_size : 0
        #expect(wal == 0, "the final wal_checkpoint(TRUNCATE) must not find the checkpoint lock taken")
        try engine.rebuild() // again, over the first generation
        #expect(stat(db.location + "-wal", &info) != 0 || info.st_size == 0)
        try Self.expectMatchesReference(engine, log)
    }
}
