import EventStore
import Foundation
import Testing

/// The edges a new user meets first (spec §4): versions, windows, file modes, simulated
/// events kept apart from real ones, and errors about the journal's location that say what to do.
@Suite("journal edges (end to end)")
struct EdgesEndToEndTests {
    // MARK: --version

    @Test("journal --version names the journal, its format and the SQLite, OpenSSL and LZ4 in use")
    func versionPrintsEveryVersion() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["--version"], db: false)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        #expect(
            lines.first?.range(of: #"^journal \d+\.\d+\.\d+ \(contract v1\.3\)$"#, options: .regularExpression) != nil,
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("journal format  SQLite 4, PostgreSQL 3") })
        #expect(lines.contains { $0.range(of: #"^rules +r\d+-[0-9a-f]{16}$"#, options: .regularExpression) != nil })
        #expect(lines.contains { $0.range(of: #"^SQLite +3\.\d+\.\d+$"#, options: .regularExpression) != nil })
        #expect(lines.contains { $0.range(of: #"^OpenSSL +OpenSSL \d"#, options: .regularExpression) != nil })
        #expect(lines.contains { $0.range(of: #"^LZ4 +\d+\.\d+\.\d+$"#, options: .regularExpression) != nil })
        #expect(!runner.exists("journal.db"))
    }

    // MARK: windows

    @Test("a window whose --since is after its --until is a usage error that suggests the swap")
    func invertedWindowIsAUsageError() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["query", "otp", "--since", "2026-12-01", "--until", "2026-11-01"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderrLines.first
                == "error: --since 2026-12-01 is not before --until 2026-11-01: the window is inverted")
        #expect(
            result.stderrLines.contains(
                "hint: --since is included and --until excluded; did you mean "
                    + "--since 2026-11-01 --until 2026-12-01?"))
        #expect(!runner.exists("journal.db"))
    }

    @Test("a window whose --since equals its --until is a usage error, not a quiet day")
    func emptyWindowIsAUsageError() throws {
        let runner = try JournalRunner()
        let result = try runner.run([
            "query", "timeouts", "--since", "2026-11-29T10:00:00.000Z",
            "--until", "2026-11-29T10:00:00.000Z", "--format", "json"
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.first?.hasSuffix("the window is empty") == true, "\(result.stderr)")
    }

    // MARK: file modes

    @Test("a journal created by import, and its WAL and shared-memory files, are readable by the owner only")
    func importCreatesAnOwnerOnlyJournal() throws {
        let runner = try JournalRunner()
        let previous = umask(0o022)
        defer { umask(previous) }
        let result = try runner.importLegal(Self.events)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.mode(runner.database) == 0o600)
        // While a writer holds it open, the side files exist: SQLite gives them the file's mode.
        let store = try JournalBackendTests.open(runner, bulk: false)
        _ = try store.headPosition()
        for suffix in ["-wal", "-shm"] where runner.exists("journal.db" + suffix) {
            #expect(try Self.mode(runner.database + suffix) == 0o600, "journal.db\(suffix)")
        }
    }

    @Test("a journal created by simulate is readable by the owner only, like one created by import")
    func simulateCreatesAnOwnerOnlyJournal() throws {
        let runner = try JournalRunner()
        let previous = umask(0o022)
        defer { umask(previous) }
        let result = try runner.run(["simulate", "--seed", "1", "--transactions", "4", "--digitizations", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.mode(runner.database) == 0o600)
    }

    // MARK: simulated events

    @Test("simulate refuses a journal that already holds events, writes nothing, and says how to go on")
    func simulateRefusesANonEmptyJournal() throws {
        let runner = try JournalRunner()
        #expect(try runner.importLegal(Self.events).status == 0)
        let before = try runner.run(["export"]).stdout
        let result = try runner.run(["simulate", "--seed", "5", "--transactions", "10", "--digitizations", "5"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines.first?.contains("already holds \(Self.events.count) events") == true,
            "\(result.stderr)")
        #expect(result.stderrLines.contains { $0.hasPrefix("hint:") && $0.contains("--into-existing") })
        #expect(try runner.run(["export"]).stdout == before)
    }

    @Test("simulate --into-existing appends to a journal that holds events")
    func simulateIntoExistingAppends() throws {
        let runner = try JournalRunner()
        #expect(try runner.importLegal(Self.events).status == 0)
        let result = try runner.run([
            "simulate", "--seed", "5", "--transactions", "10", "--digitizations", "5",
            "--into-existing"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try runner.exportedObjects().count > Self.events.count)
    }

    @Test("every simulated event carries simulated: true in its meta, appended or written as NDJSON")
    func everySimulatedEventIsMarked() throws {
        let runner = try JournalRunner()
        #expect(
            try runner.run(["simulate", "--seed", "9", "--transactions", "30", "--digitizations", "15"]).status == 0)
        let events = try runner.exportedObjects()
        #expect(events.count > 45)
        for event in events {
            let meta = event["meta"] as? [String: Any]
            #expect(meta?["simulated"] as? Bool == true, "\(event["position"] ?? "?")")
        }
        let ndjson = try runner.run(
            ["simulate", "--seed", "9", "--transactions", "3", "--digitizations", "2", "--ndjson"],
            db: false)
        for line in ndjson.stdoutLines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect((object?["meta"] as? [String: Any])?["simulated"] as? Bool == true, "\(line)")
        }
    }

    // MARK: where the journal is

    @Test("a --db in a folder that does not exist says so, for commands that read and commands that write")
    func missingFolderIsNamed() throws {
        let runner = try JournalRunner()
        let path = runner.path("no/such/folder/journal.db")
        let reading = try runner.run(["verify", "--db", path], db: false)
        #expect(reading.status == 1)
        let first = try #require(reading.stderrLines.first)
        #expect(first.hasPrefix("error: cannot find the journal "), "\(first)")
        #expect(first.hasSuffix("/no/such/folder does not exist"), "\(first)")
        let writing = try runner.run(["import", "-", "--db", path], db: false, stdin: "")
        #expect(writing.status == 1)
        #expect(writing.stderrLines.first?.hasSuffix("does not exist") == true, "\(writing.stderr)")
        #expect(writing.stderrLines.contains { $0.hasPrefix("hint: create the folder first (mkdir -p ") })
        #expect(!writing.stderr.contains("journal import FILE"))
    }

    @Test("a --db that is a folder says so instead of a disk I/O error", arguments: ["verify", "import", "simulate"])
    func folderAsJournalIsNamed(command: String) throws {
        let runner = try JournalRunner()
        let folder = runner.path("archive.db")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let arguments: [String] =
            switch command {
            case "import": ["import", "-"]
            case "simulate": ["simulate", "--seed", "1", "--transactions", "1", "--digitizations", "1"]
            default: [command]
            }
        let result = try runner.run(arguments + ["--db", folder], db: false, stdin: "")
        #expect(result.status == 1)
        #expect(result.stderrLines.first == "error: \(folder) is a folder, not a journal file", "\(result.stderr)")
        #expect(!result.stderr.contains("I/O"))
    }

    @Test("query and project answer on a journal this user may only read, from a temporary database")
    func queryWorksOnAReadOnlyJournal() throws {
        let runner = try JournalRunner()
        #expect(
            try runner.run(["simulate", "--seed", "3", "--transactions", "30", "--digitizations", "20"]).status == 0)
        let writable = try runner.run(["query", "otp", "--format", "json"])
        #expect(writable.status == 0)

        // A read-only copy, as an auditor gets it: a fresh file (no read models in it), mode 0444,
        // in a folder the reading user may not write.
        let archive = try ReadOnlyArchive(copying: runner.database)
        let query = try archive.run(["query", "otp", "--format", "json"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout == writable.stdout)
        #expect(archive.unchanged())

        let models = archive.modelsPath
        let kept = try archive.run(["query", "otp", "--format", "json", "--models", models])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout == writable.stdout)
        #expect(try Self.mode(models) == 0o600)
        #expect(archive.unchanged())

        let project = try archive.run(["project", "--rebuild"])
        #expect(project.status == 0, "\(project.stderr)")
        #expect(project.stdout.contains("the journal is read-only"), "\(project.stdout)")
        #expect(archive.unchanged())
    }

    static let events: [String] = {
        var events = LegalEvents()
        return events.frictionless(1) + events.challenged(2)
    }()

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}

/// A journal copied into a folder the test user cannot write, with mode 0444, run by a user who
/// is not its owner when the tests run as root (root writes whatever the modes say).
private final class ReadOnlyArchive {
    let folder: URL
    let journal: String
    let executable: String
    let modelsFolder: URL
    private let original: Data

    var modelsPath: String { modelsFolder.appendingPathComponent("models.db").path }

    init(copying source: String) throws {
        let manager = FileManager.default
        folder = manager.temporaryDirectory.appendingPathComponent("journal-archive-\(UUID().uuidString)")
        modelsFolder = manager.temporaryDirectory.appendingPathComponent("journal-models-\(UUID().uuidString)")
        try manager.createDirectory(at: folder, withIntermediateDirectories: false)
        try manager.createDirectory(at: modelsFolder, withIntermediateDirectories: false)
        journal = folder.appendingPathComponent("journal.db").path
        executable = folder.appendingPathComponent("journal").path
        try manager.copyItem(atPath: source, toPath: journal)
        try manager.copyItem(atPath: JournalRunner.executable.path, toPath: executable)
        original = try Data(contentsOf: URL(fileURLWithPath: journal))
        try manager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: journal)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
        try manager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: modelsFolder.path)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(at: modelsFolder)
    }

    /// True when the journal's bytes are as copied and nothing was created beside it.
    func unchanged() -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return (try? Data(contentsOf: URL(fileURLWithPath: journal))) == original
            && Set(names) == ["journal.db", "journal"]
    }

    func run(_ arguments: [String]) throws -> JournalRunner.Result {
        let command = [executable] + arguments + ["--db", journal]
        guard getuid() == 0 else { return try JournalRunner.runCommand(command, in: modelsFolder) }
        // Run as `nobody`: setpriv (util-linux) drops root for the one command.
        return try JournalRunner.runCommand(
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command, in: modelsFolder)
    }
}
