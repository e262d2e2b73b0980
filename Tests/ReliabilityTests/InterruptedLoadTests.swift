import Foundation
import Glibc
import Testing

/// Spec §9, "Interrupted writes leave nothing": `import` and `simulate` into a new journal
/// that SIGINT or SIGTERM interrupt exit 130 or 143 with a line saying that nothing was kept
/// and leave no file; after a SIGKILL the next command that opens the path removes what the
/// load left (and leaves alone the file of a load still at work); an import that fails (exit 3)
/// into a path that did not exist leaves no file there.
@Suite("Interrupted and failed loads into a new journal leave nothing", .serialized)
struct InterruptedLoadTests {
    enum Writer: String, CaseIterable {
        case simulate, importFile
    }

    /// The signals a user or a service manager sends, with their exit statuses.
    static let signals: [(Int32, String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")]

    @Test(arguments: Writer.allCases, [0, 1])
    func aLoadInterruptedBySIGINTOrSIGTERMLeavesNoFileAndSaysNothingWasKept(_ writer: Writer, _ which: Int) throws {
        let (signal, name) = Self.signals[which]
        let runner = try JournalRunner()
        let child = try Self.startLoad(writer, runner)
        try Self.waitUntilRowsAreWritten(child, runner)
        #expect(kill(child.pid, signal) == 0)
        let ending = child.wait(timeout: 120)
        #expect(ending == .exited(128 + signal), "\(child.stderr)")
        #expect(
            child.stderrLines.last
                == "error: interrupted by \(name): nothing was kept, no journal was created at \(runner.database)",
            "\(child.stderr)")
        #expect(Self.journalFiles(runner) == [], "left: \(Self.journalFiles(runner))")
    }

    @Test(arguments: Writer.allCases)
    func afterASIGKILLTheNextCommandThatOpensThePathRemovesWhatTheLoadLeft(_ writer: Writer) throws {
        let runner = try JournalRunner()
        let child = try Self.startLoad(writer, runner)
        try Self.waitUntilRowsAreWritten(child, runner)
        child.kill()
        #expect(child.wait(timeout: 120) == .killed(SIGKILL))
        let left = Self.journalFiles(runner)
        #expect(left.contains { $0.hasPrefix("journal.db.loading-") }, "the kill left nothing to remove: \(left)")

        let verify = try runner.run(["verify"], timeout: 300)
        #expect(verify.ending == .exited(1))
        #expect(verify.stderr.hasPrefix("error: no journal at "), "\(verify.stderr)")
        #expect(Self.journalFiles(runner) == [], "left: \(Self.journalFiles(runner))")
        // The path works as new.
        let simulate = try runner.run(
            ["simulate", "--seed", "2", "--transactions", "5", "--digitizations", "1"], timeout: 300)
        #expect(simulate.ending == .exited(0), "\(simulate.stderr)")
        #expect(try runner.verification().status == 0)
    }

    @Test func aLoadAtWorkInAnotherProcessKeepsItsFileWhenTheNextCommandOpensThePath() throws {
        let runner = try JournalRunner()
        let child = try Self.startLoad(.simulate, runner)
        try Self.waitUntilRowsAreWritten(child, runner)
        let loading = Self.journalFiles(runner).filter { $0.hasPrefix("journal.db.loading-") }
        let verify = try runner.run(["verify"], timeout: 300)
        #expect(verify.ending == .exited(1))
        #expect(Set(Self.journalFiles(runner)).isSuperset(of: loading), "a live load's file was removed")
        #expect(child.isRunning)
        #expect(kill(child.pid, SIGINT) == 0)
        #expect(child.wait(timeout: 120) == .exited(130), "\(child.stderr)")
        #expect(Self.journalFiles(runner) == [])
    }

    /// How an import fails: all or nothing from a file or stdin, or every line set aside.
    enum FailedImport: String, CaseIterable {
        case fromFile, fromStdin, everyLineRejected, everyLineRejectedWithSign
    }

    @Test(arguments: FailedImport.allCases)
    func anImportThatFailsIntoANewPathLeavesNoFileThere(_ failure: FailedImport) throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let valid = legal.events(atLeast: 20, firstStream: 1).lines
        let bad = #"{"id":"not-a-uuid","stream":"3ds-x","type":"TransactionCreated"}"#
        let lines = failure == .everyLineRejected || failure == .everyLineRejectedWithSign ? [bad, bad] : valid + [bad]
        let input = try runner.ndjson("input.ndjson", lines)
        let result: (ending: ChildProcess.Ending, stdout: String, stderr: String)
        switch failure {
        case .fromFile:
            result = try runner.run(["import", input], timeout: 300)
        case .fromStdin:
            let child = try runner.start(["import", "-"], stdin: lines.joined(separator: "\n") + "\n")
            result = (child.wait(timeout: 120), child.stdout, child.stderr)
        case .everyLineRejected:
            result = try runner.run(["import", input, "--rejects", runner.path("rejects.ndjson")], timeout: 300)
        case .everyLineRejectedWithSign:
            let key = runner.path("signer.key")
            let keygen = try runner.run(["keygen", "signer", "--out", key], timeout: 300, db: false)
            try #require(keygen.ending == .exited(0), "\(keygen.stderr)")
            result = try runner.run(
                ["import", input, "--rejects", runner.path("rejects.ndjson"), "--sign", key], timeout: 300)
        }
        #expect(result.ending == .exited(3), "\(result.stderr)")
        #expect(Self.journalFiles(runner) == [], "left: \(Self.journalFiles(runner))")
    }

    @Test func anImportWithRejectsIntoANewPathKeepsTheValidEventsThroughTheStore() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let valid = legal.events(atLeast: 20, firstStream: 1).lines
        let lines = valid + [#"{"id":"not-a-uuid"}"#]
        let child = try runner.start(
            ["import", "-", "--rejects", runner.path("rejects.ndjson")], stdin: lines.joined(separator: "\n") + "\n")
        #expect(child.wait(timeout: 120) == .exited(3), "\(child.stderr)")
        let verification = try runner.verification()
        #expect(verification.status == 0 && verification.events == valid.count, "\(verification.stderr)")
        #expect(!Self.journalFiles(runner).contains { $0.contains(".loading-") })
    }

    // MARK: - Helpers

    /// Starts a load into the runner's journal, which does not exist: a simulation that would
    /// take minutes, or an import of a file of 100,000 events.
    static func startLoad(_ writer: Writer, _ runner: JournalRunner) throws -> ChildProcess {
        switch writer {
        case .simulate:
            return try startWithDefaultSignals(
                runner, ["simulate", "--seed", "7", "--transactions", "2000000", "--digitizations", "20000"])
        case .importFile:
            let input = runner.path("input.ndjson")
            let made = try runner.run(
                ["simulate", "--seed", "7", "--transactions", "16000", "--digitizations", "1600", "--ndjson"],
                timeout: 600, db: false)
            try #require(made.ending == .exited(0), "\(made.stderr)")
            try Data(made.stdout.utf8).write(to: URL(fileURLWithPath: input))
            return try startWithDefaultSignals(runner, ["import", input])
        }
    }

    /// `journal ARGS --db <the runner's journal>` with SIGINT and SIGTERM handled as in a
    /// terminal: the test runner may ignore them, which its children inherit (and a process
    /// started with a signal ignored keeps ignoring it, as a shell's background jobs do).
    static func startWithDefaultSignals(_ runner: JournalRunner, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["--default-signal=INT,TERM", JournalRunner.executable.path]
                + arguments + ["--db", runner.database],
            folder: runner.folder)
    }

    /// Waits until the load's file holds rows beyond its schema: the load is under way, and
    /// a signal now lands in the middle of it.
    static func waitUntilRowsAreWritten(_ child: ChildProcess, _ runner: JournalRunner) throws {
        let written = child.waitUntil(timeout: 300) {
            journalFiles(runner).contains { name in
                name.hasPrefix("journal.db.loading-") && !name.hasSuffix("-journal")
                    && (fileSize(runner.path(name)) ?? 0) > 256 * 1024
            }
        }
        try #require(written, "no load under way: \(journalFiles(runner)) \(child.stderr)")
        try #require(child.isRunning, "the load ended before the signal: \(child.stderr)")
    }

    /// The files of the runner's journal: `journal.db`, its side files and loading files.
    static func journalFiles(_ runner: JournalRunner) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: runner.folder.path)) ?? [])
            .filter { $0.hasPrefix("journal.db") }.sorted()
    }

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
