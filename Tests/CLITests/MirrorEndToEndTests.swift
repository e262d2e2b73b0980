import Foundation
import Testing

/// Spec §10 through the built executable: `publish`, `verify --mirror`, `restore` from an
/// export and from a mirror, on SQLite and PostgreSQL.
@Suite("journal publish, verify --mirror and restore (end to end)")
struct MirrorEndToEndTests {
    typealias Signed = EvidenceEndToEndTests.Signed

    @Test("publish, verify --mirror, restore from the mirror: the same export, and the checkpoint holds")
    func mirrorRoundTrip() throws {
        let signed = try Signed(transactions: 60)
        let runner = signed.runner
        let mirror = runner.path("mirror")
        let publish = try runner.run(["publish", "--out", mirror, "--entries", "--format", "json"])
        #expect(publish.status == 0, "\(publish.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(publish.stdout.utf8)) as? [String: Any]
        let size = try #require(report?["size"] as? Int)
        #expect(try runner.exportedObjects().count == size)
        #expect(try runner.read("mirror/checkpoint") == (try runner.read("checkpoint.txt")))
        #expect(try EdgesEndToEndTests.mode(runner.path("mirror/checkpoint")) == 0o644)
        #expect(try EdgesEndToEndTests.mode(runner.path("mirror/tile/0/000")) == 0o644)
        #expect(try EdgesEndToEndTests.mode(runner.path("mirror/tile/entries/000")) == 0o600)

        let verify = try runner.run(["verify", "--mirror", mirror, "--key", signed.verifierKey], db: false)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.hasPrefix("ok: the mirror \(mirror) holds the tree of \(size) events signed by"))
        let extends = try runner.run(["verify", "--mirror", mirror, "--key", signed.verifierKey])
        #expect(extends.stdoutLines.last?.hasPrefix("ok: the journal (\(size) events) is the mirror's log") == true)

        let restored = runner.path("restored.db")
        let restore = try runner.run(["restore", mirror, "--key", signed.verifierKey, "--db", restored], db: false)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.hasPrefix("restored \(size) events in "))
        #expect(try runner.run(["export", "--db", restored], db: false).stdout == (try runner.run(["export"])).stdout)
        let held = try runner.run(
            ["verify", "--db", restored, "--checkpoint", signed.checkpointFile, "--key", signed.verifierKey], db: false)
        #expect(held.status == 0, "\(held.stderr)")
        // The mirror's checkpoint is kept in the restored journal: proofs work at once.
        #expect(try runner.run(["prove", "1", "--db", restored], db: false).status == 0)
    }

    @Test("restore from an export keeps every position, recordedAt and hash; import makes a new log")
    func exportRoundTrip() throws {
        let signed = try Signed()
        let runner = signed.runner
        let export = try runner.run(["export"]).stdout
        let file = try runner.write("backup.ndjson", export)
        let restored = runner.path("restored.db")
        let restore = try runner.run(
            ["restore", file, "--db", restored, "--checkpoint", signed.checkpointFile, "--key", signed.verifierKey],
            db: false)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try runner.run(["export", "--db", restored], db: false).stdout == export)
        #expect(
            try runner.run(
                ["verify", "--db", restored, "--checkpoint", signed.checkpointFile, "--key", signed.verifierKey],
                db: false
            ).status == 0)
        // Without a checkpoint too.
        let plain = runner.path("plain.db")
        #expect(try runner.run(["restore", file, "--db", plain], db: false).status == 0)
        #expect(try runner.run(["export", "--db", plain], db: false).stdout == export)
        // import of the same export makes a new log, which the checkpoint does not hold.
        let imported = runner.path("imported.db")
        #expect(try runner.run(["import", file, "--db", imported], db: false).status == 0)
        #expect(
            try runner.run(
                ["verify", "--db", imported, "--checkpoint", signed.checkpointFile, "--key", signed.verifierKey],
                db: false
            ).status == 4)
    }

    @Test("restore refuses an existing journal (exit 1) and a gap (exit 4 naming the line), keeping nothing")
    func restoreRefusals() throws {
        let signed = try Signed()
        let runner = signed.runner
        let export = try runner.run(["export"]).stdout
        let file = try runner.write("backup.ndjson", export)
        let existing = try runner.run(["restore", file], db: true)
        #expect(existing.status == 1)
        #expect(existing.stderrLines.first?.contains("exists: a restore only creates a new journal") == true)

        var lines = export.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.remove(at: 41)
        let gap = try runner.write("gap.ndjson", lines.joined(separator: "\n"))
        let new = runner.path("new.db")
        let result = try runner.run(["restore", gap, "--db", new], db: false)
        #expect(result.status == 4)
        #expect(
            result.stderrLines.first
                == "error: line 42: position 43 where 42 comes next (positions are 1…N without a gap)")
        #expect(result.stderrLines.last == "hint: nothing was kept")
        #expect(!runner.exists("new.db"))
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: runner.folder.path)).contains {
                $0.hasPrefix("new.db")
            })
        // A checkpoint signed by another key: exit 4 before anything is read.
        let other = try runner.run(["keygen", "other.example/log", "--out", runner.path("other.key")], db: false)
        let wrongKey = try runner.run(
            ["restore", file, "--db", new, "--checkpoint", signed.checkpointFile, "--key", other.stdout], db: false)
        #expect(wrongKey.status == 4)
        #expect(!runner.exists("new.db"))
        // Usage errors before anything is opened.
        #expect(
            try runner.run(["restore", file, "--db", new, "--checkpoint", signed.checkpointFile], db: false).status == 2
        )
        #expect(try runner.run(["restore", runner.path("mirror-missing"), "--db", new], db: false).status == 1)
    }

    @Test(
        "a second publish writes only new files; verify --mirror catches a changed tile and a journal not extending it"
    )
    func incrementalPublishAndTampering() throws {
        let signed = try Signed(transactions: 60)
        let runner = signed.runner
        let mirror = runner.path("mirror")
        #expect(try runner.run(["publish", "--out", mirror]).status == 0)
        let first = try FileManager.default.attributesOfItem(atPath: runner.path("mirror/tile/0/000"))
        #expect(try runner.run(["simulate", "--seed", "77", "--transactions", "40", "--into-existing"]).status == 0)
        #expect(try runner.run(["checkpoint", "--key", signed.keyFile]).status == 0)
        let again = try runner.run(["publish", "--out", mirror, "--format", "json"])
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect((report?["previousSize"] as? Int ?? 0) > 0)
        #expect(report?["checkpointReplaced"] as? Bool == true)
        let after = try FileManager.default.attributesOfItem(atPath: runner.path("mirror/tile/0/000"))
        #expect(first[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
        #expect(try runner.run(["verify", "--mirror", mirror, "--key", signed.verifierKey], db: false).status == 0)
        // Entry bundles asked for later are written from the first entry on; once there, they are
        // always written.
        let withEntries = try runner.run(["publish", "--out", mirror, "--entries"])
        #expect(withEntries.status == 0, "\(withEntries.stderr)")
        #expect(try runner.run(["publish", "--out", mirror]).status == 1)

        // No journal at --db: exit 1; another journal does not extend the mirror: exit 4.
        let missing = try runner.run(
            ["verify", "--mirror", mirror, "--key", signed.verifierKey, "--db", runner.path("x.db")], db: false)
        #expect(missing.status == 1)
        let simulated = runner.path("other.db")
        #expect(
            try runner.run(["simulate", "--seed", "5", "--transactions", "50", "--db", simulated], db: false).status
                == 0)
        let notExtending = try runner.run(
            ["verify", "--mirror", mirror, "--key", signed.verifierKey, "--db", simulated], db: false)
        #expect(notExtending.status == 4)
        #expect(notExtending.stderrLines.first?.contains("the journal does not extend the mirror") == true)

        // A changed tile.
        let tile = runner.path("mirror/tile/0/000")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: tile))
        bytes[3] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: tile))
        let tampered = try runner.run(["verify", "--mirror", mirror, "--key", signed.verifierKey], db: false)
        #expect(tampered.status == 4)
        #expect(tampered.stderrLines.first?.contains("tile/0/000 does not hash to hash 0 of tile/1/000") == true)
    }

    @Test("publish without a kept checkpoint exits 1 with a hint; without --out it is a usage error")
    func publishNeedsACheckpoint() throws {
        let runner = try JournalRunner()
        #expect(try runner.run(["simulate", "--seed", "1", "--transactions", "3"]).status == 0)
        let result = try runner.run(["publish", "--out", runner.path("mirror")])
        #expect(result.status == 1)
        #expect(
            result.stderrLines == [
                "error: the journal has kept no checkpoint to publish",
                "hint: sign one first: journal checkpoint --key FILE"
            ])
        #expect(try runner.run(["publish"]).status == 2)
    }

    @Test(
        "restore into PostgreSQL gives the same export, and refuses a journal that holds events",
        .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
    func restoreIntoPostgres() throws {
        let signed = try Signed()
        let runner = signed.runner
        let export = try runner.run(["export"]).stdout
        let file = try runner.write("backup.ndjson", export)
        let url = try PostgresCLIServer.freshURL()
        let restore = try runner.run(
            ["restore", file, "--db", url, "--checkpoint", signed.checkpointFile, "--key", signed.verifierKey],
            db: false)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try runner.run(["export", "--db", url], db: false).stdout == export)
        let mirror = runner.path("pg-mirror")
        #expect(try runner.run(["publish", "--out", mirror, "--entries", "--db", url], db: false).status == 0)
        #expect(try runner.run(["verify", "--mirror", mirror, "--key", signed.verifierKey], db: false).status == 0)
        let again = try runner.run(["restore", file, "--db", url], db: false)
        #expect(again.status == 1)
        // A bad export into a new PostgreSQL journal keeps no event.
        let otherURL = try PostgresCLIServer.freshURL()
        let bad = try runner.write(
            "bad.ndjson", export.replacingOccurrences(of: "\"position\":7,", with: "\"position\":8,"))
        let failed = try runner.run(["restore", bad, "--db", otherURL], db: false)
        #expect(failed.status == 4)
        #expect(try runner.run(["export", "--db", otherURL], db: false).stdout == "")
    }
}
