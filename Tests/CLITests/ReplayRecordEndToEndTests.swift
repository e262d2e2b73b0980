import EventStore
import Foundation
import JournalCore
import Testing

/// Spec §12 through the built executable: `replay --all --record FILE` and `--against FILE`
/// on the recorded journal, on another one (an edited export imported elsewhere, a copy with
/// later events, a journal whose stream breaks a rule), on a bundle, and on PostgreSQL.
@Suite("journal replay --record / --against (end to end)")
struct ReplayRecordEndToEndTests {
    /// Five legal streams; the last one only up to its challenge's start when `partial`.
    static func lines(partial: Bool = false) -> (first: [String], rest: [String]) {
        var events = LegalEvents()
        let head = events.challenged(1) + events.yellowOTP(2) + events.frictionless(3) + events.green(4)
        let fifth = events.challenged(5)
        let later = events.frictionless(6)
        return partial ? (head + Array(fifth.prefix(5)), Array(fifth.dropFirst(5)) + later) : (head + fifth, later)
    }

    static func rules(_ runner: JournalRunner) throws -> String {
        let version = try runner.run(["--version"], db: false)
        let line = try #require(version.stdoutLines.first { $0.hasPrefix("rules ") })
        return String(line.split(separator: " ").last ?? "")
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a record of a journal compares equal with it: exit 0, the summary line with the rules identifier")
    func recordAndCompareTheSameJournal() throws {
        let runner = try JournalRunner()
        try runner.importLegal(Self.lines().first)
        let record = runner.path("before.rec")
        let plain = try runner.run(["replay", "--all"])
        let recorded = try runner.run(["replay", "--all", "--record", record])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout == plain.stdout, "--record prints what replay --all prints")
        let mode = try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: record + ".partial"))

        let rules = try Self.rules(runner)
        #expect(rules.hasPrefix("r1-") && rules.count == 19)
        let against = try runner.run(["replay", "--all", "--against", record])
        #expect(against.status == 0, "\(against.stderr)")
        #expect(
            against.stdout == "compared 5 streams: 0 changed, 0 only now, 0 only then (rules \(rules) → \(rules))\n")
        let json = try runner.run(["replay", "--all", "--against", record, "--format", "json"])
        #expect(json.status == 0)
        #expect(
            json.stdout
                == #"{"streams":5,"changed":0,"onlyNow":[],"onlyThen":[],"#
                + #""rules":{"then":"\#(rules)","now":"\#(rules)"},"differences":[]}"# + "\n")
    }

    @Test("two journals that differ in one event of one stream: exactly that stream, version and fields")
    func oneEditedEventIsFound() throws {
        let runner = try JournalRunner()
        try runner.importLegal(Self.lines().first)
        let record = runner.path("before.rec")
        #expect(try runner.run(["replay", "--all", "--record", record]).status == 0)
        // The export edited (one ChallengeStarted's timeout), imported into another journal.
        let exported = try runner.run(["export"]).stdout
        var lines = exported.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(#""ChallengeStarted""#) })
        lines[index] = lines[index].replacingOccurrences(of: #""timeoutSeconds":600"#, with: #""timeoutSeconds":900"#)
        let other = runner.path("other.db")
        let imported = try runner.run(["import", try runner.ndjson("edited.ndjson", lines), "--db", other], db: false)
        #expect(imported.status == 0, "\(imported.stderr)")

        let against = try runner.run(["replay", "--all", "--against", record, "--db", other], db: false)
        #expect(against.status == 6)
        #expect(against.stderr.hasPrefix("error: the replay differs from the record: 1 changed"))
        let stream = LegalEvents.threeDSStream(1)
        let out = against.stdoutLines
        #expect(out.count == 4)
        #expect(out.first?.hasPrefix("compared 5 streams: 1 changed, 0 only now, 0 only then (rules ") == true)
        #expect(out.dropFirst().first == "\(stream) at version 3: then folds (9 versions), now folds (9 versions)")
        #expect(out.dropFirst(2).first == "  timeoutSeconds: 600 → 900")
        #expect(out.last?.hasPrefix("  deadline: \"") == true)

        let json = try object(
            try runner.run(["replay", "--all", "--against", record, "--db", other, "--format", "json"], db: false)
                .stdout)
        #expect(json["changed"] as? Int == 1)
        let difference = try #require((json["differences"] as? [[String: Any]])?.first)
        #expect(difference["stream"] as? String == stream)
        #expect(difference["version"] as? Int == 3)
        #expect(difference["then"] as? String == "folds" && difference["now"] as? String == "folds")
        #expect(difference["thenReason"] == nil && difference["nowReason"] == nil)
        #expect(difference["versionsThen"] as? Int == 9 && difference["versionsNow"] as? Int == 9)
        let fields = difference["fields"] as? [[String: Any]] ?? []
        #expect(fields.map { $0["path"] as? String } == ["timeoutSeconds", "deadline"])
        #expect(fields.first?["before"] as? Int == 600 && fields.first?["after"] as? Int == 900)
    }

    @Test("a journal with later events: longer streams differ where the record ends, new ones are only now")
    func laterEventsAreNamed() throws {
        let runner = try JournalRunner()
        let (first, rest) = Self.lines(partial: true)
        try runner.importLegal(first)
        let record = runner.path("before.rec")
        #expect(try runner.run(["replay", "--all", "--record", record]).status == 0)
        try runner.importLegal(rest, name: "later.ndjson")
        let against = try runner.run(["replay", "--all", "--against", record])
        #expect(against.status == 6)
        #expect(
            against.stdoutLines.dropFirst() == [
                "\(LegalEvents.threeDSStream(5)) at version 5: then folds (5 versions), now folds (9 versions)",
                "only now: \(LegalEvents.threeDSStream(6))"
            ])
        #expect(against.stdoutLines.first?.hasPrefix("compared 5 streams: 1 changed, 1 only now, 0 only then") == true)

        // The other way round: the record has streams (and versions) this journal lacks.
        let newer = runner.path("after.rec")
        #expect(try runner.run(["replay", "--all", "--record", newer]).status == 0)
        let older = runner.path("older.db")
        #expect(
            try runner.run(["import", try runner.ndjson("first.ndjson", first), "--db", older], db: false).status == 0)
        let json = try object(
            try runner.run(["replay", "--all", "--against", newer, "--db", older, "--format", "json"], db: false).stdout
        )
        #expect(json["onlyThen"] as? [String] == [LegalEvents.threeDSStream(6)])
        #expect(json["onlyNow"] as? [String] == [])
        let difference = try #require((json["differences"] as? [[String: Any]])?.first)
        #expect(difference["version"] as? Int == 5)
        #expect(difference["versionsThen"] as? Int == 9 && difference["versionsNow"] as? Int == 5)
        #expect((difference["fields"] as? [Any])?.isEmpty == true)
    }

    /// Journal A: frictionless stream 3 closed. Journal B: the same stream with a ChallengeStarted
    /// after a frictionless ARes instead, appended through the library (which applies no rule).
    static func foldingAndFailing() throws -> (runner: JournalRunner, good: String, bad: String) {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let shared = events.challenged(1) + Array(events.frictionless(3).prefix(3))
        let file = try runner.ndjson("shared.ndjson", shared)
        let good = runner.path("good.db")
        let bad = runner.path("bad.db")
        for db in [good, bad] { #expect(try runner.run(["import", file, "--db", db], db: false).status == 0) }
        let close = [events.line(LegalEvents.threeDSStream(3), "TransactionClosed", "{}")]
        #expect(
            try runner.run(["import", try runner.ndjson("close.ndjson", close), "--db", good], db: false).status == 0)
        let store = try SQLiteEventStore(path: bad)
        try store.append(
            [
                LegalEvents.unchecked(1, "ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"A"}"#)
            ], to: try StreamName(LegalEvents.threeDSStream(3)), expectedVersion: .exact(2))
        return (runner, good, bad)
    }

    @Test("a stream that folds then and fails now, and one that fails then and folds now")
    func foldingAndFailingSwapSides() throws {
        let (runner, good, bad) = try Self.foldingAndFailing()
        let stream = LegalEvents.threeDSStream(3)
        let reason = #"ChallengeStarted requires an ARes transStatus of C or D, got "Y""#
        let goodRecord = runner.path("good.rec")
        #expect(try runner.run(["replay", "--all", "--record", goodRecord, "--db", good], db: false).status == 0)
        let now = try runner.run(["replay", "--all", "--against", goodRecord, "--db", bad], db: false)
        #expect(now.status == 6)
        #expect(
            now.stdoutLines.dropFirst() == [
                "\(stream) at version 3: then folds (4 versions), now fails: \(reason) (4 versions)"
            ])

        // A journal whose stream fails still gets its record (replay --all exits 6 as ever).
        let badRecord = runner.path("bad.rec")
        let recorded = try runner.run(["replay", "--all", "--record", badRecord, "--db", bad], db: false)
        #expect(recorded.status == 6)
        #expect(recorded.stdout.contains("FAILS \(stream) at version 3"))
        let json = try object(
            try runner.run(["replay", "--all", "--against", badRecord, "--db", good, "--format", "json"], db: false)
                .stdout)
        let difference = try #require((json["differences"] as? [[String: Any]])?.first)
        #expect(difference["then"] as? String == "fails" && difference["now"] as? String == "folds")
        #expect(difference["thenReason"] as? String == reason && difference["nowReason"] == nil)
        #expect(difference["version"] as? Int == 3)
    }

    @Test("a tampered journal stops the comparison with exit 4, comparing nothing")
    func tamperedJournalIsAnIntegrityFailure() throws {
        let runner = try JournalRunner()
        try runner.importLegal(Self.lines().first)
        let record = runner.path("before.rec")
        #expect(try runner.run(["replay", "--all", "--record", record]).status == 0)
        try runner.tamper(replacing: "ACS-REF-7", with: "ACS-REF-8")
        let against = try runner.run(["replay", "--all", "--against", record])
        #expect(against.status == 4, "\(against.stderr)")
        #expect(!against.stdout.contains("compared"))
        let again = try runner.run(["replay", "--all", "--record", runner.path("after.rec")])
        #expect(again.status == 4)
        #expect(!FileManager.default.fileExists(atPath: runner.path("after.rec")), "no record of a broken log")
        #expect(!FileManager.default.fileExists(atPath: runner.path("after.rec.partial")))
    }

    @Test("the same record and log print byte-identical reports on every run")
    func reportsAreByteIdentical() throws {
        let (runner, good, bad) = try Self.foldingAndFailing()
        let record = runner.path("good.rec")
        #expect(try runner.run(["replay", "--all", "--record", record, "--db", good], db: false).status == 0)
        for format in ["text", "json"] {
            let runs = try (0..<3).map { _ in
                try runner.run(["replay", "--all", "--against", record, "--db", bad, "--format", format], db: false)
            }
            #expect(runs.allSatisfy { $0.stdout == runs[0].stdout && $0.status == 6 })
        }
        let second = runner.path("good2.rec")
        #expect(try runner.run(["replay", "--all", "--record", second, "--db", good], db: false).status == 0)
        #expect(FileManager.default.contents(atPath: record) == FileManager.default.contents(atPath: second))
    }

    @Test("a bundle compares its stream with the record, the record's other streams left out")
    func bundleAgainstARecord() throws {
        let runner = try JournalRunner()
        let keyFile = runner.path("journal.key")
        let keygen = try runner.run(["keygen", "payments.example/journal", "--out", keyFile], db: false)
        let verifier = keygen.stdout.trimmingCharacters(in: .newlines)
        try runner.importLegal(Self.lines().first)
        #expect(try runner.run(["checkpoint", "--key", keyFile]).status == 0)
        let stream = LegalEvents.threeDSStream(1)
        let bundle = runner.path("evidence.json")
        #expect(try runner.run(["bundle", stream, "--out", bundle]).status == 0)
        let record = runner.path("before.rec")
        #expect(try runner.run(["replay", "--all", "--record", record]).status == 0)
        let against = try runner.run(
            ["replay", "--bundle", bundle, "--key", verifier, "--against", record], db: false)
        #expect(against.status == 0, "\(against.stderr)")
        #expect(against.stdout.hasPrefix("compared 1 streams: 0 changed, 0 only now, 0 only then"))

        // Against the record of a journal without that stream: only now.
        let other = try JournalRunner()
        var events = LegalEvents()
        try other.importLegal(events.green(9))
        let otherRecord = other.path("other.rec")
        #expect(try other.run(["replay", "--all", "--record", otherRecord]).status == 0)
        let elsewhere = try runner.run(
            ["replay", "--bundle", bundle, "--key", verifier, "--against", otherRecord], db: false)
        #expect(elsewhere.status == 6)
        #expect(
            elsewhere.stdoutLines == [
                elsewhere.stdoutLines.first ?? "", "only now: \(stream)"
            ])
        #expect(elsewhere.stdout.hasPrefix("compared 0 streams: 0 changed, 1 only now, 0 only then"))
    }

    @Test("usage: --record goes with --all, not with --against; a missing record is an error")
    func usageAndMissingRecord() throws {
        let runner = try JournalRunner()
        try runner.importLegal(Self.lines().first)
        let stream = LegalEvents.threeDSStream(1)
        #expect(try runner.run(["replay", stream, "--record", runner.path("r.rec")]).status == 2)
        #expect(try runner.run(["replay", stream, "--against", runner.path("r.rec")]).status == 2)
        #expect(
            try runner.run(["replay", "--all", "--record", runner.path("a"), "--against", runner.path("b")]).status == 2
        )
        let missing = try runner.run(["replay", "--all", "--against", runner.path("none.rec")])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: cannot open the record "))
        let notARecord = try runner.run(["replay", "--all", "--against", try runner.write("x.rec", "hello\n")])
        #expect(notARecord.status == 1)
        #expect(notARecord.stderr.contains("is not a replay record"))
    }

    @Test(
        "PostgreSQL: a record made on one backend compares equal on the other, and records are byte-identical",
        .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
    func bothBackendsRecordAndCompareAlike() throws {
        let runner = try JournalRunner()
        #expect(
            try runner.run(["simulate", "--seed", "36", "--transactions", "60", "--digitizations", "30"]).status == 0)
        let url = try PostgresCLIServer.freshURL()
        #expect(try runner.run(["copy", "--from", runner.database, "--to", url], db: false).status == 0)
        let sqliteRecord = runner.path("sqlite.rec")
        let postgresRecord = runner.path("postgres.rec")
        #expect(try runner.run(["replay", "--all", "--record", sqliteRecord]).status == 0)
        #expect(try runner.run(["replay", "--all", "--record", postgresRecord, "--db", url], db: false).status == 0)
        #expect(
            FileManager.default.contents(atPath: sqliteRecord) == FileManager.default.contents(atPath: postgresRecord))
        let onPostgres = try runner.run(["replay", "--all", "--against", sqliteRecord, "--db", url], db: false)
        #expect(onPostgres.status == 0, "\(onPostgres.stderr)")
        #expect(onPostgres.stdout.hasPrefix("compared 90 streams: 0 changed, 0 only now, 0 only then"))

        // A later event on PostgreSQL only: that stream, on that backend.
        var events = LegalEvents()
        #expect(
            try runner.run(["import", try runner.ndjson("x.ndjson", events.green(9)), "--db", url], db: false).status
                == 0)
        let later = try runner.run(["replay", "--all", "--against", sqliteRecord, "--db", url], db: false)
        #expect(later.status == 6)
        #expect(later.stdoutLines.last == "only now: \(LegalEvents.cardStream(9))")
    }
}
