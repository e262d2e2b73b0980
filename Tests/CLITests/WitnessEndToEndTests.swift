import EventStore
import Foundation
import Synchronization
import Testing

/// Spec §11 through the built executable: `journal witness` over HTTP, `journal cosign`,
/// cosignatures carried by checkpoints, proofs and bundles, quorum checks offline, a fork
/// refused, and `serve --cosign-with`.
@Suite("journal witness and cosign (end to end)")
struct WitnessEndToEndTests {
    /// A log key and two witness keys made with `journal keygen`, and the witnesses' logs file.
    final class Keys {
        let runner: JournalRunner
        let logKeyFile: String
        let logVerifier: String
        let witnessKeyFiles: [String]
        let witnessVerifiers: [String]
        let logsFile: String

        init(_ runner: JournalRunner) throws {
            self.runner = runner
            logKeyFile = runner.path("journal.key")
            let log = try runner.run(["keygen", "payments.example/journal", "--out", logKeyFile], db: false)
            guard log.status == 0 else { throw FixtureError(message: log.stderr) }
            logVerifier = log.stdout.trimmingCharacters(in: .newlines)
            var files: [String] = []
            var verifiers: [String] = []
            for n in 1...2 {
                let file = runner.path("w\(n).key")
                let made = try runner.run(["keygen", "witness.example/w\(n)", "--out", file, "--witness"], db: false)
                guard made.status == 0 else { throw FixtureError(message: made.stderr) }
                files.append(file)
                verifiers.append(made.stdout.trimmingCharacters(in: .newlines))
            }
            witnessKeyFiles = files
            witnessVerifiers = verifiers
            logsFile = try runner.write("logs.txt", logVerifier + "\n")
        }

        func witness(_ n: Int, state: String? = nil, extra: [String] = []) throws -> ServeProcess {
            try ServeProcess(
                runner,
                [
                    "--key", witnessKeyFiles[n], "--logs", logsFile, "--state",
                    state ?? runner.path("w\(n + 1).db")
                ] + extra, command: "witness")
        }

        var logSigner: NoteSigner {
            get throws { try NoteSigner(parsing: try String(contentsOfFile: logKeyFile, encoding: .utf8)) }
        }
    }

    /// An add-checkpoint body for the first `size` leaves of `tree`, signed by `signer`.
    static func body(_ tree: MerkleTree, old: Int64, size: Int64, signer: NoteSigner) throws -> String {
        let proof = old > 0 && old < size ? try tree.consistencyProof(oldSize: old, newSize: size) : []
        let checkpoint = try SignedCheckpoint(
            signing: Checkpoint(origin: signer.name, size: size, root: try tree.root(size: size)), with: signer)
        return AddCheckpointRequest(oldSize: old, proof: proof, checkpoint: checkpoint).body
    }

    static func tree(_ size: Int, _ prefix: String = "leaf") -> MerkleTree {
        MerkleTree(leafLines: (0..<size).map { Array("\(prefix) \($0)".utf8) })
    }

    @Test("journal witness answers POST /add-checkpoint with 200, 400, 403, 404, 409 (text/x.tlog.size) and 422")
    func witnessStatuses() throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let witness = try keys.witness(0)
        let signer = try keys.logSigner
        let tree = Self.tree(30)
        func post(_ body: String) throws -> RawHTTP.Reply {
            try witness.request("POST", "/add-checkpoint", body: body)
        }
        let first = try post(try Self.body(tree, old: 0, size: 10, signer: signer))
        #expect(first.status == 200)
        #expect(first.body.hasPrefix("— witness.example/w1 ") && first.body.hasSuffix("\n"))
        let line = try NoteSignature(parsingLine: String(first.body.dropLast()))
        let witnessKey = try NoteVerifier(parsing: keys.witnessVerifiers[0])
        let checkpoint = try AddCheckpointRequest(
            parsing: Array(try Self.body(tree, old: 0, size: 10, signer: signer).utf8)
        ).checkpoint
        #expect(checkpoint.adding(cosignatures: [line]).note.cosigners(among: [witnessKey]) == [witnessKey])

        let stale = try post(try Self.body(tree, old: 0, size: 20, signer: signer))
        #expect(stale.status == 409)
        #expect(stale.headers["content-type"] == "text/x.tlog.size")
        #expect(stale.body == "10\n")
        #expect(try post("old 1\nnot a checkpoint\n").status == 400)
        #expect(try post(try Self.body(tree, old: 25, size: 20, signer: signer)).status == 400)
        let stranger = try NoteSigner(name: signer.name, privateKey: try Ed25519.PrivateKey.generate())
        #expect(try post(try Self.body(tree, old: 10, size: 20, signer: stranger)).status == 403)
        let other = try NoteSigner(name: "other.example/log", privateKey: try Ed25519.PrivateKey.generate())
        #expect(try post(try Self.body(tree, old: 0, size: 20, signer: other)).status == 404)
        let fork = Self.tree(30, "forged")
        #expect(try post(try Self.body(fork, old: 10, size: 10, signer: signer)).status == 422)
        #expect(try post(try Self.body(fork, old: 10, size: 20, signer: signer)).status == 422)
        #expect(try post(try Self.body(tree, old: 10, size: 20, signer: signer)).status == 200)
        #expect(try witness.request("GET", "/add-checkpoint").status == 405)
        #expect(try witness.request("GET", "/nowhere").status == 404)
        let huge = String(repeating: "x", count: 70 * 1024)
        #expect(try post(huge).status == 413)
        #expect(witness.stop() == 0)
        #expect(witness.log.contains(#""route":"/add-checkpoint","status":422"#))
    }

    @Test("a witness killed with SIGKILL right after a 200 still holds that checkpoint when it restarts")
    func stateSurvivesSIGKILL() throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let signer = try keys.logSigner
        let tree = Self.tree(40)
        let first = try keys.witness(0)
        #expect(
            try first.request("POST", "/add-checkpoint", body: try Self.body(tree, old: 0, size: 17, signer: signer))
                .status == 200)
        first.stop(SIGKILL)
        let mode = try FileManager.default.attributesOfItem(atPath: runner.path("w1.db"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let second = try keys.witness(0)
        let stale = try second.request(
            "POST", "/add-checkpoint", body: try Self.body(tree, old: 0, size: 40, signer: signer))
        #expect(stale.status == 409 && stale.body == "17\n")
        #expect(
            try second.request(
                "POST", "/add-checkpoint", body: try Self.body(tree, old: 17, size: 40, signer: signer)
            ).status == 200)
    }

    @Test("two submitters of the same origin at once over HTTP: one 200, one 409 naming the winner's size")
    func concurrentSubmitters() throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let witness = try keys.witness(0)
        let signer = try keys.logSigner
        let tree = Self.tree(64)
        #expect(
            try witness.request("POST", "/add-checkpoint", body: try Self.body(tree, old: 0, size: 8, signer: signer))
                .status == 200)
        for round in 0..<5 {
            let old = Int64(8 + round * 10)
            let bodies = [
                try Self.body(tree, old: old, size: old + 5, signer: signer),
                try Self.body(tree, old: old, size: old + 10, signer: signer)
            ]
            let replies = Mutex<[RawHTTP.Reply?]>([nil, nil])
            let port = witness.port
            DispatchQueue.concurrentPerform(iterations: 2) { n in
                let reply = try? RawHTTP.request(port: port, "POST", "/add-checkpoint", body: Array(bodies[n].utf8))
                replies.withLock { $0[n] = reply }
            }
            let statuses = replies.withLock { $0.map { $0?.status ?? 0 } }
            #expect(statuses.sorted() == [200, 409], "round \(round)")
            let loser = replies.withLock { $0.first { $0?.status == 409 } }
            let held = Int64(loser??.body.trimmingCharacters(in: .newlines) ?? "") ?? -1
            #expect(held == old + 5 || held == old + 10)
            // Whatever won, the state now holds its size; bring it to old + 10 for the next round.
            if held == old + 5 {
                #expect(
                    try witness.request(
                        "POST", "/add-checkpoint", body: try Self.body(tree, old: held, size: old + 10, signer: signer)
                    )
                    .status == 200)
            }
        }
    }

    @Test("with --tokens a witness needs an append or admin token; beyond loopback it needs --tokens")
    func witnessTokens() throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let tokens = runner.path("tokens.txt")
        let append = try runner.run(["token", "append", "log", "--tokens", tokens], db: false).stdout
            .trimmingCharacters(in: .newlines)
        let read = try runner.run(["token", "read", "auditor", "--tokens", tokens], db: false).stdout
            .trimmingCharacters(in: .newlines)
        let witness = try keys.witness(0, extra: ["--tokens", tokens])
        let body = try Self.body(Self.tree(5), old: 0, size: 5, signer: try keys.logSigner)
        #expect(try witness.request("POST", "/add-checkpoint", body: body).status == 401)
        #expect(
            try witness.request(
                "POST", "/add-checkpoint", headers: ["Authorization": "Bearer \(read)"], body: body
            ).status == 403)
        #expect(
            try witness.request(
                "POST", "/add-checkpoint", headers: ["Authorization": "Bearer \(append)"], body: body
            ).status == 200)
        let open = try runner.run(
            [
                "witness", "--key", keys.witnessKeyFiles[0], "--logs", keys.logsFile, "--state", runner.path("x.db"),
                "--listen", "0.0.0.0:0"
            ], db: false)
        #expect(open.status == 2)
    }

    /// Two witnesses, a journal cosigned after each of three imports, a bundle checked offline
    /// with --quorum 2, then a fork of the journal (same key, another history) both refuse.
    func endToEnd(db: String, forkDB: String) throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let witnesses = [try keys.witness(0), try keys.witness(1)]
        let cosign =
            ["cosign", "--key", keys.logKeyFile]
            + zip(witnesses, keys.witnessVerifiers).flatMap { ["--witness", $0.url, "--witness-key", $1] }
        var events = LegalEvents()
        let all = events.events(atLeast: 60)
        let third = all.count / 3
        for round in 0..<3 {
            let batch = Array(all[(round * third)..<(round == 2 ? all.count : (round + 1) * third)])
            let file = try runner.ndjson("batch\(round).ndjson", batch)
            let imported = try runner.run(["import", file, "--db", db], db: false)
            #expect(imported.status == 0, "\(imported.stderr)")
            let cosigned = try runner.run(cosign + ["--db", db], db: false)
            #expect(cosigned.status == 0, "\(cosigned.stderr)")
            let lines = cosigned.stdoutLines
            #expect(lines.filter { $0.hasPrefix("— witness.example/w") }.count == 2)
            #expect(lines.firstIndex { $0.hasPrefix("— payments.example/journal ") }! < lines.count - 2)
        }
        // The sizes known per witness were kept: no round needed a 409.
        for witness in witnesses { #expect(!witness.log.contains(#""status":409"#), "\(witness.log)") }
        let list = try runner.run(["checkpoint", "--list", "--db", db], db: false)
        #expect(list.stdoutLines.count == 4)
        #expect(list.stdoutLines.dropFirst().allSatisfy { $0.hasSuffix("witness.example/w1, witness.example/w2") })
        let listJSON = try runner.run(["checkpoint", "--list", "--format", "json", "--db", db], db: false)
        #expect(listJSON.stdout.contains(#""cosignedBy":["witness.example/w1","witness.example/w2"]"#))

        // The proof and the bundle carry the cosignatures; the bundle checks offline with a quorum.
        let firstEvent = try JSONSerialization.jsonObject(with: Data(all[0].utf8)) as? [String: Any]
        let stream = try #require(firstEvent?["stream"] as? String)
        let proof = try runner.run(["prove", "1", "--db", db], db: false)
        #expect(proof.stdoutLines.filter { $0.hasPrefix("— witness.example/") }.count == 2)
        let bundle = runner.path("bundle.json")
        #expect(try runner.run(["bundle", stream, "--out", bundle, "--db", db], db: false).status == 0)
        let witnessKeys = try runner.write("witnesses.vkeys", keys.witnessVerifiers.joined(separator: "\n") + "\n")
        let check = try runner.run(
            ["check", bundle, "--key", keys.logVerifier, "--witness-key", witnessKeys, "--quorum", "2"], db: false)
        #expect(check.status == 0, "\(check.stderr)")
        let replay = try runner.run(
            [
                "replay", "--bundle", bundle, "--key", keys.logVerifier, "--witness-key", keys.witnessVerifiers[0],
                "--witness-key", keys.witnessVerifiers[1], "--quorum", "2"
            ], db: false)
        #expect(replay.status == 0, "\(replay.stderr)")
        // A witness that did not cosign does not count.
        let stranger = try runner.run(
            ["keygen", "witness.example/w3", "--out", runner.path("w3.key"), "--witness"], db: false)
        let short = try runner.run(
            [
                "check", bundle, "--key", keys.logVerifier, "--witness-key", keys.witnessVerifiers[0],
                "--witness-key", stranger.stdout.trimmingCharacters(in: .newlines), "--quorum", "2"
            ], db: false)
        #expect(short.status == 4)
        #expect(short.stderr.contains("valid cosignatures of 1 of the 2 witnesses given (witness.example/w1)"))
        // verify --checkpoint holds the journal to the cosigned checkpoint, with the quorum.
        let latest = try runner.write(
            "latest.txt",
            try runner.run(["prove", "1", "--db", db], db: false).stdout
                .components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n"))
        let verify = try runner.run(
            [
                "verify", "--checkpoint", latest, "--key", keys.logVerifier, "--witness-key", witnessKeys,
                "--quorum", "2", "--db", db
            ], db: false)
        #expect(verify.status == 0, "\(verify.stderr)")

        // A fork: the same origin and key, another history. Both witnesses refuse it, and the
        // journal keeps no cosignature for it.
        let simulated = try runner.run(["simulate", "--seed", "9", "--transactions", "20", "--db", forkDB], db: false)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let forked = try runner.run(cosign + ["--db", forkDB], db: false)
        #expect(forked.status == 1)
        #expect(forked.stderr.contains("witness witness.example/w1"))
        #expect(forked.stderr.contains("witness witness.example/w2"))
        #expect(forked.stderr.contains("2 of 2 witnesses did not cosign"))
        #expect(!forked.stdout.contains("— witness.example/"))
        let forkList = try runner.run(["checkpoint", "--list", "--format", "json", "--db", forkDB], db: false)
        #expect(forkList.stdout.contains(#""cosignedBy":[]"#))
        for witness in witnesses { #expect(witness.log.contains(#""status":422"#)) }
    }

    @Test("two witnesses cosign three imports, a bundle checks with --quorum 2 offline, a fork is refused (SQLite)")
    func endToEndSQLite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cosign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try endToEnd(db: folder.appendingPathComponent("j.db").path, forkDB: folder.appendingPathComponent("f.db").path)
    }

    @Test(
        "two witnesses cosign three imports, a bundle checks with --quorum 2 offline, a fork is refused (PostgreSQL)",
        .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
    func endToEndPostgres() throws {
        try endToEnd(db: try PostgresCLIServer.freshURL(), forkDB: try PostgresCLIServer.freshURL())
    }

    @Test("a journal that forgot the size a witness holds resyncs after one 409; a failing witness is named, exit 1")
    func resyncAndPartialFailure() throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let witness = try keys.witness(0)
        _ = try runner.run(["simulate", "--seed", "4", "--transactions", "5"])
        let args = [
            "cosign", "--key", keys.logKeyFile, "--witness", witness.url, "--witness-key", keys.witnessVerifiers[0]
        ]
        // A copy of the journal made before it met the witness knows no size the witness holds.
        let copy = runner.path("copy.db")
        try FileManager.default.copyItem(atPath: runner.database, toPath: copy)
        #expect(try runner.run(args).status == 0)
        #expect(!witness.log.contains(#""status":409"#))
        let again = try runner.run(args + ["--db", copy], db: false)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(witness.log.contains(#""status":409"#))
        #expect(again.stdout.contains("— witness.example/w1 "))
        // A witness that is down: named, exit 1, the other's cosignature kept.
        _ = try runner.run(["simulate", "--seed", "5", "--transactions", "3", "--into-existing"])
        let partial = try runner.run(
            args + ["--witness", "http://127.0.0.1:1", "--witness-key", keys.witnessVerifiers[1]])
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("witness witness.example/w2 (http://127.0.0.1:1)"))
        #expect(partial.stdout.contains("— witness.example/w1 "))
        let list = try runner.run(["checkpoint", "--list"])
        #expect(list.stdoutLines.last?.hasSuffix("witness.example/w1") == true)
        // A witness key does not sign the journal's checkpoints, nor a log key cosign.
        let asLog = try runner.run(["checkpoint", "--key", keys.witnessKeyFiles[0]])
        #expect(asLog.status == 1 && asLog.stderr.contains("cosigns but does not sign a log"))
        #expect(try runner.run(["serve", "--key", keys.witnessKeyFiles[0], "--checkpoint-every", "5"]).status == 1)
        let asWitness = try runner.run(
            ["witness", "--key", keys.logKeyFile, "--logs", keys.logsFile, "--state", runner.path("s.db")], db: false)
        #expect(asWitness.status == 1 && asWitness.stderr.contains("not a witness key"))
        // Usage: a URL without its key.
        #expect(try runner.run(["cosign", "--witness", witness.url]).status == 2)
        #expect(try runner.run(["check", "x.json", "--key", keys.logVerifier, "--quorum", "1"], db: false).status == 2)
    }

    @Test("serve --cosign-with signs while events arrive and GET /v1/checkpoint carries the cosignature")
    func serveCosignsWhileEventsArrive() throws {
        let runner = try JournalRunner()
        let keys = try Keys(runner)
        let witness = try keys.witness(0)
        let policy = try runner.write(
            "witnesses.txt", "# the witnesses of this journal\n\(witness.url) \(keys.witnessVerifiers[0])\n")
        _ = try runner.run(["import", "/dev/null"])
        let serve = try ServeProcess(
            runner, ["--key", keys.logKeyFile, "--cosign-with", policy, "--checkpoint-every", "1"])
        var events = LegalEvents()
        #expect(try serve.append(events.events(atLeast: 10)).status == 200)
        var checkpoint = ""
        for _ in 0..<100 {
            let reply = try serve.request("GET", "/v1/checkpoint")
            if reply.status == 200 && reply.body.contains("— witness.example/w1 ") {
                checkpoint = reply.body
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(checkpoint.contains("— payments.example/journal "), "\(serve.log)")
        #expect(checkpoint.contains("— witness.example/w1 "))
        #expect(serve.stop() == 0)
        #expect(serve.log.contains(#""event":"checkpoint""#))
        #expect(serve.log.contains(#""cosignedBy":["witness.example/w1"]"#))
        // A policy line that is not 'URL KEY' is refused before the journal is served.
        let bad = try runner.write("bad.txt", "http://127.0.0.1:1\n")
        let refused = try runner.run(["serve", "--key", keys.logKeyFile, "--cosign-with", bad])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("line 1"))
    }
}
