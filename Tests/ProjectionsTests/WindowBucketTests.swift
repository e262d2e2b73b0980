import EventStore
import JournalCore
import Testing

@testable import Projections

/// The windowed pre-aggregates: how a window is tiled into whole time buckets and partial
/// minutes, the sorted duration lists, and the answers of windows whose bounds cut minutes,
/// hours and days while outcomes move between buckets across catch-up steps.
@Suite("Windows from time buckets")
struct WindowBucketTests {
    static let minute: Int64 = 60_000

    @Test("a window is tiled by whole buckets and at most two partial minutes, exactly")
    func aWindowIsTiledByWholeBucketsAndAtMostTwoPartialMinutesExactly() {
        var random = TestRandom(seed: 77)
        let base = LegalLogGenerator.base
        for _ in 0..<2_000 {
            let a = base + Int64.random(in: -3 * 86_400_000...3 * 86_400_000, using: &random)
            let length = [
                Int64.random(in: 0...120_000, using: &random), Int64.random(in: 0...5 * 86_400_000, using: &random),
                Int64.random(in: 0...4, using: &random) * 3_600_000,
                Int64.random(in: 0...3, using: &random) * 86_400_000
            ][Int.random(in: 0...3, using: &random)]
            let lo = Bool.random(using: &random) ? a : (a / Self.minute) * Self.minute
            for levels in [TimeBuckets.countLevels, TimeBuckets.valueLevels] {
                let cover = TimeBuckets.cover(lo, lo + length, levels: levels)
                var pieces: [(Int64, Int64)] = cover.partial.map { ($0.lo, $0.hi) }
                for run in cover.runs {
                    #expect(levels.contains(run.width))
                    #expect(run.first < run.end)
                    pieces.append((run.first * run.width * Self.minute, run.end * run.width * Self.minute))
                }
                pieces.sort { $0.0 < $1.0 }
                var at = lo
                for (start, end) in pieces {
                    #expect(start == at, "gap or overlap in the cover of [\(lo), \(lo + length))")
                    at = end
                }
                #expect(at == (length == 0 ? lo : lo + length))
                #expect(cover.partial.count <= 2)
                for part in cover.partial {
                    if cover.runs.isEmpty {
                        // No whole minute inside: the window itself, shorter than two minutes.
                        #expect(cover.partial.count == 1 && part.hi - part.lo < 2 * Self.minute)
                    } else {
                        #expect(TimeBuckets.minute(of: part.lo) == TimeBuckets.minute(of: part.hi - 1))
                    }
                }
            }
        }
    }

    @Test("a window cutting minutes reads whole minutes, 10 minutes and hours, and two partial minutes")
    func aWindowCuttingMinutesReadsTheWidestBucketsItCovers() {
        let lo = Timestamp("2026-11-30T10:17:23.456Z")!.millisecondsSinceEpoch
        let hi = Timestamp("2026-11-30T12:02:00.001Z")!.millisecondsSinceEpoch
        let cover = TimeBuckets.cover(lo, hi, levels: TimeBuckets.countLevels)
        let m = { (text: String) in Timestamp(text)!.millisecondsSinceEpoch / Self.minute }
        #expect(cover.partial.map(\.lo) == [lo, m("2026-11-30T12:02:00.000Z") * Self.minute])
        #expect(cover.partial.map(\.hi) == [m("2026-11-30T10:18:00.000Z") * Self.minute, hi])
        #expect(
            cover.runs == [
                TimeBuckets.Run(width: 1, first: m("2026-11-30T10:18:00.000Z"), end: m("2026-11-30T10:20:00.000Z")),
                TimeBuckets.Run(
                    width: 10, first: m("2026-11-30T10:20:00.000Z") / 10, end: m("2026-11-30T11:00:00.000Z") / 10),
                TimeBuckets.Run(
                    width: 60, first: m("2026-11-30T11:00:00.000Z") / 60, end: m("2026-11-30T12:00:00.000Z") / 60),
                TimeBuckets.Run(width: 1, first: m("2026-11-30T12:00:00.000Z"), end: m("2026-11-30T12:02:00.000Z"))
            ])
        // Open bounds: everything before (after) is tiled too, without overflow.
        let open = TimeBuckets.cover(Int64.min, hi, levels: TimeBuckets.countLevels)
        #expect(open.runs.contains { $0.width == 1440 && $0.first < -1_000_000_000 })
        #expect(open.runs.count < 12 && open.partial.count == 2)
    }

    @Test("sorted duration lists survive their text form and give the nearest rank of their union")
    func sortedDurationListsSurviveTheirTextFormAndGiveTheNearestRankOfTheirUnion() {
        var random = TestRandom(seed: 5)
        for round in 0..<300 {
            var lists: [[Int64]] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                var list: [Int64] = []
                for _ in 0..<Int.random(in: 0...40, using: &random) {
                    switch round % 3 {
                    case 0: list.append(Int64.random(in: -5...5, using: &random))
                    case 1: list.append(Int64.random(in: -2_000_000...900_000_000, using: &random))
                    default: list.append(Int64.random(in: Int64.min...Int64.max, using: &random))
                    }
                }
                list.sort()
                #expect(SortedValues.decode(SortedValues.encode(list)) == list)
                lists.append(list)
            }
            let merged = lists.flatMap { $0 }.sorted()
            #expect(SortedValues.distribution(lists) == Distribution(sorted: merged))
            // Changes: take out some values, add others.
            guard var first = lists.first, !first.isEmpty else { continue }
            var changes: [Int64: Int64] = [first[0]: -1, 7: 2]
            if first.count > 1 { changes[first[first.count - 1], default: 0] -= 1 }
            var expected = first
            expected.removeFirst()
            if first.count > 1 { expected.removeLast() }
            expected.append(contentsOf: [7, 7])
            expected.sort()
            first = SortedValues.applying(changes, to: first)
            #expect(first == expected)
        }
        #expect(SortedValues.decode("S12") == nil)
        #expect(SortedValues.decode("X") == nil)
    }

    /// Windows whose bounds lie on, or one millisecond beside, minute, 10-minute, hour and day
    /// boundaries of the generated log's span, and some around them.
    static func boundaryWindows(_ random: inout TestRandom) -> [QueryWindow] {
        func at(_ ms: Int64) -> Timestamp { Timestamp(millisecondsSinceEpoch: ms) }
        let base = LegalLogGenerator.base
        var result: [QueryWindow] = []
        for _ in 0..<6 {
            let unit = [Self.minute, 10 * Self.minute, 3_600_000, 86_400_000][Int.random(in: 0...3, using: &random)]
            let start =
                base + Int64.random(in: 0...(LegalLogGenerator.span / unit), using: &random) * unit
                + Int64.random(in: -1...1, using: &random)
            let length = unit * Int64.random(in: 1...30, using: &random) + Int64.random(in: -1...1, using: &random)
            result.append(QueryWindow(since: at(start), until: at(start + length)))
        }
        result.append(QueryWindow(since: at(base + 86_400_000 - 1)))
        result.append(QueryWindow(until: at(base + 3_600_000 + 1)))
        return result
    }

    @Test(
        "windows on bucket boundaries match the reference while outcomes move between buckets across catch-ups",
        arguments: DatabaseBackend.all, [UInt64(21), 22, 23])
    func windowsOnBucketBoundariesMatchTheReferenceAcrossCatchUps(backend: DatabaseBackend, seed: UInt64) throws {
        var generator = LegalLogGenerator(seed: seed)
        let log = generator.log(transactions: 70, digitizations: 70)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource([])
        var random = TestRandom(seed: seed &* 7)
        var delivered = 0
        while delivered < log.count {
            // Each step appends the next events (terminal events of streams counted in earlier
            // steps among them) and a new engine answers windows over what is there so far.
            delivered = min(log.count, delivered + Int.random(in: 40...400, using: &random))
            source.events = Array(log[..<delivered])
            let engine = try ProjectionEngine(journal: db.location, source: source)
            engine.batchSize = Int.random(in: 5...80, using: &random)
            try ReadModelMatchesReferenceTests.expectAllQueriesMatch(
                engine, Reference(source.events), Self.boundaryWindows(&random), "seed \(seed), \(delivered) events")
            engine.close()
        }
    }

    @Test(
        "a transaction with submissions before and in the window counts once, whether they lie close or far apart",
        arguments: DatabaseBackend.all)
    func aTransactionWithSubmissionsBeforeAndInTheWindowCountsOnce(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        for (stream, minute) in [("3ds-close", 0), ("3ds-far", 1), ("3ds-late", 2)] {
            log.challenge(stream, at: minute)
            log.request(stream, "000", "initial", at: log.t(minute, 4))
            log.screen(stream, "000", ui: "01", at: log.t(minute, 5))
        }
        log.request("3ds-close", "001", "submitText", at: log.t(6, 0))
        log.request("3ds-close", "002", "submitText", at: log.t(8, 0))
        log.request("3ds-far", "001", "submitText", at: log.t(6, 0))
        log.request("3ds-far", "002", "submitText", at: log.t(40, 0)) // 34 minutes later: a long span
        log.request("3ds-late", "001", "submitText", at: log.t(30, 0))
        func transactions(_ since: String, _ until: String) throws -> String {
            let json = try answer(backend, log, since: since, until: until) { engine, window in try engine.otp(window) }
            return String(json.split(separator: ",").first { $0.hasPrefix(#""transactions""#) } ?? "")
        }
        #expect(try transactions(log.t(7, 0), "2026-11-29T11:00:00.000Z") == #""transactions":3"#)
        #expect(try transactions(log.t(9, 0), log.t(35, 0)) == #""transactions":1"#)
        #expect(try transactions("2026-11-29T10:06:00.001Z", "2026-11-29T10:40:00.001Z") == #""transactions":3"#)
        #expect(try transactions("2026-11-29T10:08:00.001Z", "2026-11-29T10:39:59.999Z") == #""transactions":1"#)
        #expect(try transactions(log.t(0, 0), log.t(6, 0)) == #""transactions":0"#)
    }

    @Test(
        "a funnel outcome decided in a later catch-up moves to its bucket's new outcome", arguments: DatabaseBackend.all
    )
    func aFunnelOutcomeDecidedInALaterCatchUpMoves(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", at: 1)
        log.request("3ds-a", "000", "initial", at: log.t(1, 4))
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource(log.events)
        let window = QueryWindow(
            since: Timestamp("2026-11-29T10:00:00.000Z"), until: Timestamp("2026-11-29T11:00:00.000Z"))
        let first = try ProjectionEngine(journal: db.location, source: source)
        #expect(try first.funnel(window).outcomes == ["open": 1])
        #expect(try first.challenges(window).challengesEnded == 0)
        first.close()
        log.final("3ds-a", "001", "Y", at: "2026-11-29T11:30:00.000Z")
        log.add("3ds-a", "ChallengeCompleted", at: "2026-11-29T11:30:00.001Z", #"{"transStatus":"Y"}"#)
        source.events = log.events
        let second = try ProjectionEngine(journal: db.location, source: source)
        defer { second.close() }
        #expect(try second.funnel(window).outcomes == ["completedY": 1])
        #expect(try second.challenges(window).challengesEnded == 0)
        let later = QueryWindow(
            since: Timestamp("2026-11-29T11:00:00.000Z"), until: Timestamp("2026-11-29T12:00:00.000Z"))
        #expect(try second.challenges(later).challengesEnded == 1)
        #expect(try second.latency(later).challenge.count == 1)
        #expect(try second.funnel(later).transactions == 0)
    }
}
