import Domain
import EventStore
import Foundation
import JournalCore
import JournalTestSupport
import Projections
import Testing

/// A replay against a record holds the fold of a stream only while the stream is open: each fold
/// is let go at the stream's last event, which the store records (`journal_streams.last_position`);
/// recording, the stream's entry goes too, and its final outcome to a temporary file.
@Suite("Replay against a record: memory")
struct ReplayRecordMemoryTests {
    static let backends: [DatabaseBackend] = [.sqlite] + (PostgresProjectionsServer.skipped ? [] : [.postgres])

    @Test(
        "comparing, the folds held stay within the streams open across a page's end, not the log's streams",
        arguments: backends)
    func foldsAreLetGoAtTheirStreamsLastEvent(backend: DatabaseBackend) throws {
        let (store, db) = try ReplayRecordTests.simulated(backend, transactions: 600, digitizations: 300)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-memory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayRecordTests.record(store, as: DomainReplayFold.self, rules: "real", to: path)

        let page = 64
        let run = try ReplayRun<DomainReplayFold>(.compare(path: path), rules: "real", page: page)
        var scan = ReplayLogScan(store: try #require(store as? any EventScanning), page: 1000)
        try scan.feed(run)
        #expect(try run.finishComparison().isSame)

        let (open, streams) = try OpenStreams.acrossPages(store, page: Int64(page))
        #expect(open * 5 < streams * 3, "the log must have streams that end early for the bound to show")
        #expect(run.peakLiveFolds > 0)
        #expect(run.peakLiveFolds <= open, "held \(run.peakLiveFolds) folds; \(open) streams open at most")
        // A stream's entry goes once both sides are past its end (the record marks it): one page
        // after its fold, when its results are taken.
        #expect(run.peakLiveStreams <= open + 2 * page, "held \(run.peakLiveStreams) streams; \(open) open")
        #expect(run.peakLiveStreams < streams)
    }

    @Test(
        "comparing, a stream's entry goes once both sides are past its end, with the report of every entry kept",
        arguments: backends)
    func comparisonEntriesAreLetGoOnceBothSidesEnded(backend: DatabaseBackend) throws {
        let (store, db) = try ReplayRecordTests.simulated(backend, transactions: 600, digitizations: 300)
        defer { db.remove() }
        let scanning = try #require(store as? any EventScanning)
        let path = FileManager.default.temporaryDirectory.path + "/replay-memory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayRecordTests.record(store, as: DomainReplayFold.self, rules: "real", to: path)
        let page = 64
        typealias Resend = ReplayRecordTests.ResendCountsAsSubmission
        func compare(_ scanning: any EventScanning) throws -> (String, ReplayRun<Resend>) {
            let run = try ReplayRun<Resend>(
                .compare(path: path), rules: "resend", page: page)
            var scan = ReplayLogScan(store: scanning, page: 1000)
            try scan.feed(run)
            return (JSONWriter.string(.object(try run.finishComparison().json())), run)
        }
        let (bounded, run) = try compare(scanning)
        let (everyEntry, unbounded) = try compare(NoStreamEnds(scanning))
        #expect(bounded == everyEntry)
        #expect(bounded.contains(#""changed":"#) && !bounded.contains(#""changed":0,"#))
        let (open, streams) = try OpenStreams.acrossPages(store, page: Int64(page))
        #expect(run.peakLiveStreams <= open + 2 * page, "held \(run.peakLiveStreams) streams; \(open) open")
        #expect(unbounded.peakLiveStreams == streams)
    }

    @Test("comparing with a store that records no stream ends holds every fold and finds the same")
    func storesWithoutEndsKeepEveryFold() throws {
        let (store, db) = try ReplayRecordTests.simulated(.sqlite, transactions: 300, digitizations: 100)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-memory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayRecordTests.record(store, as: DomainReplayFold.self, rules: "real", to: path)

        let run = try ReplayRun<DomainReplayFold>(.compare(path: path), rules: "real", page: 64)
        var scan = ReplayLogScan(store: NoStreamEnds(try #require(store as? any EventScanning)), page: 1000)
        try scan.feed(run)
        #expect(try run.finishComparison().isSame)
        #expect(run.peakLiveFolds == (try OpenStreams.acrossPages(store, page: 64)).streams)
    }
}

extension ReplayRecordMemoryTests {
    /// A recording's final outcomes, in the order it gives them.
    static func outcomes(
        _ store: any EventScanning, page: Int = 64, finalsBuffer: Int = 8 << 20, directory: String? = nil
    ) throws -> (outcomes: [String], run: ReplayRun<DomainReplayFold>) {
        let path = FileManager.default.temporaryDirectory.path + "/replay-memory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try ReplayRun<DomainReplayFold>(
            .record(path: path), rules: "real", page: page, finalsBuffer: finalsBuffer, temporaryDirectory: directory)
        var scan = ReplayLogScan(store: store, page: 1000)
        try scan.feed(run)
        try run.finishRecord()
        var outcomes: [String] = []
        try run.outcomes { outcome in
            let ending =
                outcome.failure.map { "FAILS at version \($0.version): \($0.reason)" }
                ?? String(decoding: outcome.state, as: UTF8.self)
            outcomes.append("\(outcome.stream) \(outcome.events) \(ending)")
        }
        return (outcomes, run)
    }

    /// Each stream folded alone, in name order, as ``outcomes(_:page:finalsBuffer:directory:)`` gives it.
    static func foldedAlone(_ store: any EventStore) throws -> [String] {
        let parser = JSONParser()
        return try store.streams(category: nil).map(\.rawValue).sorted().map { name in
            var fold = try DomainReplayFold.start(stream: name)
            let events = try store.read(stream: StreamName(name), from: 0, direction: .forward, limit: 100_000)
            for event in events {
                let folded = event.data.withUnsafeBytes { data in
                    Result { () throws(ReplayRuleError) in
                        try fold.replay(type: event.type, data: data, occurredAt: event.occurredAt, parser: parser)
                    }
                }
                if case let .failure(error) = folded {
                    return "\(name) \(event.version) FAILS at version \(event.version): \(error.reason)"
                }
            }
            return "\(name) \(events.count) \(JSONWriter.string(.object(fold.replaySummary)))"
        }
    }

    @Test(
        "recording, the folds, streams and final states held stay within the streams open across a page's end",
        arguments: backends)
    func recordingHoldsWhatIsOpenNotTheLog(backend: DatabaseBackend) throws {
        let (store, db) = try ReplayRecordTests.simulated(backend, transactions: 600, digitizations: 300)
        defer { db.remove() }
        let scanning = try #require(store as? any EventScanning)
        let page = 64
        let spilled = try Self.outcomes(scanning, page: page, finalsBuffer: 4096)
        let held = try Self.outcomes(scanning, page: page, finalsBuffer: 1 << 30)
        let everyFold = try Self.outcomes(NoStreamEnds(scanning), page: page, finalsBuffer: 4096)

        let (open, streams) = try OpenStreams.acrossPages(store, page: Int64(page))
        #expect(open * 5 < streams * 3, "the log must have streams that end early for the bound to show")
        let run = spilled.run
        #expect(run.streams == streams)
        #expect(run.peakLiveFolds > 0 && run.peakLiveFolds <= open, "held \(run.peakLiveFolds) folds; \(open) open")
        // A stream's entry is freed one page after its fold (when its results are taken).
        #expect(run.peakLiveStreams <= open + 2 * page, "held \(run.peakLiveStreams) streams; \(open) open")
        #expect(run.peakLiveStreams < streams)
        // 4,096 bytes of final outcomes, each above 40 bytes (a name and a state).
        #expect(run.spilledFinalRuns > 10)
        #expect(run.peakHeldFinals <= 4096 / 40 + 1, "held \(run.peakHeldFinals) final outcomes")
        #expect(held.run.spilledFinalRuns == 0 && held.run.peakHeldFinals == streams)
        #expect(everyFold.run.peakLiveFolds == streams)

        let alone = try Self.foldedAlone(store)
        #expect(alone.count == streams)
        #expect(spilled.outcomes == alone)
        #expect(held.outcomes == alone)
        #expect(everyFold.outcomes == alone)
    }

    @Test("the final outcomes' temporary file has no name in its folder, while written and after")
    func finalOutcomesLeaveNoFile() throws {
        let (store, db) = try ReplayRecordTests.simulated(.sqlite, transactions: 200, digitizations: 100)
        defer { db.remove() }
        let directory = FileManager.default.temporaryDirectory.path + "/replay-finals-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/day.rec"
        let run = try ReplayRun<DomainReplayFold>(
            .record(path: path), rules: "real", page: 64, finalsBuffer: 2048, temporaryDirectory: directory)
        var scan = ReplayLogScan(store: try #require(store as? any EventScanning), page: 1000)
        try scan.feed(run)
        #expect(run.spilledFinalRuns > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["day.rec.partial"])
        try run.finishRecord()
        var count = 0
        try run.outcomes { _ in count += 1 }
        #expect(count == run.streams)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["day.rec"])

        // A recording that stops leaves nothing either.
        try FileManager.default.removeItem(atPath: path)
        let stopped = try ReplayRun<DomainReplayFold>(
            .record(path: path), rules: "real", page: 64, finalsBuffer: 2048, temporaryDirectory: directory)
        var again = ReplayLogScan(store: try #require(store as? any EventScanning), page: 1000)
        try again.feed(stopped)
        #expect(stopped.spilledFinalRuns > 0)
        stopped.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
}
