import Foundation
import Testing

/// state, replay and demo through the built executable.
@Suite("journal state, replay, demo (end to end)")
struct ReplayEndToEndTests {
    static let challenged = LegalEvents.threeDSStream(1)
    static let yellow = LegalEvents.cardStream(2)

    func journal() throws -> JournalRunner {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.yellowOTP(2) + events.frictionless(3))
        return runner
    }

    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    // MARK: state

    @Test func stateShowsTheAggregateAtTheEndOrAtAnyVersion() throws {
        let runner = try journal()
        let end = try json(try runner.run(["state", Self.yellow, "--format", "json"]).stdout)
        #expect(end["version"] as? Int == 7)
        let state = end["state"] as? [String: Any]
        #expect(state?["status"] as? String == "ended")
        #expect(state?["activatedBy"] as? String == "idv")
        let middle = try json(try runner.run(["state", Self.yellow, "--at-version", "5", "--format", "json"]).stdout)
        #expect(middle["version"] as? Int == 5)
        #expect((middle["state"] as? [String: Any])?["step"] as? String == "otpNeeded")
        let text = try runner.run(["state", Self.challenged, "--at-version", "3"])
        #expect(text.status == 0)
        #expect(text.stdoutLines.first == "\(Self.challenged) at version 3 (of 0…8)")
        #expect(text.stdoutLines.contains("  status                   challenge"))
    }

    @Test func aVersionBeyondTheStreamExits1() throws {
        let runner = try journal()
        let result = try runner.run(["state", Self.challenged, "--at-version", "9"])
        #expect(result.status == 1)
        #expect(result.stderrLines.first == "error: \(Self.challenged) has versions 0…8; there is no version 9")
    }

    // MARK: replay

    @Test func replayPrintsEveryStepAndTheFinalStateTheSameEveryTime() throws {
        let runner = try journal()
        let first = try runner.run(["replay", Self.challenged])
        #expect(first.status == 0)
        let lines = first.stdoutLines
        #expect(lines[0] == "replay of \(Self.challenged): 9 events")
        #expect(lines[1] == "  version  position  occurredAt                type                          state after")
        #expect(lines[2].hasSuffix("TransactionCreated            created"))
        #expect(lines[10].hasSuffix("ChallengeCompleted            ended: completedY"))
        #expect(lines[11] == "final state:")
        #expect(try runner.run(["replay", Self.challenged]).stdout == first.stdout)
        let json = try runner.run(["replay", Self.challenged, "--format", "json"])
        let object = try self.json(json.stdout)
        #expect((object["steps"] as? [Any])?.count == 9)
        #expect(object["ok"] as? Bool == true)
    }

    @Test func replayAllPrintsTheSameDigestForTheSameLogOnAnotherJournal() throws {
        let runner = try journal()
        let all = try runner.run(["replay", "--all"])
        #expect(all.status == 0)
        #expect(all.stdoutLines.first == "replayed 3 streams, 21 events: every stream folds")
        #expect(
            all.stdoutLines.last?.range(
                of: "^digest of all final states: sha256:[0-9a-f]{64}$",
                options: .regularExpression) != nil)
        // Another journal from the same events (other recordedAt, other hashes): same digest.
        let export = try runner.write("export.ndjson", try runner.run(["export"]).stdout)
        let copy = runner.path("copy.db")
        #expect(try runner.run(["import", export, "--db", copy], db: false).status == 0)
        #expect(try runner.run(["replay", "--all", "--db", copy], db: false).stdout == all.stdout)
        // Stopping earlier gives another digest.
        let early = try runner.run(["replay", "--all", "--until-position", "9", "--format", "json"])
        let object = try json(early.stdout)
        #expect(object["streams"] as? Int == 1)
        #expect(object["events"] as? Int == 9)
        #expect(object["digest"] as? String != all.stdoutLines.last?.components(separatedBy: " ").last)
    }

    @Test(
        "an event changed behind the journal's back stops every read command with exit 4 naming its position",
        arguments: [
            ["replay", ReplayEndToEndTests.challenged], ["replay", "--all"], ["state", ReplayEndToEndTests.challenged],
            ["export"], ["export", "--stream", ReplayEndToEndTests.challenged], ["query", "otp"],
            ["project", "--rebuild"]
        ])
    func aTamperedEventStopsEveryReader(arguments: [String]) throws {
        let runner = try journal()
        // The ACS answer (position 3) becomes frictionless: it would also no longer fold, but the
        // reader stops at the hash before it folds anything.
        try runner.tamper(replacing: #""transStatus":"C""#, with: #""transStatus":"Y""#)
        let result = try runner.run(arguments)
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderrLines.first?.contains("position 3") == true, "\(result.stderr)")
        #expect(!result.stdout.contains(#""transStatus":"Y""#))
        // The hash chain catches the same change.
        #expect(try runner.run(["verify"]).status == 4)
    }

    // MARK: demo

    @Test func demoRunsEveryStepOnAFreshJournal() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["demo", "--db", runner.path("demo.db")], db: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        for heading in [
            "── 1. simulate", "── 2. import", "── 3. verify", "── 4. audit", "── 5. audit", "── 6. replay",
            "── 7. replay", "── 8. analytics", "── 9. analytics", "── 10. evidence", "── 11. a proof",
            "── 12. a bundle", "── 13. analytics report"
        ] {
            #expect(result.stdout.contains(heading), "\(heading)")
        }
        #expect(result.stdout.contains("every hash checks"))
        #expect(result.stdout.contains("every stream folds"))
        #expect(result.stdout.contains("$ journal replay --all --against \(runner.path("demo.db")).replay.rec\n"))
        #expect(result.stdout.contains(" streams: 0 changed, 0 only now, 0 only then (rules r"))
        #expect(result.stdout.contains("c2sp.org/tlog-proof@v1"))
        // A witness in the demo's process cosigns the checkpoint; the bundle is checked with it.
        #expect(result.stdout.contains("$ journal cosign --witness http://127.0.0.1:"))
        #expect(result.stdout.contains("— witness.demo.example/w1 "))
        #expect(result.stdout.contains("--witness-key \(runner.path("demo.db")).witness.key.pub --quorum 1"))
        #expect(result.stdout.contains("ok: 3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b: "))
        #expect(result.stdout.contains("$ journal report --out \(runner.path("demo.db")).report.html"))
        #expect(runner.exists("demo.db.report.html"))
        let again = try runner.run(["demo", "--db", runner.path("demo.db")], db: false)
        #expect(again.status == 1)
        #expect(
            again.stderrLines.first == "error: \(runner.path("demo.db")) already exists; the demo needs a fresh journal"
        )
    }
}

/// query and project, built by the projections helper, wired into the command table here.
@Suite("journal query, project (end to end)")
struct QueryEndToEndTests {
    @Test func queryCountsTheImportedEventsAsContractJSON() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.yellowOTP(2) + events.frictionless(3))
        let result = try runner.run(["query", "otp", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let threeDS = object?["threeDS"] as? [String: Any]
        #expect(threeDS?["otpSubmissions"] as? Int == 1)
        let tokenization = object?["tokenization"] as? [String: Any]
        #expect(tokenization?["otpSubmissions"] as? Int == 1)
        #expect(tokenization?["activated"] as? Int == 1)
    }

    @Test func queryOnAMissingJournalExits1() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["query", "timeouts"])
        #expect(result.status == 1)
        #expect(result.stderrLines.first == "error: no journal at \(runner.database)")
        #expect(!runner.exists("journal.db"))
    }

    @Test func projectStatusShowsEveryReadModel() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.green(1))
        let result = try runner.run(["project", "--status"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.first?.hasPrefix("projection") == true)
    }
}
