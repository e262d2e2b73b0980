import EventStore
import JournalCore
import Projections
import Testing

/// Every query's read model equals the reference recomputation from the raw events, for many
/// seeds and windows; after a rebuild; after catch-ups of random sizes.
@Suite("Read models match a recomputation from the raw events")
struct ReadModelMatchesReferenceTests {
    /// Random windows over the workload's span, plus the open-ended ones.
    static func windows(_ random: inout TestRandom) -> [QueryWindow] {
        func instant() -> Timestamp {
            Timestamp(
                millisecondsSinceEpoch: LegalLogGenerator.base - 3_600_000
                    + Int64.random(in: 0..<(LegalLogGenerator.span + 7_200_000), using: &random))
        }
        var result: [QueryWindow] = [.all, QueryWindow(since: instant()), QueryWindow(until: instant())]
        for _ in 0..<3 {
            let a = instant()
            let b = instant()
            result.append(QueryWindow(since: min(a, b), until: max(a, b)))
        }
        // A short window (minutes) and an hour-aligned one.
        let start = instant()
        result.append(QueryWindow(since: start, until: start.adding(milliseconds: 900_000)))
        let hour = Timestamp(millisecondsSinceEpoch: LegalLogGenerator.base + 7_200_000)
        result.append(QueryWindow(since: hour, until: hour.adding(milliseconds: 86_400_000)))
        return result
    }

    static func expectAllQueriesMatch(
        _ engine: ProjectionEngine, _ reference: Reference, _ windows: [QueryWindow],
        _ comment: String
    ) throws {
        for w in windows {
            let context = Comment(rawValue: "\(comment), window \(w)")
            #expect(try engine.otp(w) == reference.otp(w), context)
            #expect(try engine.timeouts(w) == reference.timeouts(w), context)
            #expect(try engine.funnel(w) == reference.funnel(w), context)
            #expect(try engine.challenges(w) == reference.challenges(w), context)
            #expect(try engine.errors(w) == reference.errors(w), context)
            #expect(try engine.idv(w) == reference.idv(w), context)
            #expect(try engine.latency(w) == reference.latency(w), context)
            #expect(try engine.eventCount(w) == reference.eventCount(w), context)
        }
    }

    @Test("every query equals the reference", arguments: DatabaseBackend.all, Array(UInt64(1)...12))
    func everyQueryEqualsTheReference(backend: DatabaseBackend, seed: UInt64) throws {
        var generator = LegalLogGenerator(seed: seed)
        let log = generator.log(transactions: 120, digitizations: 100)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 97
        var random = TestRandom(seed: seed &* 31)
        try Self.expectAllQueriesMatch(engine, Reference(log), Self.windows(&random), "seed \(seed)")
    }

    @Test(
        "every query equals the reference on the simulator's workloads", arguments: DatabaseBackend.all,
        Array(UInt64(100)...105))
    func everyQueryEqualsTheReferenceOnSimulatorWorkloads(backend: DatabaseBackend, seed: UInt64) throws {
        let log = SimulatorWorkload.log(seed: seed, transactions: 150, digitizations: 120)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 113
        let first = log.first!.occurredAt
        let last = log.last!.occurredAt
        var windows: [QueryWindow] = [.all]
        var random = TestRandom(seed: seed)
        for _ in 0..<5 {
            let a = Timestamp(
                millisecondsSinceEpoch: Int64.random(
                    in: first.millisecondsSinceEpoch...last.millisecondsSinceEpoch, using: &random))
            let b = a.adding(milliseconds: Int64.random(in: 1...3_600_000, using: &random))
            windows.append(QueryWindow(since: a, until: b))
        }
        try Self.expectAllQueriesMatch(engine, Reference(log), windows, "simulator seed \(seed)")
    }

    @Test("a rebuild gives the same answers", arguments: DatabaseBackend.all, [UInt64(3), 4, 5])
    func rebuildGivesTheSameAnswers(backend: DatabaseBackend, seed: UInt64) throws {
        var generator = LegalLogGenerator(seed: seed)
        let log = generator.log(transactions: 80, digitizations: 80)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 50
        try engine.catchUp()
        let before = try engine.status()
        try engine.rebuild()
        let after = try engine.status()
        for (old, new) in zip(before, after) {
            #expect(new.generation == old.generation + 1)
            #expect(new.checkpoint == old.checkpoint)
        }
        var random = TestRandom(seed: seed)
        try Self.expectAllQueriesMatch(engine, Reference(log), Self.windows(&random), "after rebuild, seed \(seed)")
    }

    @Test("catch-ups of random sizes give the same answers", arguments: DatabaseBackend.all, [UInt64(6), 7, 8, 9])
    func catchUpsOfRandomSizesGiveTheSameAnswers(backend: DatabaseBackend, seed: UInt64) throws {
        var generator = LegalLogGenerator(seed: seed)
        let log = generator.log(transactions: 90, digitizations: 90)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource([])
        var random = TestRandom(seed: seed ^ 0xABCD)
        var delivered = 0
        // The log grows in random steps; each step a new engine (a new process) catches up.
        while delivered < log.count {
            delivered = min(log.count, delivered + Int.random(in: 1...200, using: &random))
            source.events = Array(log[..<delivered])
            let engine = try ProjectionEngine(journal: db.location, source: source)
            engine.batchSize = Int.random(in: 1...64, using: &random)
            try engine.catchUp()
            engine.close()
        }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try Self.expectAllQueriesMatch(engine, Reference(log), Self.windows(&random), "stepwise, seed \(seed)")
    }
}
