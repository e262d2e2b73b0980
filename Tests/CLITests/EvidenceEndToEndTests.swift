import Foundation
import Testing

/// Spec §6 through the built executable: keys, checkpoints, proofs, bundles checked and
/// replayed where there is no journal, a journal held to its checkpoint, and each bad input.
@Suite("journal evidence (end to end)")
struct EvidenceEndToEndTests {
    /// A simulated journal with a key pair and a kept checkpoint.
    final class Signed {
        let runner: JournalRunner
        let keyFile: String
        let verifierKey: String
        let checkpointFile: String
        let stream: String

        init(seed: Int = 3, transactions: Int = 30) throws {
            runner = try JournalRunner()
            keyFile = runner.path("journal.key")
            let keygen = try runner.run(["keygen", "payments.example/journal", "--out", keyFile], db: false)
            guard keygen.status == 0 else { throw FixtureError(message: keygen.stderr) }
            verifierKey = keygen.stdout.trimmingCharacters(in: .newlines)
            let simulated = try runner.run([
                "simulate", "--seed", "\(seed)", "--transactions", "\(transactions)", "--digitizations", "15"
            ])
            guard simulated.status == 0 else { throw FixtureError(message: simulated.stderr) }
            let checkpoint = try runner.run(["checkpoint", "--key", keyFile])
            guard checkpoint.status == 0 else { throw FixtureError(message: checkpoint.stderr) }
            checkpointFile = try runner.write("checkpoint.txt", checkpoint.stdout)
            let first = try runner.exportedObjects().first { ($0["stream"] as? String)?.hasPrefix("3ds-") == true }
            stream = first?["stream"] as? String ?? ""
        }
    }

    @Test("keygen writes the private key 0600 and prints a verifier key of the signed-note format")
    func keygenMakesAKeyPair() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("k.key")], db: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.range(
                of: #"^payments\.example/journal\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}\n$"#,
                options: .regularExpression) != nil, "\(result.stdout)")
        #expect(try EdgesEndToEndTests.mode(runner.path("k.key")) == 0o600)
        let key = try runner.read("k.key")
        #expect(key.hasPrefix("PRIVATE+KEY+payments.example/journal+"))
        #expect(!result.stdout.contains("PRIVATE"))
        // Never overwritten.
        let again = try runner.run(["keygen", "payments.example/journal", "--out", runner.path("k.key")], db: false)
        #expect(again.status == 1)
        #expect(try runner.read("k.key") == key)
        #expect(!runner.exists("journal.db"))
        // A name with a space or a '+' is refused.
        #expect(try runner.run(["keygen", "bad name", "--out", runner.path("x.key")], db: false).status == 2)
        #expect(try runner.run(["keygen", "a+b", "--out", runner.path("y.key")], db: false).status == 2)
    }

    @Test("a checkpoint is a signed note of the tree head, kept and listed")
    func checkpointSignsTheHead() throws {
        let signed = try Signed()
        let note = try signed.runner.read("checkpoint.txt")
        let lines = note.components(separatedBy: "\n")
        #expect(lines[0] == "payments.example/journal")
        let size = try #require(Int(lines[1]))
        #expect(try size == signed.runner.exportedObjects().count)
        #expect(lines[3].isEmpty)
        #expect(lines[4].hasPrefix("— payments.example/journal "))
        let list = try signed.runner.run(["checkpoint", "--list", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        let kept = object?["checkpoints"] as? [[String: Any]]
        #expect(kept?.count == 1)
        #expect(kept?.first?["note"] as? String == note)
        #expect(kept?.first?["size"] as? Int == size)
    }

    @Test("a bundle checks and replays in a folder with no journal, byte for byte as replay on the journal")
    func bundleChecksAndReplaysOffline() throws {
        let signed = try Signed()
        let bundle = signed.runner.path("evidence.json")
        #expect(try signed.runner.run(["bundle", signed.stream, "--out", bundle]).status == 0)
        let expected = try signed.runner.run(["replay", signed.stream])
        #expect(expected.status == 0)

        let elsewhere = try JournalRunner()
        let copied = elsewhere.path("evidence.json")
        try FileManager.default.copyItem(atPath: bundle, toPath: copied)
        let check = try elsewhere.run(["check", copied, "--key", signed.verifierKey], db: false)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("ok: \(signed.stream): "))
        let replay = try elsewhere.run(["replay", "--bundle", copied, "--key", signed.verifierKey], db: false)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == expected.stdout)
        let json = try elsewhere.run(
            ["replay", "--bundle", copied, "--key", signed.verifierKey, "--format", "json"], db: false)
        #expect(json.stdout == (try signed.runner.run(["replay", signed.stream, "--format", "json"])).stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.folder.path) == ["evidence.json"])
    }

    @Test("a proof names the event's leaf, its index and the checkpoint; a consistency proof links two checkpoints")
    func proofsHaveTheC2SPShape() throws {
        let signed = try Signed()
        let proof = try signed.runner.run(["prove", "5"])
        #expect(proof.status == 0, "\(proof.stderr)")
        let lines = proof.stdout.components(separatedBy: "\n")
        #expect(lines[0] == "c2sp.org/tlog-proof@v1")
        #expect(lines[1].hasPrefix("extra "))
        let leaf = try #require(Data(base64Encoded: String(lines[1].dropFirst(6))))
        let export = try signed.runner.run(["export"]).stdout.components(separatedBy: "\n")
        #expect(String(decoding: leaf, as: UTF8.self) == export[4])
        #expect(lines[2] == "index 4")
        #expect(proof.stdout.hasSuffix(try signed.runner.read("checkpoint.txt")))

        // More events, a second checkpoint, and the proof that it extends the first.
        #expect(
            try signed.runner.run([
                "simulate", "--seed", "8", "--transactions", "5", "--digitizations", "2",
                "--into-existing"
            ]).status == 0)
        let newer = try signed.runner.write(
            "newer.txt", try signed.runner.run(["checkpoint", "--key", signed.keyFile]).stdout)
        let consistency = try signed.runner.run([
            "prove", "--consistency", signed.checkpointFile, "--checkpoint", newer,
            "--format", "json"
        ])
        #expect(consistency.status == 0, "\(consistency.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(consistency.stdout.utf8)) as? [String: Any]
        #expect((object?["proof"] as? [String])?.isEmpty == false)
        #expect((object?["fromSize"] as? Int ?? 0) < (object?["toSize"] as? Int ?? 0))
    }

    @Test("a journal rebuilt from an edited export verifies alone but fails against its checkpoint")
    func anEditedJournalFailsItsCheckpoint() throws {
        let signed = try Signed()
        #expect(
            try signed.runner.run(["verify", "--checkpoint", signed.checkpointFile, "--key", signed.verifierKey])
                .status == 0)
        // Export, change one event's meta (still valid for every rule), import into a new journal.
        let export = try signed.runner.run(["export"]).stdout
        let edited = export.replacingOccurrences(
            of: #""appVersion":"5.12.0""#, with: #""appVersion":"5.12.1""#,
            options: [], range: export.range(of: #""appVersion":"5.12.0""#))
        #expect(edited != export)
        let file = try signed.runner.write("edited.ndjson", edited)
        let rebuilt = signed.runner.path("rebuilt.db")
        #expect(try signed.runner.run(["import", file, "--db", rebuilt], db: false).status == 0)
        #expect(try signed.runner.run(["verify", "--db", rebuilt], db: false).status == 0)
        let held = try signed.runner.run(
            [
                "verify", "--db", rebuilt, "--checkpoint", signed.checkpointFile,
                "--key", signed.verifierKey
            ], db: false)
        #expect(held.status == 4)
        #expect(held.stderrLines.first?.contains("not the log that was signed") == true, "\(held.stderr)")
    }

    @Test("each bad input of the evidence commands fails with its own error and writes nothing")
    func badInputsFailClearly() throws {
        let signed = try Signed()
        let runner = signed.runner
        let bundlePath = runner.path("evidence.json")
        #expect(try runner.run(["bundle", signed.stream, "--out", bundlePath]).status == 0)
        let bundle = try runner.read("evidence.json")
        let other = try runner.run(["keygen", "other.example/journal", "--out", runner.path("other.key")], db: false)
        let otherKey = other.stdout.trimmingCharacters(in: .newlines)

        func check(_ text: String, key: String? = nil) throws -> JournalRunner.Result {
            let path = try runner.write("bad.json", text)
            return try runner.run(["check", path, "--key", key ?? signed.verifierKey], db: false)
        }
        // Truncated, a flipped character in a proof, a wrong position, re-ordered events, another key.
        #expect(try check(String(bundle.prefix(bundle.count / 2))).status == 4)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bundle.utf8)) as? [String: Any])
        var events = try #require(object["events"] as? [[String: Any]])
        #expect(events.count >= 2)
        func withEvents(_ changed: [[String: Any]]) throws -> String {
            var copy = object
            copy["events"] = changed
            return String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self)
        }
        var flipped = events
        var proof = try #require(flipped[0]["proof"] as? [String])
        proof[0] = (proof[0].first == "A" ? "B" : "A") + proof[0].dropFirst()
        flipped[0]["proof"] = proof
        #expect(try check(try withEvents(flipped)).stderrLines.first?.contains("events[0]") == true)
        var moved = events
        moved[1]["position"] = (moved[1]["position"] as? Int ?? 0) + 1
        #expect(try check(try withEvents(moved)).status == 4)
        #expect(try check(try withEvents([])).stderrLines.first?.hasSuffix("holds no events") == true)
        events.swapAt(0, 1)
        #expect(try check(try withEvents(events)).status == 4)
        let wrongKey = try check(bundle, key: otherKey)
        #expect(wrongKey.status == 4)
        #expect(wrongKey.stderr.contains("checkpoint"), "\(wrongKey.stderr)")
        #expect(try check(bundle).status == 0)

        // A key file readable by others, or not a key at all, is refused before anything is written.
        let exposed = runner.path("exposed.key")
        try FileManager.default.copyItem(atPath: signed.keyFile, toPath: exposed)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: exposed)
        let before = try runner.run(["checkpoint", "--list", "--format", "json"]).stdout
        let refused = try runner.run(["checkpoint", "--key", exposed])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.first?.contains("can be read by others") == true, "\(refused.stderr)")
        #expect(!refused.stderr.contains(try runner.read("journal.key").trimmingCharacters(in: .newlines)))
        let notAKey = try runner.write("not.key", "hello\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: notAKey)
        #expect(try runner.run(["checkpoint", "--key", notAKey]).status == 1)
        #expect(try runner.run(["checkpoint", "--list", "--format", "json"]).stdout == before)

        // A position past the head, a checkpoint of another journal, an empty journal.
        let past = try runner.run(["prove", "100000"])
        #expect(past.status == 1)
        #expect(past.stderrLines.first?.contains("not in the checkpoint's tree") == true, "\(past.stderr)")
        let foreign = try Signed(seed: 4)
        let mismatch = try runner.run(["prove", "1", "--checkpoint", foreign.checkpointFile])
        #expect(mismatch.status == 4, "\(mismatch.stderr)")
        let empty = try JournalRunner()
        #expect(try empty.run(["import", "-"], stdin: "").status == 0)
        let nothing = try empty.run(["checkpoint", "--key", signed.keyFile])
        #expect(nothing.status == 1)
        #expect(nothing.stderrLines.first?.contains("empty") == true, "\(nothing.stderr)")
        let noCheckpoint = try empty.run(["prove", "1"])
        #expect(noCheckpoint.status == 1)
        // A checkpoint signed by another key fails verify --checkpoint.
        let otherSigned = try runner.run(["verify", "--checkpoint", signed.checkpointFile, "--key", otherKey])
        #expect(otherSigned.status == 4)
    }

    @Test("import --sign and simulate --sign keep a checkpoint after their commit")
    func signingAfterTheCommit() throws {
        let runner = try JournalRunner()
        let key = runner.path("j.key")
        #expect(try runner.run(["keygen", "j.example/log", "--out", key], db: false).status == 0)
        let simulated = try runner.run([
            "simulate", "--seed", "2", "--transactions", "5", "--digitizations", "2",
            "--sign", key, "--format", "json"
        ])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(simulated.stdout.utf8)) as? [String: Any]
        let checkpoint = object?["checkpoint"] as? [String: Any]
        #expect(checkpoint?["size"] as? Int == object?["events"] as? Int)
        var events = LegalEvents()
        let file = try runner.ndjson("more.ndjson", events.frictionless(1))
        let imported = try runner.run(["import", file, "--sign", key])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdoutLines.last?.hasPrefix("signed checkpoint: ") == true)
        let list = try runner.run(["checkpoint", "--list", "--format", "json"])
        let kept = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["checkpoints"]
        #expect((kept as? [Any])?.count == 2)
    }
}
