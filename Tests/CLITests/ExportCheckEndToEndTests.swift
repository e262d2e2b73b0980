import Foundation
import Testing

/// Spec §9 "Exports checked against a signed head" through the built executable:
/// `journal check EXPORT --checkpoint FILE --key VKEY`, on exports of SQLite and PostgreSQL
/// journals, and each way an export can fail to be the signed log.
@Suite("journal check EXPORT --checkpoint (end to end)")
struct ExportCheckEndToEndTests {
    /// A signed journal (SQLite, or PostgreSQL at `url`), its export and its latest checkpoint
    /// as files.
    final class SignedExport {
        let runner: JournalRunner
        let verifierKey: String
        let keyFile: String
        let checkpoint: String
        let export: String
        let lines: [String]
        let dbArguments: [String]

        init(postgresURL: String? = nil) throws {
            runner = try JournalRunner()
            dbArguments = ["--db", postgresURL ?? runner.database]
            keyFile = runner.path("journal.key")
            let keygen = try runner.run(["keygen", "payments.example/journal", "--out", keyFile], db: false)
            guard keygen.status == 0 else { throw FixtureError(message: keygen.stderr) }
            verifierKey = keygen.stdout.trimmingCharacters(in: .newlines)
            try Self.expectSuccess(
                runner.run(
                    ["simulate", "--seed", "5", "--transactions", "20", "--digitizations", "10", "--sign", keyFile]
                        + dbArguments, db: false))
            checkpoint = runner.path("checkpoint.txt")
            try Self.expectSuccess(
                runner.run(["checkpoint", "--latest", "--out", checkpoint] + dbArguments, db: false))
            let exported = try runner.run(["export"] + dbArguments, db: false)
            try Self.expectSuccess(exported)
            lines = exported.stdoutLines
            export = try runner.write("export.ndjson", exported.stdout)
        }

        static func expectSuccess(_ result: JournalRunner.Result) throws {
            guard result.status == 0 else { throw FixtureError(message: "exit \(result.status): \(result.stderr)") }
        }

        /// `journal check FILE --checkpoint … --key …` with no journal.
        func check(_ file: String, key: String? = nil, _ extra: [String] = []) throws -> JournalRunner.Result {
            try runner.run(
                ["check", file, "--checkpoint", checkpoint, "--key", key ?? verifierKey] + extra, db: false)
        }

        /// Writes `lines` (joined by line feeds, with a final one) as a new file.
        func write(_ name: String, _ lines: [String]) throws -> String {
            try runner.write(name, lines.joined(separator: "\n") + "\n")
        }
    }

    @Test("the export of a signed SQLite journal checks against its checkpoint, with no journal opened")
    func exportOfASQLiteJournalChecks() throws {
        try checksAndFails(try SignedExport())
    }

    @Test(
        "the export of a signed PostgreSQL journal checks against its checkpoint",
        .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
    func exportOfAPostgreSQLJournalChecks() throws {
        try checksAndFails(try SignedExport(postgresURL: try PostgresCLIServer.freshURL()))
    }

    /// The file as exported checks; cut, edited or reordered, it fails at the first line that
    /// cannot hold.
    private func checksAndFails(_ signed: SignedExport) throws {
        let size = signed.lines.count
        let ok = try signed.check(signed.export)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.hasPrefix("ok: the first \(size) lines of \(signed.export) are the log "))
        let json = try signed.check(signed.export, ["--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == true)
        #expect(object?["treeSize"] as? Int == size)
        #expect(object?["linesAfter"] as? Int == 0)
        let note = try signed.runner.read("checkpoint.txt").components(separatedBy: "\n")
        #expect(object?["root"] as? String == note[2])
        // No journal is opened, not even one named by --db.
        #expect(try signed.check(signed.export, ["--db", signed.runner.path("none.db")]).status == 0)
        #expect(!signed.runner.exists("none.db"))

        // A line deleted in the middle: the next line holds the wrong position.
        var cut = signed.lines
        cut.remove(at: 9)
        let middle = try signed.check(try signed.write("cut.ndjson", cut))
        #expect(middle.status == 4)
        #expect(middle.stderr.contains("line 10: not an export line: it holds position 11"), "\(middle.stderr)")

        // Lines deleted at the end: too few lines.
        let short = try signed.check(try signed.write("short.ndjson", Array(signed.lines.prefix(size - 3))))
        #expect(short.status == 4)
        #expect(short.stderr.contains("line \(size - 2): the file ends after \(size - 3) lines"), "\(short.stderr)")

        // One value changed in a line that is still an export line: the root differs.
        var edited = signed.lines
        edited[4] = edited[4].replacingOccurrences(of: #""simulated":true"#, with: #""simulated":false"#)
        #expect(edited[4] != signed.lines[4])
        let changed = try signed.check(try signed.write("edited.ndjson", edited))
        #expect(changed.status == 4)
        #expect(
            changed.stderr.contains("line \(size): the tree over lines 1…\(size) has the root "), "\(changed.stderr)")

        // A line that is not an export line at all.
        var garbage = signed.lines
        garbage[2] = #"{"id":"x"}"#
        let notExport = try signed.check(try signed.write("garbage.ndjson", garbage))
        #expect(notExport.status == 4)
        #expect(notExport.stderr.contains("line 3: not an export line"), "\(notExport.stderr)")

        // Another key: the signature does not verify.
        let other = try signed.runner.run(
            ["keygen", "payments.example/journal", "--out", signed.runner.path("other.key")], db: false)
        let wrongKey = try signed.check(signed.export, key: other.stdout.trimmingCharacters(in: .newlines))
        #expect(wrongKey.status == 4)
        #expect(wrongKey.stderr.contains("is not signed by the given key"), "\(wrongKey.stderr)")
    }

    @Test("lines after the checkpoint's size are counted, not checked; a byte order mark is skipped")
    func linesAfterTheSizeAndAByteOrderMark() throws {
        let signed = try SignedExport()
        let grown = try signed.write("grown.ndjson", signed.lines + ["not an export line", "{}"])
        let result = try signed.check(grown)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("; 2 more lines after them, not covered\n"), "\(result.stdout)")
        let withMark = try signed.runner.write(
            "bom.ndjson", bytes: [0xEF, 0xBB, 0xBF] + Array((signed.lines.joined(separator: "\n") + "\n").utf8))
        #expect(try signed.check(withMark).status == 0)
        // From stdin too.
        let piped = try signed.runner.run(
            ["check", "-", "--checkpoint", signed.checkpoint, "--key", signed.verifierKey], db: false,
            stdin: signed.lines.joined(separator: "\n") + "\n")
        #expect(piped.status == 0, "\(piped.stderr)")
    }

    @Test("CRLF line ends and a UTF-16 export are named, not hashed into a different root")
    func changedLineEndsAndUTF16() throws {
        let signed = try SignedExport()
        let crlf = try signed.runner.write("crlf.ndjson", signed.lines.joined(separator: "\r\n") + "\r\n")
        let result = try signed.check(crlf)
        #expect(result.status == 4)
        #expect(result.stderr.contains("line 1: not an export line: it ends in a carriage return"), "\(result.stderr)")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in (signed.lines.joined(separator: "\n") + "\n").utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let wide = try signed.check(try signed.runner.write("utf16.ndjson", bytes: utf16))
        #expect(wide.status == 4)
        #expect(wide.stderrLines.count == 1)
        #expect(wide.stderr.contains("this file is UTF-16; convert it with iconv -f UTF-16 -t UTF-8"), "\(wide.stderr)")
    }

    @Test("an export given to check without --checkpoint is a usage error that says how to check it")
    func anExportWithoutACheckpointIsAUsageError() throws {
        let signed = try SignedExport()
        let result = try signed.runner.run(["check", signed.export, "--key", signed.verifierKey], db: false)
        #expect(result.status == 2)
        #expect(result.stderrLines.first == "error: \(signed.export) is an export, not a bundle")
        #expect(result.stderr.contains("--checkpoint CHECKPOINT"))
    }
}
