import EventStore
import JournalCore
import Testing

@testable import Projections

/// `journal query rates` (spec §7) against a naive recomputation from `readAll`, the rate
/// rounding, and the `--every` buckets.
@Suite("Rates: cohorts by start, exact rounding, buckets")
struct RatesTests {
    /// Windows whose bounds are stream starts (so an edge falls exactly on a counted event), one
    /// millisecond either side of one, random ones, and the open-ended ones.
    static func windows(_ reference: RatesReference, _ random: inout TestRandom) -> [QueryWindow] {
        let starts = reference.starts
        func at(_ ms: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: ms) }
        var result: [QueryWindow] = [.all]
        for _ in 0..<4 {
            let a = random.pick(starts)
            let b = random.pick(starts)
            result.append(QueryWindow(since: at(min(a, b)), until: at(max(a, b))))
            result.append(QueryWindow(since: at(min(a, b) + 1), until: at(max(a, b) + 1)))
            result.append(QueryWindow(since: at(a)))
            result.append(QueryWindow(until: at(b)))
        }
        let first = starts.first!
        let last = starts.last!
        result.append(QueryWindow(since: at(first), until: at(last))) // the latest start excluded
        result.append(QueryWindow(since: at(first), until: at(last + 1))) // every start: the whole-log answer
        return result
    }

    static func expectRatesMatch(_ engine: ProjectionEngine, _ reference: RatesReference, seed: UInt64) throws {
        var random = TestRandom(seed: seed ^ 0x5EED)
        for window in windows(reference, &random) {
            #expect(try engine.rates(window) == reference.rates(window), "seed \(seed), window \(window)")
        }
    }

    @Test("rates equal the naive recomputation on generated logs", arguments: DatabaseBackend.all, Array(UInt64(1)...6))
    func ratesEqualTheReferenceOnGeneratedLogs(backend: DatabaseBackend, seed: UInt64) throws {
        var generator = LegalLogGenerator(seed: seed)
        let source = ArrayEventSource(generator.log(transactions: 120, digitizations: 120))
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        engine.batchSize = 89
        try Self.expectRatesMatch(engine, try RatesReference(source), seed: seed)
    }

    @Test(
        "rates equal the naive recomputation on the simulator's workloads", arguments: DatabaseBackend.all,
        Array(UInt64(200)...203))
    func ratesEqualTheReferenceOnSimulatorWorkloads(backend: DatabaseBackend, seed: UInt64) throws {
        let source = ArrayEventSource(SimulatorWorkload.log(seed: seed, transactions: 150, digitizations: 150))
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        engine.batchSize = 71
        try Self.expectRatesMatch(engine, try RatesReference(source), seed: seed)
    }

    @Test("a journey's cohort counters move with it across catch-ups")
    func cohortCountersMoveAcrossCatchUps() throws {
        var generator = LegalLogGenerator(seed: 42)
        let log = generator.log(transactions: 60, digitizations: 90)
        let db = try TemporaryDatabase()
        defer { db.remove() }
        let source = ArrayEventSource([])
        var random = TestRandom(seed: 42)
        var delivered = 0
        while delivered < log.count {
            delivered = min(log.count, delivered + Int.random(in: 1...150, using: &random))
            source.events = Array(log[..<delivered])
            let engine = try ProjectionEngine(journal: db.location, source: source)
            engine.batchSize = Int.random(in: 1...40, using: &random)
            try engine.catchUp()
            engine.close()
        }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try Self.expectRatesMatch(engine, try RatesReference(source), seed: 42)
    }

    @Test("rates and their buckets are answered from the read model, without reading the log")
    func ratesDoNotReadTheLog() throws {
        var generator = LegalLogGenerator(seed: 9)
        let source = CountingSource(ArrayEventSource(generator.log(transactions: 50, digitizations: 50)))
        let db = try TemporaryDatabase()
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try engine.catchUp()
        let delivered = source.delivered
        let since = Timestamp(millisecondsSinceEpoch: LegalLogGenerator.base + 123_456)
        _ = try engine.rates()
        _ = try engine.rates(QueryWindow(since: since))
        _ = try engine.run(.rates, window: QueryWindow(since: since), every: .hour)
        // The catch-ups found nothing new: each read only the event its models folded last (the
        // log still holds it).
        #expect(source.delivered == delivered + 3)
    }

    /// Counts the events a source hands out.
    final class CountingSource: ProjectionEventSource {
        let inner: ArrayEventSource
        private(set) var delivered = 0
        init(_ inner: ArrayEventSource) { self.inner = inner }
        func readAll(from position: Int64, limit: Int) throws -> [RecordedEvent] {
            let page = try inner.readAll(from: position, limit: limit)
            delivered += page.count
            return page
        }
        func headPosition() throws -> Int64 { try inner.headPosition() }
    }

    // MARK: - Rounding

    @Test(
        "rates round the exact quotient to 4 decimals, half to even",
        arguments: [
            (Int64(1), Int64(160), "0.0062"), (7, 160, "0.0438"), (1, 3, "0.3333"), (2, 3, "0.6667"),
            (1, 20_000, "0.0000"), (3, 20_000, "0.0002"), (5, 20_000, "0.0002"), (7, 20_000, "0.0004"),
            (0, 5, "0.0000"), (5, 5, "1.0000"), (2, 1, "2.0000"), (99_995, 100_000, "1.0000"),
            (99_985, 100_000, "0.9998")
        ])
    func ratesRoundHalfToEven(numerator: Int64, denominator: Int64, expected: String) {
        let rate = Rate(numerator, over: denominator)
        #expect(rate.decimalText == expected)
        #expect(JSONWriter.string(rate.json) == expected)
    }

    @Test("a rate over zero is null")
    func aRateOverZeroIsNull() {
        #expect(Rate(0, over: 0).json == .null)
        #expect(Rate(0, over: 0).percentText == "-")
        #expect(JSONWriter.string(RatesReport().json).contains(#""frictionlessRate":null"#))
    }

    @Test("rates print as plain decimals and percentages")
    func ratesPrintAsPlainDecimals() {
        #expect(Rate(1, over: 160).percentText == "0.62 %")
        #expect(Rate(233, over: 400).percentText == "58.25 %")
        #expect(JSONWriter.string(Rate(1, over: 10_000).json) == "0.0001")
    }

    // MARK: - Buckets

    static let hour: Int64 = 3_600_000

    @Test("buckets are aligned, contiguous, and those that start before the end and end after the start")
    func bucketsAreAlignedAndContiguous() throws {
        let base = LegalLogGenerator.base // midnight UTC
        // Window cut exactly on bucket edges: no empty bucket on either side.
        #expect(
            try BucketWidth.hour.buckets(from: base, to: base + 2 * Self.hour).map(\.start) == [base, base + Self.hour])
        // Cut inside buckets: the buckets holding the edges, with their aligned edges.
        let cut = try BucketWidth.quarterHour.buckets(from: base + 1, to: base + 900_001)
        #expect(cut.map(\.start) == [base, base + 900_000])
        #expect(cut.map(\.end) == [base + 900_000, base + 1_800_000])
        // One millisecond before an edge to that edge: one bucket.
        #expect(try BucketWidth.day.buckets(from: base - 1, to: base).map(\.start) == [base - 86_400_000])
        #expect(try BucketWidth.minute.buckets(from: base, to: base).isEmpty)
        #expect(
            try BucketWidth.fiveMinutes.buckets(from: base - 1, to: base + 1).map(\.start) == [base - 300_000, base])
        #expect(throws: ProjectionError.self) { try BucketWidth.minute.buckets(from: 0, to: 60_000 * 100_001) }
    }

    @Test(
        "every bucket equals the naive rates of its part of the window",
        arguments: [
            (BucketWidth.hour, Int64(0), Int64(6)), (.quarterHour, 1, 3), (.day, 0, 3), (.fiveMinutes, 5, 6)
        ])
    func everyBucketEqualsTheReference(every: BucketWidth, fromHour: Int64, toHour: Int64) throws {
        var generator = LegalLogGenerator(seed: 77)
        let source = ArrayEventSource(generator.log(transactions: 150, digitizations: 150))
        let reference = try RatesReference(source)
        let db = try TemporaryDatabase()
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        // Bounds on stream starts: the edges cut exactly on counted events.
        let starts = reference.starts
        let lo = starts[starts.count / 7]
        let hi = starts[starts.count * 5 / 7]
        for window in [
            QueryWindow(since: Timestamp(millisecondsSinceEpoch: lo), until: Timestamp(millisecondsSinceEpoch: hi)),
            QueryWindow(
                since: Timestamp(millisecondsSinceEpoch: LegalLogGenerator.base + fromHour * Self.hour),
                until: Timestamp(millisecondsSinceEpoch: LegalLogGenerator.base + toHour * Self.hour)),
            .all, QueryWindow(since: Timestamp(millisecondsSinceEpoch: lo)),
            QueryWindow(until: Timestamp(millisecondsSinceEpoch: hi))
        ] {
            let output = try engine.run(.rates, window: window, every: every)
            let buckets = try #require(output.report as? BucketedReport).buckets
            let effectiveLo = window.since?.millisecondsSinceEpoch ?? starts.first!
            let effectiveHi = window.until?.millisecondsSinceEpoch ?? starts.last! + 1
            #expect(buckets.first?.start.millisecondsSinceEpoch ?? 0 <= effectiveLo)
            #expect(buckets.first!.end.millisecondsSinceEpoch > effectiveLo)
            #expect(buckets.last!.start.millisecondsSinceEpoch < effectiveHi)
            #expect(buckets.last!.end.millisecondsSinceEpoch >= effectiveHi)
            var total = RatesReport()
            for (index, bucket) in buckets.enumerated() {
                let start = bucket.start.millisecondsSinceEpoch
                let end = bucket.end.millisecondsSinceEpoch
                #expect(start % every.milliseconds == 0 && end - start == every.milliseconds)
                if index > 0 { #expect(buckets[index - 1].end == bucket.start) }
                let part = QueryWindow(
                    since: Timestamp(millisecondsSinceEpoch: max(start, effectiveLo)),
                    until: Timestamp(millisecondsSinceEpoch: min(end, effectiveHi)))
                let report = try #require(bucket.report as? RatesReport)
                #expect(report == reference.rates(part), "\(every.rawValue) bucket \(bucket.start), window \(window)")
                total.transactions += report.transactions
                total.journeys += report.journeys
            }
            let whole = reference.rates(
                QueryWindow(
                    since: Timestamp(millisecondsSinceEpoch: effectiveLo),
                    until: Timestamp(millisecondsSinceEpoch: effectiveHi)))
            #expect(total.transactions == whole.transactions && total.journeys == whole.journeys)
        }
    }

    @Test("an empty journal has no buckets")
    func anEmptyJournalHasNoBuckets() throws {
        let db = try TemporaryDatabase()
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource([]))
        defer { engine.close() }
        let output = try engine.run(.rates, window: .all, every: .hour)
        #expect(JSONWriter.string(output.report.json) == #"{"buckets":[]}"#)
    }
}
