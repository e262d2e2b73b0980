import Foundation
import Testing

/// Usage errors and help, run through the built executable: checked before any journal is opened.
@Suite("journal usage (end to end)")
struct UsageEndToEndTests {
    @Test func journalAlonePrintsTheUsageOnStderrAndExits2() throws {
        let runner = try JournalRunner()
        let result = try runner.run([], db: false)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("usage: journal COMMAND"))
        #expect(result.stderrLines.contains("error: no command given"))
    }

    @Test(arguments: ["import", "export", "audit", "state", "replay", "verify", "query", "project", "demo", "report"])
    func everyCommandPrintsHelpWithAnExampleOnStdout(command: String) throws {
        let runner = try JournalRunner()
        let result = try runner.run([command, "--help"], db: false)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("usage: journal \(command)"))
        #expect(result.stdout.contains("example"))
        #expect(result.stdout.contains("  journal \(command)"))
    }

    @Test(arguments: [
        (["frobnicate"], "error: unknown command 'frobnicate'"),
        (["import", "x.ndjson", "--bogus"], "error: unknown option '--bogus' for 'journal import'"),
        (["verify", "--format", "xml"], "error: option '--format' takes text or json, not 'xml'"),
        (["state"], "error: missing STREAM for 'journal state'"),
        (["replay"], "error: give a STREAM or --all"),
        (["audit", "3ds-NOT-A-UUID"], "error: '3ds-NOT-A-UUID' is not a stream name"),
        (["export", "--from-position", "soon"], "error: option '--from-position' takes an integer P ≥ 0, not 'soon'"),
        (["query", "otps"], "error: unknown query 'otps'"),
        (["query", "otp", "--since", "yesterday"], "error: option '--since' takes a UTC timestamp"),
        (["project"], "error: give exactly one of --status and --rebuild")
    ])
    func usageErrorsExit2WithAHintAndOpenNoJournal(arguments: [String], firstLine: String) throws {
        let runner = try JournalRunner()
        let result = try runner.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.first?.hasPrefix(firstLine) == true, "\(result.stderr)")
        #expect(result.stderrLines.dropFirst().allSatisfy { $0.hasPrefix("hint: ") })
        #expect(result.stderrLines.count >= 2)
        #expect(!runner.exists("journal.db"))
    }

    @Test func aMissingInputFileExits1AndCreatesNoJournal() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["import", runner.path("absent.ndjson")])
        #expect(result.status == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: cannot open ") == true)
        #expect(!runner.exists("journal.db"))
    }
}
