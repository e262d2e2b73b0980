import EventStore
import Foundation
import JournalCore
import Testing

/// `replay --all` folds every stream in one pass over the log; each stream's outcome must be the
/// one `journal replay STREAM` gives reading it alone, failures included. The store itself does
/// not apply the domain's rules, so events appended through the library can break them.
@Suite("journal replay --all in one pass over the log (end to end)")
struct ReplayAllEndToEndTests {
    static let broken = LegalEvents.threeDSStream(7)
    static let other = "misc-" + LegalEvents.uuid(8)

    /// Legal streams, then through the library: a stream that starts with an event it may not
    /// start with followed by more events, a second TransactionCreated on a legal stream, and a
    /// stream of a category the domain does not know.
    func journal() throws -> JournalRunner {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.yellowOTP(2) + events.frictionless(3))
        let store = try SQLiteEventStore(path: runner.database)
        let event = LegalEvents.unchecked
        try store.append([
            StreamAppend(
                stream: try StreamName(Self.broken), expectedVersion: .noStream,
                events: [
                    event(1, "ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"ACS-REF-7"}"#),
                    event(2, "TransactionClosed", "{}")
                ]),
            StreamAppend(
                stream: try StreamName(LegalEvents.threeDSStream(3)),
                events: [
                    event(3, "TransactionCreated", #"{"directoryServerID":"A000000004","messageVersion":"2.3.1"}"#)
                ]),
            StreamAppend(stream: try StreamName(Self.other), events: [event(4, "Noted", "{}")])
        ])
        return runner
    }

    func json(_ text: String) throws -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object != nil, "not a JSON object: \(text)")
        return object ?? [:]
    }

    @Test("every failure of replay --all is the one replaying that stream alone reports")
    func failuresMatchTheSingleStreamReplay() throws {
        let runner = try journal()
        let all = try runner.run(["replay", "--all", "--format", "json"])
        #expect(all.status == 6, "\(all.stderr)")
        let object = try json(all.stdout)
        #expect(object["streams"] as? Int == 5)
        let failures = object["failures"] as? [[String: Any]] ?? []
        #expect(failures.map { $0["stream"] as? String } == [LegalEvents.threeDSStream(3), Self.broken, Self.other])
        // A stream of no known category fails before its first event, as it always did.
        #expect(failures.last?["version"] as? Int == 0)
        #expect(failures.last?["position"] as? Int == 0)
        #expect(
            failures.last?["reason"] as? String
                == "stream: invalid stream name: the stream's category must be 3ds or card")
        for failure in failures.dropLast() {
            let stream = try #require(failure["stream"] as? String)
            let alone = try json(try runner.run(["replay", stream, "--format", "json"]).stdout)
            #expect(alone["ok"] as? Bool == false)
            #expect(failure["version"] as? Int == alone["failedAtVersion"] as? Int, "\(stream)")
            #expect(failure["position"] as? Int == alone["failedAtPosition"] as? Int, "\(stream)")
            #expect(failure["reason"] as? String == alone["reason"] as? String, "\(stream)")
        }
        // The events counted are the ones that folded: 21 legal, none of the broken streams'.
        #expect(object["events"] as? Int == 21)
    }

    @Test("replay --all up to a position counts the events up to it, stream by stream alike")
    func untilPositionMatchesTheSingleStreamReplay() throws {
        let runner = try journal()
        for until in [1, 9, 17, 21, 22, 23, 25] {
            let all = try json(
                try runner.run(["replay", "--all", "--until-position", "\(until)", "--format", "json"]).stdout)
            var events = 0
            var streams = 1 // the stream of no known category fails whatever the position
            for stream in [
                LegalEvents.threeDSStream(1), LegalEvents.cardStream(2), LegalEvents.threeDSStream(3),
                Self.broken
            ] {
                let alone = try json(
                    try runner.run([
                        "replay", stream, "--until-position", "\(until)",
                        "--format", "json"
                    ]).stdout)
                let folded = alone["events"] as? Int ?? 0
                if folded > 0 || alone["ok"] as? Bool == false { streams += 1 }
                events += folded
            }
            #expect(all["events"] as? Int == events, "until \(until)")
            #expect(all["streams"] as? Int == streams, "until \(until)")
        }
    }

    @Test("a tampered event stops replay --all with exit 4 naming its position")
    func aTamperedEventStopsIt() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.frictionless(3))
        let store = try SQLiteEventStore(path: runner.database)
        try store.withConnection { db in
            try db.execute("DROP TRIGGER journal_events_no_update")
            try db.execute("UPDATE journal_events SET occurred_at = occurred_at + 1 WHERE position = 5")
        }
        let result = try runner.run(["replay", "--all"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("position 5"), "\(result.stderr)")
    }
}
