import EventStore
import Foundation
import Testing

/// Spec §9, "Read-only media": every command that reads works on an auditor's copy of a
/// journal (on a read-only mount, or a file and folder this user may not write), with or
/// without the `-wal` (and `-shm`) of a journal that was open when it was copied, answers what
/// the original answers, and changes nothing there.
@Suite("Read-only media: every read command on an auditor's copy", .serialized)
struct ReadOnlyMediaEndToEndTests {
    /// How the copy is read-only.
    enum Medium: String, CaseIterable {
        /// A read-only bind mount (root only): no file can be created or written there.
        case readOnlyMount
        /// Mode 0444 in a folder of mode 0555, read by `nobody` when the tests run as root.
        case notWritableForUser
    }

    /// Which of the journal's side files the copy has.
    enum SideFiles: String, CaseIterable {
        /// A journal that was closed: every commit is in the database file.
        case none
        /// A journal copied while a reader kept it open: its last commits are only in `-wal`.
        case wal
        /// The same with its `-shm` index copied too.
        case walAndShm
    }

    @Test(arguments: Medium.allCases, SideFiles.allCases)
    func everyReadCommandAnswersAsOnTheOriginalAndChangesNothing(_ medium: Medium, _ sideFiles: SideFiles)
        throws
    {
        let fixture = try Fixture(sideFiles: sideFiles)
        guard let copy = try ReadOnlyCopy(of: fixture, medium: medium) else { return }
        let stream = fixture.stream
        let compared: [[String]] = [
            ["verify"], ["verify", "--format", "json"], ["audit", stream], ["export"], ["state", stream],
            ["replay", stream], ["replay", "--all"], ["query", "otp", "--format", "json"],
            ["query", "funnel", "--format", "json"], ["find", "--format", "json"], ["checkpoint", "--list"],
            ["prove", "3"], ["bundle", stream]
        ]
        for arguments in compared {
            let expected = try fixture.runner.run(arguments)
            try #require(expected.status == 0, "\(arguments) on the original: \(expected.stderr)")
            let read = try copy.run(arguments)
            #expect(read.status == 0, "\(arguments) on the copy: \(read.stderr)")
            #expect(read.stdout == expected.stdout, "\(arguments) on the copy")
        }

        let status = try copy.run(["project", "--status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("the journal is read-only"), "\(status.stdout)")
        let rebuild = try copy.run(["project", "--rebuild", "--format", "json"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(rebuild.stdout.contains(#""events":\#(fixture.events)"#), "\(rebuild.stdout)")
        let report = try copy.run(["report", "--out", copy.outputPath("report.html")])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try? String(contentsOfFile: copy.outputPath("report.html"), encoding: .utf8)
        #expect(page?.contains("<html") == true)

        if medium == .readOnlyMount {
            // serve runs as root here: the mount alone keeps it from writing.
            let server = try ServeProcess(fixture.runner, db: copy.journal)
            let otp = try server.request("GET", "/v1/query/otp")
            #expect(otp.status == 200, "\(otp.body)")
            var legal = LegalEvents()
            let refused = try server.append(legal.frictionless(1))
            #expect(refused.status == 403, "\(refused.body)")
            #expect(refused.body.contains("read-only"), "\(refused.body)")
            #expect(server.stop() == 0)
        }
        #expect(copy.unchanged(), "the copy changed: \(copy.listing())")
    }

    @Test("the copy with a -wal holds commits its database file alone lacks")
    func theWALOfTheCopyHoldsTheLastCommits() throws {
        let fixture = try Fixture(sideFiles: .wal)
        let alone = try JournalRunner()
        try FileManager.default.copyItem(atPath: fixture.copyFolder.path + "/journal.db", toPath: alone.database)
        let verified = try alone.run(["verify", "--format", "json"])
        #expect(verified.status == 0, "\(verified.stderr)")
        let events = (try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])?["events"]
        #expect((events as? Int).map { $0 < fixture.events } == true, "\(verified.stdout)")
    }
}

/// A signed journal and a copy of it as an auditor would get it: the database file, and with
/// `.wal` its `-wal` taken while a reader held the journal open, so that its last commits (more
/// events and a second checkpoint) are only in the `-wal`.
private final class Fixture {
    let runner: JournalRunner
    /// Where the copied files are (not yet read-only).
    let copyFolder: URL
    let stream: String
    let events: Int

    init(sideFiles: ReadOnlyMediaEndToEndTests.SideFiles) throws {
        runner = try JournalRunner()
        let manager = FileManager.default
        copyFolder = manager.temporaryDirectory.appendingPathComponent("journal-copy-\(UUID().uuidString)")
        try manager.createDirectory(at: copyFolder, withIntermediateDirectories: false)
        try Self.expect(runner.run(["simulate", "--seed", "5", "--transactions", "40", "--digitizations", "12"]))
        try Self.expect(runner.run(["keygen", "auditor", "--out", runner.path("auditor.key")], db: false))
        try Self.expect(runner.run(["checkpoint", "--key", runner.path("auditor.key")]))
        var reader: SQLiteConnection?
        if sideFiles != .none {
            // A reader's snapshot keeps the next commits from being copied into the file.
            let open = try SQLiteConnection(path: runner.database, options: .init(create: false))
            try open.execute("BEGIN")
            _ = try open.scalarInt("SELECT count(*) FROM journal_events")
            reader = open
            try Self.expect(
                runner.run([
                    "simulate", "--seed", "6", "--transactions", "10", "--digitizations", "4", "--into-existing"
                ]))
            try Self.expect(runner.run(["checkpoint", "--key", runner.path("auditor.key")]))
        }
        let suffixes =
            switch sideFiles {
            case .none: [""]
            case .wal: ["", "-wal"]
            case .walAndShm: ["", "-wal", "-shm"]
            }
        for suffix in suffixes {
            try manager.copyItem(
                atPath: runner.database + suffix, toPath: copyFolder.appendingPathComponent("journal.db\(suffix)").path)
        }
        try reader?.execute("COMMIT")
        reader?.close()
        let exported = try runner.run(["export"])
        events = exported.stdoutLines.count
        let first = try JSONSerialization.jsonObject(with: Data(exported.stdoutLines[0].utf8)) as? [String: Any]
        stream = try #require(first?["stream"] as? String)
    }

    deinit { try? FileManager.default.removeItem(at: copyFolder) }

    private static func expect(_ result: JournalRunner.Result) throws {
        try #require(result.status == 0, "\(result.stderr)")
    }
}

/// The fixture's copy made read-only: on a read-only bind mount of its folder (root only), or
/// with mode 0444 in a folder of mode 0555, read by `nobody` when the tests run as root (root
/// writes whatever the modes say).
private final class ReadOnlyCopy {
    let folder: URL
    let journal: String
    /// A folder the reading user may write, for outputs (a report) and as the working folder.
    let outputs: URL
    private let mountPoint: URL?
    private let executable: String
    private let original: [String: Data]
    private let medium: ReadOnlyMediaEndToEndTests.Medium

    /// Nil (with the reason printed) when the medium cannot be made here.
    init?(of fixture: Fixture, medium: ReadOnlyMediaEndToEndTests.Medium) throws {
        let manager = FileManager.default
        self.medium = medium
        let source = fixture.copyFolder
        var original: [String: Data] = [:]
        for name in try manager.contentsOfDirectory(atPath: source.path) {
            original[name] = try Data(contentsOf: source.appendingPathComponent(name))
        }
        self.original = original
        outputs = manager.temporaryDirectory.appendingPathComponent("journal-outputs-\(UUID().uuidString)")
        try manager.createDirectory(at: outputs, withIntermediateDirectories: false)
        try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: outputs.path)
        switch medium {
        case .readOnlyMount:
            guard getuid() == 0 else {
                print("skipped: a read-only bind mount needs root")
                try? manager.removeItem(at: outputs)
                return nil
            }
            let point = manager.temporaryDirectory.appendingPathComponent("journal-ro-\(UUID().uuidString)")
            try manager.createDirectory(at: point, withIntermediateDirectories: false)
            guard Self.mount(["--bind", source.path, point.path]) else {
                print("skipped: mount --bind failed here")
                try? manager.removeItem(at: point)
                try? manager.removeItem(at: outputs)
                return nil
            }
            guard Self.mount(["-o", "remount,ro,bind", point.path]) else {
                print("skipped: mount -o remount,ro,bind failed here")
                _ = Self.mount([point.path], program: "/bin/umount")
                try? manager.removeItem(at: point)
                try? manager.removeItem(at: outputs)
                return nil
            }
            mountPoint = point
            folder = point
            executable = JournalRunner.executable.path
        case .notWritableForUser:
            mountPoint = nil
            folder = source
            executable = outputs.appendingPathComponent("journal").path
            // `nobody` may not reach the build folder: a copy of the executable beside the outputs.
            try manager.copyItem(atPath: JournalRunner.executable.path, toPath: executable)
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
            for name in original.keys {
                try manager.setAttributes(
                    [.posixPermissions: 0o444], ofItemAtPath: source.appendingPathComponent(name).path)
            }
            try manager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: source.path)
        }
        journal = folder.appendingPathComponent("journal.db").path
    }

    deinit {
        let manager = FileManager.default
        if let mountPoint {
            _ = Self.mount([mountPoint.path], program: "/bin/umount")
            try? manager.removeItem(at: mountPoint)
        } else {
            try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        try? manager.removeItem(at: outputs)
    }

    func outputPath(_ name: String) -> String { outputs.appendingPathComponent(name).path }

    func listing() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// True when the copy's files are as copied and nothing was created beside them.
    func unchanged() -> Bool {
        guard Set(listing()) == Set(original.keys) else { return false }
        return original.allSatisfy { name, bytes in
            (try? Data(contentsOf: folder.appendingPathComponent(name))) == bytes
        }
    }

    /// `journal ARGS --db <the copy>`, as `nobody` for `.notWritableForUser` when root.
    func run(_ arguments: [String]) throws -> JournalRunner.Result {
        let command = [executable] + arguments + ["--db", journal]
        if medium == .notWritableForUser && getuid() == 0 {
            return try JournalRunner.runCommand(
                ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command, in: outputs)
        }
        return try JournalRunner.runCommand(command, in: outputs)
    }

    /// Runs `mount` (or `program`) with `arguments`; true when it exits 0.
    private static func mount(_ arguments: [String], program: String = "/bin/mount") -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
