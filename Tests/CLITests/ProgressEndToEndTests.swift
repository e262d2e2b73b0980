import Foundation
import Testing

@testable import JournalApp
@testable import JournalCommandLine

/// `--progress`: progress lines on stderr for logs and CI, stdout unchanged.
@Suite("progress (end to end)")
struct ProgressEndToEndTests {
    @Test("import --progress writes a progress line with the file's size and a rate to stderr, stdout unchanged")
    func importProgress() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let lines = events.challenged(1) + events.green(2)
        let path = try runner.ndjson("in.ndjson", lines)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
        let plain = try JournalRunner()
        let expected = try plain.run(["import", try plain.ndjson("in.ndjson", lines)])
        let result = try runner.run(["import", path, "--progress"])
        #expect(result.status == 0)
        #expect(result.stdout == expected.stdout)
        #expect(result.stdout == "imported 13 lines: 13 appended, 0 duplicates, 0 rejected\n")
        let progress = result.stderrLines.filter { $0.hasPrefix("importing: ") }
        #expect(progress.count == 1, "\(result.stderr)")
        let line = progress.last ?? ""
        let bytes = ProgressReporter.bytes(Int64(size))
        #expect(line.hasPrefix("importing: \(bytes) of \(bytes) (100%), 13 events, "), "\(line)")
        #expect(line.contains(" events/s, done in "), "\(line)")
        // Without --progress and without a terminal: nothing on stderr.
        let quiet = try runner.run(["import", path])
        #expect(quiet.stderr.isEmpty)
    }

    @Test("verify, replay --all, copy, simulate and project --rebuild take --progress and end with a final line")
    func otherCommandsReportProgress() throws {
        let runner = try JournalRunner()
        let simulate = try runner.run([
            "simulate", "--seed", "3", "--transactions", "20", "--digitizations", "5", "--progress"
        ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let events = Int((try runner.exportedObjects()).count)
        #expect(
            simulate.stderrLines.last?.hasPrefix("simulating: \(ProgressReporter.count(Int64(events))) events, ")
                == true,
            "\(simulate.stderr)")
        let total = "\(ProgressReporter.count(Int64(events))) of \(ProgressReporter.count(Int64(events))) events (100%)"
        for (arguments, verb) in [
            (["verify"], "verifying"), (["replay", "--all"], "replaying"),
            (["project", "--rebuild"], "rebuilding")
        ] {
            let plain = try runner.run(arguments)
            let result = try runner.run(arguments + ["--progress"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderrLines.last?.hasPrefix("\(verb): \(total), ") == true, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.last?.contains(" events/s, done in ") == true)
            if arguments[0] != "project" { #expect(result.stdout == plain.stdout) }
        }
        let copy = try runner.run(
            ["copy", "--from", runner.database, "--to", runner.path("copy.db"), "--progress"], db: false)
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stderrLines.last?.hasPrefix("copying: \(total), ") == true, "\(copy.stderr)")
    }
}

/// The help texts name what the import and progress work added.
@Suite("import and progress help (end to end)")
struct ImportHelpEndToEndTests {
    @Test("import --help documents masking, mode 0600, the error report and --progress")
    func importHelp() throws {
        let help = try JournalRunner().run(["import", "--help"], db: false)
        #expect(help.status == 0)
        for text in [
            "mode 0600", "\"[redacted]\"", "13 to 19 digits", "The first 100 invalid lines", "\"errors\"",
            "\"byRule\"", "not NDJSON", "did you mean", "not a valid date", "--progress"
        ] {
            #expect(help.stdout.contains(text), "\(text)")
        }
    }

    @Test(
        "every command that reports progress lists --progress in its help",
        arguments: ["import", "simulate", "verify", "replay", "copy", "project"])
    func progressOption(command: String) throws {
        let help = try JournalRunner().run([command, "--help"], db: false)
        #expect(help.stdout.contains("  --progress "), "\(help.stdout)")
    }
}
