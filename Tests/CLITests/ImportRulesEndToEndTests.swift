import Foundation
import Testing

/// Import's catalog, state-rule and sensitive-data checks, through the built executable.
@Suite("journal import rules (end to end)")
struct ImportRulesEndToEndTests {
    @Test func stateRulesSeeTheJournalAndEarlierLinesOfTheSameFile() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let journey = events.challenged(1)
        // The first four events are already in the journal; the file continues the stream,
        // skips a counter, and then goes on as if the bad line had been accepted.
        try runner.importLegal(Array(journey.prefix(4)))
        let skipped = journey[6] // counter 001 before 000
        let path = try runner.ndjson("rest.ndjson", [skipped] + Array(journey[4...]))
        let result = try runner.run(["import", path])
        #expect(result.status == 3)
        let stream = LegalEvents.threeDSStream(1)
        #expect(
            result.stderrLines.first?.hasPrefix("error: line 1: \(stream) ChallengeRequestSent: ") == true,
            "\(result.stderr)")
        #expect(result.stderrLines.count == 3) // one bad line, the summary and the hint
        #expect(try runner.exportedObjects().count == 4)
        // With --rejects the legal continuation is appended.
        let kept = try runner.run(["import", path, "--rejects", runner.path("r.ndjson")])
        #expect(kept.stdout == "imported 6 lines: 5 appended, 0 duplicates, 1 rejected\n")
        #expect(try runner.run(["state", stream, "--format", "json"]).stdout.contains(#""outcome":"completedY""#))
    }

    @Test func catalogErrorsNameTheField() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let stream = LegalEvents.cardStream(1)
        let lines = [
            events.line(stream, "EligibilityChecked", #"{"inputMethod":"carrierPigeon","outcome":"eligible"}"#),
            events.line(stream, "TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#),
            events.line(stream, "NoSuchEvent", "{}")
        ]
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", lines)])
        #expect(result.status == 3)
        #expect(result.stderrLines[0].hasPrefix("error: line 1: \(stream) EligibilityChecked: "))
        #expect(result.stderrLines[0].contains("inputMethod"))
        #expect(result.stderrLines[1].hasPrefix("error: line 2: \(stream) TransactionCreated: "))
        #expect(result.stderrLines[2].hasPrefix("error: line 3: \(stream) NoSuchEvent: "))
    }

    @Test(arguments: [
        (#"{"inputMethod":"manual","outcome":"eligible","otp":"123456"}"#, "data.otp"),
        (#"{"inputMethod":"manual","outcome":"eligible","note":"card 4111-1111-1111-1111 declined"}"#, "data.note"),
        (#"{"inputMethod":"manual","outcome":"eligible","n":4111111111111111}"#, "data.n")
    ])
    func sensitiveDataIsRejectedNamingTheFieldButNeverTheValue(data: String, field: String) throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let line = events.line(LegalEvents.cardStream(1), "EligibilityChecked", data)
        let result = try runner.run([
            "import", try runner.ndjson("in.ndjson", [line]), "--rejects", runner.path("r.ndjson")
        ])
        #expect(result.status == 3)
        #expect(result.stderrLines.first?.contains("sensitive data: \(field)") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("4111"))
        #expect(!result.stderr.contains("123456"))
        #expect(!runner.exists("journal.db"), "nothing kept into a new path leaves no file (spec §9)")
    }

    @Test func aSensitiveValueInMetaIsRejectedToo() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let line = events.line(
            LegalEvents.cardStream(1), "EligibilityChecked",
            #"{"inputMethod":"manual","outcome":"eligible"}"#, meta: #"{"debug":{"PAN":"x"}}"#)
        let result = try runner.run(["import", try runner.ndjson("in.ndjson", [line])])
        #expect(result.status == 3)
        #expect(result.stderrLines.first?.contains("sensitive data: meta.debug.PAN") == true, "\(result.stderr)")
    }
}
