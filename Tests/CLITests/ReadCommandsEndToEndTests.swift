import Foundation
import Testing

/// export, verify, audit and state through the built executable.
@Suite("journal export, verify, audit, state (end to end)")
struct ReadCommandsEndToEndTests {
    static let challenged = LegalEvents.threeDSStream(1)
    static let yellow = LegalEvents.cardStream(2)

    func journalWithTwoStreams() throws -> (JournalRunner, [String]) {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.challenged(1) + events.yellowOTP(2)
        try runner.importLegal(lines)
        return (runner, lines)
    }

    // MARK: export

    @Test func exportWritesTheEnvelopePlusTheJournalsKeysInPositionOrder() throws {
        let (runner, lines) = try journalWithTwoStreams()
        let result = try runner.run(["export"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let exported = result.stdoutLines
        #expect(exported.count == lines.count)
        for (index, line) in exported.enumerated() {
            // The input line, then the four keys the journal assigned.
            let input = lines[index]
            #expect(line.hasPrefix(String(input.dropLast()) + #","position":\#(index + 1),"version":"#))
            #expect(
                line.range(
                    of: #","recordedAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","hash":"[0-9a-f]{64}"\}$"#,
                    options: .regularExpression) != nil)
        }
    }

    @Test func exportThenImportIntoAnEmptyJournalReproducesTheEvents() throws {
        let (runner, _) = try journalWithTwoStreams()
        let export = try runner.write("export.ndjson", try runner.run(["export"]).stdout)
        let copy = runner.path("copy.db")
        let imported = try runner.run(["import", export, "--db", copy], db: false)
        #expect(imported.status == 0)
        let original = try runner.exportedObjects()
        let reproduced = try runner.exportedObjects(["--db", copy], db: false)
        #expect(original.count == reproduced.count)
        for (a, b) in zip(original, reproduced) {
            for key in ["id", "stream", "type", "occurredAt", "position", "version"] {
                #expect("\(a[key] ?? "nil")" == "\(b[key] ?? "nil")", "\(key)")
            }
            #expect(
                NSDictionary(dictionary: a["data"] as? [String: Any] ?? [:])
                    .isEqual(to: b["data"] as? [String: Any] ?? [:]))
        }
        // The two journals differ only in recordedAt (and so the hashes); data and meta bytes are equal.
        let stripped = { (text: String) in
            text.replacingOccurrences(
                of: #","recordedAt":"[^"]*","hash":"[0-9a-f]*""#, with: "",
                options: .regularExpression)
        }
        #expect(
            stripped(try runner.run(["export"]).stdout)
                == stripped(try runner.run(["export", "--db", copy], db: false).stdout))
    }

    @Test func exportFiltersByStreamAndFromAnIncludedPosition() throws {
        let (runner, _) = try journalWithTwoStreams()
        let yellow = try runner.exportedObjects(["--stream", Self.yellow])
        #expect(yellow.count == 8)
        #expect(yellow.allSatisfy { $0["stream"] as? String == Self.yellow })
        #expect(yellow.map { $0["version"] as? Int } == Array(0..<8))
        let from = try runner.exportedObjects(["--from-position", "9"])
        #expect(from.map { $0["position"] as? Int } == Array(9...17))
        let both = try runner.exportedObjects(["--stream", Self.yellow, "--from-position", "12"])
        #expect(both.map { $0["position"] as? Int } == Array(12...17))
        #expect(try runner.exportedObjects(["--from-position", "18"]).isEmpty)
    }

    @Test func readingCommandsOnAMissingJournalExit1AndCreateNothing() throws {
        let runner = try JournalRunner()
        for arguments in [
            ["export"], ["verify"], ["audit", Self.challenged], ["state", Self.challenged],
            ["replay", "--all"]
        ] {
            let result = try runner.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines.first == "error: no journal at \(runner.database)")
            #expect(result.stderrLines.last?.hasPrefix("hint: ") == true)
        }
        #expect(!runner.exists("journal.db"))
    }

    @Test func anUnknownStreamExits1() throws {
        let (runner, _) = try journalWithTwoStreams()
        let absent = LegalEvents.threeDSStream(99)
        for command in ["audit", "state", "replay"] {
            let result = try runner.run([command, absent])
            #expect(result.status == 1)
            #expect(result.stderrLines.first == "error: no stream \(absent) in the journal")
        }
        #expect(try runner.run(["export", "--stream", absent]).status == 1)
    }

    @Test func aFileThatIsNotAJournalExits1() throws {
        let runner = try JournalRunner()
        _ = try runner.write("journal.db", "just some text, not SQLite\n")
        let result = try runner.run(["verify"])
        #expect(result.status == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: ") == true)
        #expect(result.stderrLines.last?.hasPrefix("hint: ") == true)
    }

    // MARK: verify

    @Test func verifyOfAnIntactJournalExits0() throws {
        let (runner, lines) = try journalWithTwoStreams()
        let text = try runner.run(["verify"])
        #expect(text.status == 0)
        #expect(
            text.stdout.hasPrefix(
                "ok: \(lines.count) events in 2 streams intact (hash chain, positions, versions); head "
                    + "position \(lines.count), head hash "
            ))
        let json = try runner.run(["verify", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == true)
        #expect(object?["events"] as? Int == lines.count)
        #expect(object?["streams"] as? Int == 2)
        #expect((object?["headHash"] as? String)?.count == 64)
    }

    @Test func verifyOfATamperedJournalExits4WithTheFirstBadPosition() throws {
        let (runner, _) = try journalWithTwoStreams()
        try runner.tamper(replacing: "ACS-REF-7", with: "ACS-REF-8")
        let text = try runner.run(["verify"])
        #expect(text.status == 4)
        #expect(text.stdout.isEmpty)
        #expect(text.stderrLines.first?.hasPrefix("error: ") == true)
        #expect(text.stderrLines.first?.contains("position 4") == true, "\(text.stderr)")
        let json = try runner.run(["verify", "--format", "json"])
        #expect(json.status == 4)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == false)
        #expect(object?["firstBadPosition"] as? Int == 4)
        #expect(object?["reason"] is String)
    }

    // MARK: audit

    @Test func auditShowsTheHistoryWithKeyFieldsAndAnIntegrityMark() throws {
        let (runner, _) = try journalWithTwoStreams()
        let result = try runner.run(["audit", Self.challenged])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines[0] == "\(Self.challenged): 9 events, every hash checks")
        #expect(lines[1].hasPrefix("  ver  pos  occurredAt                recordedAt                type"))
        #expect(lines[1].contains("key fields"))
        #expect(lines.count == 12)
        // The first event's meta, on the line after it.
        #expect(lines[2].contains("TransactionCreated"))
        #expect(lines[3] == #"      meta {"platform":"iOS","sdkVersion":"2.4.1"}"#)
        let events = lines.dropFirst(2).filter { !$0.hasPrefix("      meta ") }
        #expect(events.count == 9)
        #expect(lines[8].contains("ChallengeResponseReceived"))
        #expect(lines[8].contains("acsCounterAtoS=000 challengeCompletionInd=N acsUiType=01"))
        #expect(lines[9].contains("sdkCounterStoA=001 action=submitText  "))
        #expect(events.allSatisfy { $0.hasSuffix("  ✓") })
        // Columns line up: every row has its occurredAt at the same offset.
        let offsets = events.map { $0.range(of: "2026-")?.lowerBound.utf16Offset(in: $0) }
        #expect(Set(offsets).count == 1)
    }

    @Test func auditOfATamperedEventMarksItAndExits4() throws {
        let (runner, _) = try journalWithTwoStreams()
        try runner.tamper(replacing: "ACS-REF-7", with: "ACS-REF-8")
        let result = try runner.run(["audit", Self.challenged])
        #expect(result.status == 4)
        #expect(result.stdoutLines[0] == "\(Self.challenged): 9 events, 1 hash does NOT check")
        #expect(result.stdoutLines[6].contains("ChallengeStarted")) // after the first event's meta line
        #expect(result.stdoutLines[6].hasSuffix("  ✗"))
        #expect(result.stdoutLines.filter { $0.hasSuffix("  ✓") }.count == 8)
        #expect(
            result.stderrLines.first
                == "error: integrity violation in \(Self.challenged): the hash of version 3 (position 4) does not check"
        )
    }

    @Test func auditAsJSONListsEveryEvent() throws {
        let (runner, _) = try journalWithTwoStreams()
        let result = try runner.run(["audit", Self.yellow, "--format", "json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["intact"] as? Bool == true)
        let events = object?["events"] as? [[String: Any]] ?? []
        #expect(events.count == 8)
        #expect(events.map { $0["version"] as? Int } == Array(0..<8))
        #expect(events.map { $0["position"] as? Int } == Array(10...17))
        #expect(events.allSatisfy { $0["hashChecks"] as? Bool == true })
        let decision = events[3]["keyFields"] as? [String: Any]
        #expect(decision?["methods"] as? String == "m1:otpBySMS,m2:appToApp")
        #expect(decision?["digitalCardID"] as? String == "dc-2")
    }
}
