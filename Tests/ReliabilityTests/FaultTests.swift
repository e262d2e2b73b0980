import EventStore
import Foundation
import Glibc
import JournalCore
import Testing

/// A full disk, a read-only journal, a file that is not a journal or is damaged, a torn WAL, a
/// lock held too long: a clear error and exit code, nothing partial, and the next run works.
@Suite("Faults: full disk, read-only, foreign or damaged files, locks")
struct FaultTests {
    /// A journal with `count` legal events from stream `firstStream` on; returns their ids.
    @discardableResult
    static func populate(
        _ runner: JournalRunner, _ legal: inout LegalEvents, count: Int, firstStream: Int,
        name: String = "seed.ndjson"
    ) throws -> [String] {
        let lines = legal.events(atLeast: count, firstStream: firstStream).lines
        let result = try runner.run(["import", try runner.ndjson(name, lines)], timeout: 600)
        #expect(result.ending == .exited(0), "\(result.stderr)")
        return lines.map(idOf)
    }

    /// Checkpoints the WAL into the database file and removes it (the last connection to close
    /// does), leaving one self-contained file.
    static func checkpoint(_ path: String) throws {
        let connection = try SQLiteConnection(path: path, options: .init(create: false))
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    // MARK: - Full disk

    @Test(arguments: [false, true])
    func aFullDiskInTheMiddleOfAnImportWritesNothingAndTheNextRunWorks(withRejects: Bool) throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let first = try Self.populate(runner, &legal, count: 400, firstStream: 1)
        try Self.checkpoint(runner.database)
        let pages = try #require(try SQLiteConnection(path: runner.database).scalarInt("PRAGMA page_count"))
        let more = legal.events(atLeast: 4_000, firstStream: 10_000).lines
        let input = try runner.ndjson("more.ndjson", more)
        let rejects = withRejects ? ["--rejects", runner.path("rejects.ndjson")] : []
        let full = try runner.run(
            ["import", input] + rejects, timeout: 600,
            environment: ["JOURNAL_MAX_PAGE_COUNT": String(pages + 20)])
        #expect(full.ending == .exited(1))
        #expect(
            full.stderr.hasPrefix("error: ") && full.stderr.contains("the disk or the database size limit is full"),
            "\(full.stderr)")
        #expect(!full.stdout.contains("imported"), "no success summary: \(full.stdout)")
        let after = try runner.verification()
        #expect(after.status == 0 && after.events == first.count, "nothing of the failed import")
        #expect(try runner.exportedIDs() == first)

        let next = try runner.run(["import", input] + rejects, timeout: 600)
        #expect(next.ending == .exited(0), "\(next.stderr)")
        #expect(try runner.exportedIDs(from: first.count + 1) == more.map(idOf))
        #expect(try runner.verification().status == 0)
    }

    // MARK: - Read-only journal

    /// `journal ARGS --db <runner's journal>` as a user who may not write the journal: `nobody`
    /// when the tests run as root (who may write anything), else the current user with the
    /// file and its folder made read-only.
    static func runWithoutWriteAccess(_ runner: JournalRunner, _ arguments: [String]) throws
        -> (ending: ChildProcess.Ending, stdout: String, stderr: String)
    {
        if geteuid() == 0 {
            let child = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", JournalRunner.executable.path]
                    + arguments + ["--db", runner.database], folder: runner.folder)
            let ending = child.wait(timeout: 300)
            return (ending, child.stdout, child.stderr)
        }
        return try runner.run(arguments, timeout: 300)
    }

    static func protect(_ runner: JournalRunner, _ readOnly: Bool) throws {
        let files = [runner.database, runner.database + "-wal", runner.database + "-shm"]
        for file in files where FileManager.default.fileExists(atPath: file) {
            #expect(chmod(file, readOnly ? 0o444 : 0o644) == 0)
        }
        #expect(chmod(runner.folder.path, readOnly ? 0o555 : 0o755) == 0)
    }

    @Test(arguments: [false, true])
    func aReadOnlyJournalRefusesImportsClearlyStillReadsAndTheNextRunWorks(walCheckpointed: Bool) throws {
        guard geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let first = try Self.populate(runner, &legal, count: 300, firstStream: 1)
        // An archived journal has no -wal/-shm beside it (a store that closes cleanly removes
        // them); while a writer has it open (or after one was killed) both are there.
        try Self.checkpoint(runner.database)
        // A live journal: a writer has it open, so -wal and -shm are there.
        let live = walCheckpointed ? nil : try SQLiteConnection(path: runner.database, options: .init(create: false))
        _ = try live?.scalarInt("SELECT count(*) FROM journal_events")
        defer { live?.close() }
        let more = legal.events(atLeast: 300, firstStream: 10_000).lines
        let input = try runner.ndjson("more.ndjson", more)
        let before = try Self.bytes(runner.database)
        try Self.protect(runner, true)
        defer { try? Self.protect(runner, false) }

        let refused = try Self.runWithoutWriteAccess(runner, ["import", input])
        #expect(refused.ending == .exited(1))
        #expect(refused.stderr.hasPrefix("error: ") && refused.stderr.contains("read-only"), "\(refused.stderr)")
        #expect(try Self.bytes(runner.database) == before, "the journal file changed")
        for command in [["verify"], ["export"], ["audit", LegalEvents.threeDSStream(1)]] {
            let read = try Self.runWithoutWriteAccess(runner, command)
            #expect(read.ending == .exited(0), "\(command[0]) of a read-only journal: \(read.stderr)")
        }

        try Self.protect(runner, false)
        #expect(try runner.run(["import", input], timeout: 300).ending == .exited(0))
        let after = try runner.verification()
        #expect(after.status == 0 && after.events == first.count + more.count)
    }

    // MARK: - Foreign and damaged files

    enum Foreign: String, CaseIterable {
        case otherSQLiteDatabase, randomBytes, textFile
    }

    @Test(arguments: Foreign.allCases)
    func aFileThatIsNotAJournalIsRefusedAndLeftUntouched(_ kind: Foreign) throws {
        let runner = try JournalRunner()
        switch kind {
        case .otherSQLiteDatabase:
            let other = try SQLiteConnection(path: runner.database)
            try other.execute("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine')")
            other.close()
        case .randomBytes:
            var random = SeededRandomBytes(seed: Soak.seed)
            _ = try runner.write("journal.db", bytes: (0..<40_000).map { _ in random.next() })
        case .textFile:
            var legal = LegalEvents()
            _ = try runner.write("journal.db", legal.frictionless(1).joined(separator: "\n"))
        }
        let original = try Self.bytes(runner.database)
        var legal = LegalEvents()
        let input = try runner.ndjson("in.ndjson", legal.frictionless(2))
        let expected =
            kind == .otherSQLiteDatabase ? "is a SQLite database but not a journal" : "is not a journal or is damaged"
        for command in [["import", input], ["verify"], ["export"]] {
            let result = try runner.run(command, timeout: 120)
            #expect(result.ending == .exited(1), "\(command[0]): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("error: ") && result.stderr.contains(expected),
                "\(command[0]): \(result.stderr)")
            #expect(result.stderr.contains("hint: check the --db path"), "\(result.stderr)")
        }
        #expect(try Self.bytes(runner.database) == original, "the foreign file changed")
        #expect(
            !FileManager.default.fileExists(atPath: runner.database + "-wal")
                || (try? Self.bytes(runner.database + "-wal").isEmpty) == true)
        // The next run, on a journal, works.
        let fresh = try runner.run(["import", input, "--db", runner.path("fresh.db")], timeout: 120, db: false)
        #expect(fresh.ending == .exited(0))
    }

    @Test func aTruncatedJournalIsReportedDamagedAndNotMadeWorse() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        try Self.populate(runner, &legal, count: 2_000, firstStream: 1)
        try Self.checkpoint(runner.database)
        let whole = try Self.bytes(runner.database)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: runner.database))
        let truncated = try Self.bytes(runner.database)
        let input = try runner.ndjson("more.ndjson", legal.events(atLeast: 50, firstStream: 10_000).lines)
        for command in [["verify"], ["export"], ["import", input]] {
            let result = try runner.run(command, timeout: 120)
            #expect(result.ending == .exited(1), "\(command[0]): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("error: ") && result.stderr.contains("is not a journal or is damaged"),
                "\(command[0]): \(result.stderr)")
        }
        #expect(try Self.bytes(runner.database) == truncated, "a failed command wrote to the damaged file")
        // Restoring the file (from a backup) makes the next run work.
        try whole.write(to: URL(fileURLWithPath: runner.database))
        #expect(try runner.run(["import", input], timeout: 120).ending == .exited(0))
        #expect(try runner.verification().status == 0)
    }

    /// SQLite checksums every WAL frame: a WAL cut in the middle of the last commit (a torn write
    /// at a power cut) loses that commit whole and keeps the ones before it.
    @Test func aWALTornInsideTheLastCommitLosesThatCommitWhole() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let first = legal.events(atLeast: 500, firstStream: 1).lines
        let second = legal.events(atLeast: 500, firstStream: 10_000).lines
        // Two commits through one open store, whose files are copied before it closes (closing
        // the last connection checkpoints the WAL into the database file and removes it).
        let copy = runner.path("copy.db")
        do {
            let store = try SQLiteEventStore(path: runner.database)
            try Self.appendInOneTransaction(first, to: store)
            let afterFirst = try Self.bytes(runner.database + "-wal").count
            try Self.appendInOneTransaction(second, to: store)
            let wal = try Self.bytes(runner.database + "-wal")
            try #require(wal.count > afterFirst, "the second commit went to the WAL")
            try Self.bytes(runner.database).write(to: URL(fileURLWithPath: copy))
            try wal.prefix(afterFirst + (wal.count - afterFirst) / 2).write(to: URL(fileURLWithPath: copy + "-wal"))
        }
        let verification = try runner.verification(database: copy)
        #expect(verification.status == 0 && verification.events == first.count, "\(verification.stderr)")
        let exported = try runner.run(["export", "--db", copy], timeout: 120, db: false)
        #expect(exported.stdout.split(separator: "\n").map { idOf(String($0)) } == first.map(idOf))
    }

    /// Appends NDJSON envelope lines through the library, all in one transaction.
    static func appendInOneTransaction(_ lines: [String], to store: SQLiteEventStore) throws {
        let batch = try lines.map { line in
            let envelope = try Envelope(line: Array(line.utf8))
            let event = ProposedEvent(
                id: envelope.id, type: envelope.type, occurredAt: envelope.occurredAt,
                data: envelope.dataBytes, meta: envelope.metaBytes)
            return StreamAppend(stream: try StreamName(envelope.stream), expectedVersion: .any, events: [event])
        }
        try store.append(batch)
    }

    // MARK: - Locks

    @Test func aLockHeldBeyondTheBusyTimeoutFailsWithExit5WritesNothingAndTheNextRunWorks() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let first = try Self.populate(runner, &legal, count: 100, firstStream: 1)
        let more = legal.events(atLeast: 100, firstStream: 10_000).lines
        let input = try runner.ndjson("more.ndjson", more)
        let holder = try SQLiteConnection(path: runner.database, options: .init(create: false))
        try holder.begin(.immediate)
        let blocked = try runner.run(["import", input], timeout: 120, environment: ["JOURNAL_BUSY_TIMEOUT_MS": "300"])
        #expect(blocked.ending == .exited(5))
        #expect(blocked.stderr.hasPrefix("error: ") && blocked.stderr.contains("locked"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("\nhint: "))
        // Readers are not blocked by a writer's lock (WAL), and see nothing partial.
        let during = try runner.verification()
        #expect(during.status == 0 && during.events == first.count)
        holder.rollback()
        holder.close()
        #expect(try runner.run(["import", input], timeout: 120).ending == .exited(0))
        #expect(try runner.verification().events == first.count + more.count)
    }
}

/// Bytes from SplitMix64, for a file of noise.
struct SeededRandomBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt8 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}
