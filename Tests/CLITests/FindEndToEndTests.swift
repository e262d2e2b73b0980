import Foundation
import Testing

/// `journal find` through the built executable: every filter against what the export and the
/// domain's aggregate (`journal state`) say about each stream of a simulated journal.
@Suite("journal find (end to end)")
struct FindEndToEndTests {
    /// What the export says about one stream, and its outcome as `journal state` reports it.
    struct Expected: Equatable {
        var stream: String
        var startedAt: String
        var outcome: String = ""
        var events: Int = 0
        var category: String
        var directoryServer: String?
        var serverTransID: String?
        var acsTransID: String?
        var digitalCardID: String?
    }

    /// A simulated journal (40 transactions, 20 digitizations), built once for the suite's
    /// read-only tests, and its streams in the order `find` must print them.
    final class Simulated: @unchecked Sendable { // read only once built (the runner's folder is a constant)
        let runner: JournalRunner
        let streams: [Expected]

        init() throws {
            let runner = try JournalRunner()
            let simulated = try runner.run(["simulate", "--seed", "7", "--transactions", "40", "--digitizations", "20"])
            guard simulated.status == 0 else { throw FixtureError(message: "simulate: \(simulated.stderr)") }
            var byStream: [String: Expected] = [:]
            for event in try runner.exportedObjects() {
                let stream = event["stream"] as! String
                let type = event["type"] as! String
                let data = event["data"] as? [String: Any] ?? [:]
                var expected =
                    byStream[stream]
                    ?? Expected(
                        stream: stream, startedAt: event["occurredAt"] as! String,
                        category: stream.hasPrefix("3ds-") ? "3ds" : "card")
                expected.events += 1
                switch type {
                case "TransactionCreated": expected.directoryServer = data["directoryServerID"] as? String
                case "AuthResponseReceived":
                    expected.serverTransID = data["threeDSServerTransID"] as? String
                    expected.acsTransID = data["acsTransID"] as? String
                case "DigitizationApproved", "DigitizationApprovedWithIDV":
                    expected.digitalCardID = data["digitalCardID"] as? String
                default: break
                }
                byStream[stream] = expected
            }
            // The outcome from the domain's own aggregate: how it ended, else the state it is in.
            for (stream, var expected) in byStream {
                let state = try runner.run(["state", stream, "--format", "json"])
                guard state.status == 0,
                    let object = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any],
                    let summary = object["state"] as? [String: Any],
                    let outcome = summary["outcome"] as? String, let status = summary["status"] as? String
                else {
                    throw FixtureError(message: "state \(stream): \(state.stderr)")
                }
                expected.outcome = outcome == "open" ? status : outcome
                byStream[stream] = expected
            }
            streams = byStream.values.sorted { ($0.startedAt, $0.stream) < ($1.startedAt, $1.stream) }
            self.runner = runner
            // Built once here, not by the tests running in parallel.
            let first = try runner.run(["find"])
            guard first.status == 0 else { throw FixtureError(message: "find: \(first.stderr)") }
        }
    }

    static let shared = Result { try Simulated() }

    /// `find ARGS --format json`, parsed: the streams as (stream, startedAt, outcome, events) and `truncated`.
    static func find(
        _ runner: JournalRunner, _ arguments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (streams: [Expected], truncated: Bool) {
        let result = try runner.run(["find"] + arguments + ["--format", "json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdoutLines.count == 1, sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(Array(object.keys).sorted() == ["streams", "truncated"], sourceLocation: sourceLocation)
        let streams = (object["streams"] as! [[String: Any]]).map { entry in
            #expect(
                Array(entry.keys).sorted() == ["events", "outcome", "startedAt", "stream"],
                sourceLocation: sourceLocation)
            return Expected(
                stream: entry["stream"] as! String, startedAt: entry["startedAt"] as! String,
                outcome: entry["outcome"] as! String, events: entry["events"] as! Int, category: "")
        }
        return (streams, object["truncated"] as! Bool)
    }

    /// The fields `find` prints.
    static func printed(_ streams: [Expected]) -> [Expected] {
        streams.map {
            Expected(stream: $0.stream, startedAt: $0.startedAt, outcome: $0.outcome, events: $0.events, category: "")
        }
    }

    @Test("every stream is listed once, by start then name, with the domain's outcome and its event count")
    func everyStream() throws {
        let fixture = try Self.shared.get()
        #expect(fixture.streams.count == 60)
        let (found, truncated) = try Self.find(fixture.runner, ["--limit", "1000"])
        #expect(found == Self.printed(fixture.streams))
        #expect(!truncated)
        // The simulated journal has streams that ended and streams still open.
        #expect(Set(found.map(\.outcome)).count > 4)
    }

    @Test("each filter keeps exactly the streams the export says match")
    func eachFilter() throws {
        let fixture = try Self.shared.get()
        let all = fixture.streams
        var cases: [([String], [Expected])] = []
        for category in ["3ds", "card"] {
            cases.append((["--category", category], all.filter { $0.category == category }))
        }
        for outcome in Set(all.map(\.outcome)).sorted() {
            cases.append((["--outcome", outcome], all.filter { $0.outcome == outcome }))
        }
        let ended: Set<String> = [
            "completedY", "completedN", "cancelled", "timedOut", "protocolError", "runtimeError",
            "closed", "activated", "declined", "notEligible", "approved", "expired", "failed"
        ]
        // Every simulated journey ends: open streams are in the catch-up test below.
        let open = all.filter { !ended.contains($0.outcome) }
        cases.append((["--outcome", "open"], open))
        for ds in Set(all.compactMap(\.directoryServer)).sorted() {
            cases.append((["--ds", ds], all.filter { $0.directoryServer == ds }))
        }
        let withIDs = all.filter { $0.serverTransID != nil }
        for stream in [withIDs.first!, withIDs.last!] {
            cases.append((["--server-trans-id", stream.serverTransID!], [stream]))
            cases.append((["--acs-trans-id", stream.acsTransID!], all.filter { $0.acsTransID == stream.acsTransID }))
        }
        let cards = all.filter { $0.digitalCardID != nil }
        for stream in [cards.first!, cards.last!] {
            cases.append((["--digital-card-id", stream.digitalCardID!], [stream]))
        }
        // A window on the start time, with millisecond bounds taken from the streams themselves.
        let since = all[10].startedAt
        let until = all[30].startedAt
        cases.append(
            (["--since", since, "--until", until], all.filter { $0.startedAt >= since && $0.startedAt < until }))
        cases.append((["--since", since], all.filter { $0.startedAt >= since }))
        cases.append((["--until", until], all.filter { $0.startedAt < until }))
        let day = String(all[0].startedAt.prefix(10))
        cases.append((["--since", day], all.filter { $0.startedAt >= day }))
        // Filters combine: all of them must match.
        cases.append(
            (
                ["--category", "3ds", "--outcome", "open", "--since", since],
                open.filter { $0.category == "3ds" && $0.startedAt >= since }
            ))
        for (arguments, expected) in cases {
            let (found, truncated) = try Self.find(fixture.runner, arguments + ["--limit", "1000"])
            #expect(found == Self.printed(expected), "\(arguments)")
            #expect(!truncated, "\(arguments)")
        }
    }

    @Test("a limit keeps the first streams in order and says more match")
    func limit() throws {
        let fixture = try Self.shared.get()
        let (found, truncated) = try Self.find(fixture.runner, ["--limit", "5"])
        #expect(found == Self.printed(Array(fixture.streams.prefix(5))))
        #expect(truncated)
        let exact = try Self.find(fixture.runner, ["--limit", "60"])
        #expect(exact.streams.count == 60)
        #expect(!exact.truncated)
        let text = try fixture.runner.run(["find", "--limit", "5"])
        #expect(text.stdoutLines.count == 7)
        #expect(text.stdoutLines.last == "(the first 5 shown; more streams match: narrow the filters or raise --limit)")
        // The default limit is 100.
        #expect(try Self.find(fixture.runner, []).streams.count == 60)
    }

    @Test("text is aligned under a header line, csv has a header row")
    func textAndCSV() throws {
        let fixture = try Self.shared.get()
        let expected = Array(fixture.streams.prefix(12))
        let text = try fixture.runner.run(["find", "--limit", "12"])
        #expect(text.status == 0)
        let lines = text.stdoutLines
        #expect(lines.count == 14) // header, 12 streams, the truncation note
        let header = lines[0]
        #expect(header.range(of: #"^stream +started +outcome +events$"#, options: .regularExpression) != nil)
        let startedColumn = header.range(of: "started")!.lowerBound.utf16Offset(in: header)
        for (line, stream) in zip(lines.dropFirst(), expected) {
            #expect(line.hasPrefix(stream.stream + " "))
            #expect(line.utf16.count == header.utf16.count, "the events column is right-aligned: \(line)")
            let started = line.range(of: stream.startedAt)!.lowerBound.utf16Offset(in: line)
            #expect(started == startedColumn)
            #expect(line.hasSuffix(" \(stream.events)"))
            #expect(line.contains(" \(stream.outcome) "))
        }
        let csv = try fixture.runner.run(["find", "--limit", "12", "--format", "csv"])
        #expect(csv.status == 0)
        #expect(
            csv.stdoutLines == ["stream,startedAt,outcome,events"]
                + expected.map { "\($0.stream),\($0.startedAt),\($0.outcome),\($0.events)" })
    }

    @Test("no match exits 0 with an empty result")
    func noMatch() throws {
        let fixture = try Self.shared.get()
        let arguments = ["find", "--server-trans-id", "00000000-0000-4000-8000-000000000000"]
        let text = try fixture.runner.run(arguments)
        #expect(text.status == 0)
        #expect(text.stdout == "no streams match\n")
        let json = try fixture.runner.run(arguments + ["--format", "json"])
        #expect(json.stdout == #"{"streams":[],"truncated":false}"# + "\n")
        let csv = try fixture.runner.run(arguments + ["--format", "csv"])
        #expect(csv.stdout == "stream,startedAt,outcome,events\n")
    }

    @Test("an unknown outcome is a usage error naming the valid ones, before any journal is opened")
    func unknownOutcome() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["find", "--outcome", "completed", "--db", runner.path("none.db")], db: false)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.first == "error: unknown outcome 'completed'")
        let hint = result.stderrLines.last ?? ""
        #expect(hint.hasPrefix("hint: did you mean 'completedY'? the outcomes are: "))
        for name in [
            "completedY", "timedOut", "closed", "activated", "notEligible", "open", "challenge",
            "authResponseReceived", "pendingActivation", "requested"
        ] {
            #expect(hint.contains(name), "\(name)")
        }
        #expect(!runner.exists("none.db"))
        // An empty window is a usage error too.
        let window = try runner.run(["find", "--since", "2026-11-30", "--until", "2026-11-29"])
        #expect(window.status == 2)
        #expect(window.stderr.hasPrefix("error: --since 2026-11-30 is not before --until 2026-11-29"))
        // --help lists the names.
        let help = try runner.run(["find", "--help"], db: false)
        #expect(help.status == 0)
        #expect(help.stdout.contains("pendingActivation"))
        #expect(help.stdout.contains("--server-trans-id ID"))
    }

    @Test("a correlation id finds every stream whose events carry it in meta")
    func correlationIDs() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let a = LegalEvents.threeDSStream(1)
        let b = LegalEvents.cardStream(2)
        let c = LegalEvents.threeDSStream(3)
        var lines = events.frictionless(1).enumerated().map { index, line in
            // Stream a carries corr-a on its first event and corr-b from its third.
            index == 0
                ? line.replacingOccurrences(
                    of: #""data":"#, with: #""meta":{"correlationId":"corr-a","platform":"iOS"},"data":"#)
                : index >= 2
                    ? line.replacingOccurrences(of: #""data":"#, with: #""meta":{"correlationId":"corr-b"},"data":"#)
                    : line
        }
        lines += events.green(2).map {
            $0.replacingOccurrences(of: #""data":"#, with: #""meta":{"correlationId":"corr-b"},"data":"#)
        }
        lines += events.frictionless(3)
        try runner.importLegal(lines)
        #expect(try Self.find(runner, ["--correlation-id", "corr-a"]).streams.map(\.stream) == [a])
        #expect(try Self.find(runner, ["--correlation-id", "corr-b"]).streams.map(\.stream) == [a, b])
        #expect(try Self.find(runner, ["--correlation-id", "corr-c"]).streams.isEmpty)
        #expect(
            try Self.find(runner, ["--correlation-id", "corr-b", "--category", "card"]).streams.map(\.stream) == [b])
        #expect(try Self.find(runner, []).streams.map(\.stream) == [a, b, c])
    }

    @Test("find applies the events appended since its last run: an open stream's state moves to its outcome")
    func catchUp() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let challenged = events.challenged(1)
        let stream = LegalEvents.threeDSStream(1)
        try runner.importLegal(Array(challenged.prefix(1)), name: "one.ndjson")
        var found = try Self.find(runner, [])
        #expect(found.streams.map(\.outcome) == ["created"])
        try runner.importLegal(Array(challenged[1..<4]), name: "two.ndjson")
        found = try Self.find(runner, ["--outcome", "open"])
        #expect(found.streams.map(\.outcome) == ["challenge"])
        #expect(found.streams.map(\.events) == [4])
        #expect(try Self.find(runner, ["--outcome", "challenge"]).streams.map(\.stream) == [stream])
        // The ids arrived in an earlier run than the end: still found.
        try runner.importLegal(Array(challenged[4...]), name: "three.ndjson")
        found = try Self.find(runner, ["--server-trans-id", LegalEvents.uuid(1, prefix: "5e000000")])
        #expect(found.streams.map(\.outcome) == ["completedY"])
        #expect(found.streams.map(\.events) == [9])
        #expect(try Self.find(runner, ["--outcome", "open"]).streams.isEmpty)
        #expect(
            try Self.find(runner, ["--acs-trans-id", "acs-1", "--ds", "A000000003"]).streams.map(\.stream) == [stream])
    }

    @Test("project --rebuild rebuilds the streams directory and find answers the same")
    func rebuild() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.events(atLeast: 80))
        let before = try runner.run(["find", "--format", "json"])
        #expect(before.status == 0)
        let rebuilt = try runner.run(["project", "--rebuild", "streams", "--format", "json"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains(#""rebuilt":["streams"]"#))
        let status = try runner.run(["project", "--status"])
        #expect(status.stdout.contains("streams"))
        #expect(status.stdout.range(of: #"streams +\d+ +2 "#, options: .regularExpression) != nil, "\(status.stdout)")
        #expect(try runner.run(["find", "--format", "json"]).stdout == before.stdout)
    }

    // MARK: audit shows meta

    @Test("audit shows each event's meta on a line after it, and as a meta key in json")
    func auditShowsMeta() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let stream = LegalEvents.threeDSStream(1)
        var lines = events.challenged(1)
        lines[2] = lines[2].replacingOccurrences(
            of: #""data":"#, with: #""meta":{"correlationId":"c-1","n":1.50},"data":"#)
        try runner.importLegal(lines)
        let text = try runner.run(["audit", stream])
        #expect(text.status == 0)
        let out = text.stdoutLines
        let first = out.firstIndex { $0.contains("TransactionCreated") }!
        #expect(out[first + 1] == #"      meta {"platform":"iOS","sdkVersion":"2.4.1"}"#)
        #expect(out[first + 2].contains("AuthRequestParametersCreated"))
        let third = out.firstIndex { $0.contains("AuthResponseReceived") }!
        #expect(out[third + 1] == #"      meta {"correlationId":"c-1","n":1.50}"#)
        #expect(out.filter { $0.hasPrefix("      meta ") }.count == 2)
        let json = try runner.run(["audit", stream, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let metas = (object["events"] as! [[String: Any]]).map { $0["meta"] as! [String: Any] }
        #expect(metas.count == 9)
        #expect(metas[0] as? [String: String] == ["platform": "iOS", "sdkVersion": "2.4.1"])
        #expect(metas[1].isEmpty)
        #expect(metas[2]["correlationId"] as? String == "c-1")
        #expect(json.stdout.contains(#""meta":{"correlationId":"c-1","n":1.50}"#))
    }
}
