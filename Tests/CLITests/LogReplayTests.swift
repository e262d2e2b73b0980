import EventStore
import JournalCore
import Projections
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
        finalsBuffer: Int = 256, progress: (Int64) -> Void = { _ in }
    ) throws -> [String: Outcome] {
        var replay = LogReplay(store: store, scanPage: page, namePage: namePage, finalsBuffer: finalsBuffer)
        return Dictionary(uniqueKeysWithValues: try Self.outcomes(replay.run(untilPosition: until, progress: progress)))
    }

    /// The final outcomes, in the order they are given.
    static func outcomes(_ finals: ReplayFinals) throws -> [(String, Outcome)] {
        var outcomes: [(String, Outcome)] = []
        try finals.forEachInNameOrder { final in
            let state = final.state.isEmpty ? JSONObject() : try JSONParser().parse(final.state).objectValue
            outcomes.append(
                (
                    final.stream,
                    Outcome(
                        events: final.events,
                        failure: final.failure.map {
                            StreamReplay.Failure(version: $0.0, position: $0.1, reason: $0.2)
                        },
                        state: try #require(state))
                ))
        }
        return outcomes
    }

    func alone(_ store: SQLiteEventStore, until: Int64 = .max) throws -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        for stream in try store.streams(category: nil) {
            let outcome = try StreamReplay.fold(stream, in: store, untilPosition: until)
            guard outcome.events > 0 || outcome.failure != nil else { continue }
            outcomes[stream.rawValue] = Outcome(
                events: outcome.events, failure: outcome.failure,
                state: outcome.failure == nil ? outcome.summary : JSONObject())
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

    @Test("the final outcomes come back in name order, whether they were spilled to a file or not")
    func finalsInNameOrderWhateverTheSpills() throws {
        let (_, store) = try journal()
        var whole: [String]?
        for buffer in [1, 256, 4096, 8 << 20] {
            var replay = LogReplay(store: store, scanPage: 16, finalsBuffer: buffer)
            let finals = try replay.run(untilPosition: .max, progress: { _ in })
            #expect((finals.spilledRuns > 1) == (buffer < 8 << 20), "buffer \(buffer): \(finals.spilledRuns) runs")
            let names = try Self.outcomes(finals).map(\.0)
            #expect(names == names.sorted(), "buffer \(buffer)")
            #expect(whole == nil || names == whole, "buffer \(buffer)")
            whole = names
        }
        #expect(whole == (try store.streams(category: nil)).map(\.rawValue))
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
