import EventStore
import JournalCore
import Testing

@testable import JournalApp

/// `replay --all` scans the log a page at a time on one thread and folds each page on another;
/// where the pages are cut must change nothing: every stream's outcome is the one a page of one
/// event gives, and the one replaying the stream alone gives.
@Suite("replay --all over many scan pages")
struct LogReplayTests {
    static let broken = LegalEvents.threeDSStream(90_007)
    static let notAnObject = LegalEvents.threeDSStream(90_008)
    static let other = "misc-" + LegalEvents.uuid(90_009)

    /// About 130 legal events over many streams, then (appended through the library, which does
    /// not apply the domain's rules) a stream closed twice, a stream whose second event's data is
    /// not a JSON object, and a stream of a category the domain does not know.
    func journal() throws -> (JournalRunner, SQLiteEventStore) {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 130))
        let store = try SQLiteEventStore(path: runner.database)
        let event = LegalEvents.unchecked
        try store.append([
            StreamAppend(
                stream: try StreamName(Self.broken), expectedVersion: .noStream,
                events: [
                    event(1, "TransactionCreated", #"{"directoryServerID":"A000000004","messageVersion":"2.3.1"}"#),
                    event(2, "TransactionClosed", "{}"),
                    event(3, "TransactionClosed", "{}")
                ]),
            StreamAppend(
                stream: try StreamName(Self.notAnObject), expectedVersion: .noStream,
                events: [
                    event(4, "TransactionCreated", #"{"directoryServerID":"A000000004","messageVersion":"2.3.1"}"#),
                    event(5, "TransactionClosed", "[1]")
                ]),
            StreamAppend(stream: try StreamName(Self.other), events: [event(6, "Noted", "{}")])
        ])
        return (runner, store)
    }

    struct Outcome: Equatable {
        var events: Int
        var failure: StreamReplay.Failure?
        var state: JSONObject
    }

    func replayAll(
        _ store: SQLiteEventStore, page: Int, namePage: Int = LogReplay.namePage, until: Int64 = .max,
        progress: (Int64) -> Void = { _ in }
    ) throws -> [String: Outcome] {
        var replay = LogReplay(store: store, scanPage: page, namePage: namePage)
        var outcomes = try replay.run(untilPosition: until, progress: progress).mapValues { entry in
            Outcome(events: entry.events, failure: entry.failure, state: entry.fold?.summary ?? JSONObject())
        }
        // As `replay --all` does: a stream with no event up to the position gets the fold of no
        // events, which fails only for a stream no fold takes.
        for stream in try store.streams(category: nil) where outcomes[stream.rawValue] == nil {
            let none = try StreamReplay.fold(stream, pages: { _, _ in [] })
            guard let failure = none.failure else { continue }
            outcomes[stream.rawValue] = Outcome(events: 0, failure: failure, state: none.summary)
        }
        return outcomes
    }

    func alone(_ store: SQLiteEventStore, until: Int64 = .max) throws -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        for stream in try store.streams(category: nil) {
            let outcome = try StreamReplay.fold(stream, in: store, untilPosition: until)
            guard outcome.events > 0 || outcome.failure != nil else { continue }
            outcomes[stream.rawValue] = Outcome(
                events: outcome.events, failure: outcome.failure, state: outcome.summary)
        }
        return outcomes
    }

    /// Changes the stored occurredAt of the event at `position` behind the store's back: its chain
    /// link no longer holds.
    static func shiftOccurredAt(of position: Int64, in store: SQLiteEventStore) throws {
        try store.withConnection { db in
            try db.execute("DROP TRIGGER journal_events_no_update")
            try db.execute("UPDATE journal_events SET occurred_at = occurred_at + 1 WHERE position = \(position)")
        }
    }

    @Test("every page size gives each stream the outcome of replaying it alone")
    func pageSizesChangeNothing() throws {
        let (_, store) = try journal()
        let expected = try alone(store)
        #expect(expected.count > 20)
        #expect(expected[Self.broken]?.failure?.version == 2)
        #expect(expected[Self.notAnObject]?.failure?.reason == "the stored data is not a JSON object")
        #expect(expected[Self.other]?.failure?.version == 0)
        for page in [1, 2, 7, 64, LogReplay.scanPage] {
            #expect(try replayAll(store, page: page) == expected, "page \(page)")
            // Stream names read a few at a time: most batches carry names to the fold side.
            #expect(try replayAll(store, page: page, namePage: 3) == expected, "page \(page), names by 3")
        }
    }

    @Test("the report rendered in chunks on two threads is the report rendered in one run")
    func chunksRenderAsOne() throws {
        let (_, store) = try journal()
        var replay = LogReplay(store: store, scanPage: 16)
        let folds = try replay.run(untilPosition: 60, progress: { _ in })
        let names = try store.streams(category: nil)
        // Streams that begin after position 60 have no fold and no part in the report.
        #expect(names.count > folds.count)
        for count in [0, 1, 2, 3, names.count - 1, names.count] {
            let some = Array(names.prefix(count))
            let whole = try ReplayDigestPart.render(some[...], from: folds)
            var expected = ReplayReport()
            expected.absorb(whole)
            let expectedDigest = expected.finish()
            for chunk in [1, 2, 3, ReplayDigestPart.chunk] {
                let report = try ReplayDigestPart.report(some, from: folds, chunk: chunk)
                #expect(report.finish() == expectedDigest, "\(count) streams, chunks of \(chunk)")
                #expect(report.streams == whole.streams)
                #expect(report.events == whole.events)
                #expect(report.failures.map(\.stream) == whole.failures.map(\.stream))
            }
        }
        let all = try ReplayDigestPart.render(names[...], from: folds)
        #expect(all.failures.map(\.stream.rawValue).contains(Self.other))
        #expect(all.events == 60)
    }

    @Test("progress reports the events folded, page by page, in increasing order up to the head")
    func progressIncreases() throws {
        let (_, store) = try journal()
        var reported: [Int64] = []
        _ = try replayAll(store, page: 7) { reported.append($0) }
        let head = try store.headPosition()
        #expect(reported.count == Int((head + 6) / 7))
        #expect(reported == reported.sorted() && Set(reported).count == reported.count)
        #expect(reported.last == head)
    }

    @Test("--until-position in the middle of a page stops at that position")
    func untilInsideAPage() throws {
        let (_, store) = try journal()
        for until: Int64 in [10, 53, 54, 55] {
            var reported: [Int64] = []
            let outcomes = try replayAll(store, page: 7, until: until) { reported.append($0) }
            #expect(outcomes == (try alone(store, until: until)), "until \(until)")
            #expect(reported.last == until, "until \(until)")
        }
    }

    @Test("a tampered event in a later page stops the replay naming its position")
    func integrityFailureInALaterPage() throws {
        let (_, store) = try journal()
        try LogReplayTests.shiftOccurredAt(of: 40, in: store)
        for page in [1, 7, 16] {
            var reported: [Int64] = []
            do {
                _ = try replayAll(store, page: page) { reported.append($0) }
                Issue.record("page \(page): replay --all folded a tampered event")
            } catch let error as EventStoreError {
                #expect(error.code == .integrity, "page \(page)")
                #expect(error.message.contains("position 40"), "page \(page): \(error)")
            }
            // The pages before the tampered event were folded, none after it.
            #expect(reported.allSatisfy { $0 < 40 }, "page \(page): \(reported)")
            #expect(reported.last == Int64(39 / page * page), "page \(page): \(reported)")
        }
    }
}
