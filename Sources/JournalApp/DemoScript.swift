import EventStore
import JournalCore

/// The tour of `journal demo` on a fresh journal: each step prints the command a user would
/// type, then runs that very command through the ``DemoHost``. The files of the tour (the
/// sample, keys, the bundle, the record, the report) are named after the journal: it is fresh,
/// so they are too.
package struct DemoScript {
    package static let transactions = 300
    package static let digitizations = 150

    /// The journal the tour fills.
    package let path: String
    private let host: any DemoHost
    private let context: CommandContext
    private var out: OutputSink { context.stdout }

    package init(path: String, host: any DemoHost, context: CommandContext) {
        self.path = path
        self.host = host
        self.context = context
    }

    /// `given` (`--db PATH`) when there is one, which must not exist, else `demo.db` in a new
    /// temporary folder.
    /// - Throws: exit 1 when `given` exists or is a PostgreSQL URL, or no folder can be made.
    package static func freshJournalPath(_ given: String?) throws(CLIError) -> String {
        if let path = given {
            if JournalBackend(location: path).isPostgres {
                throw CLIError(
                    .failure, "the demo writes a fresh SQLite file; --db is a PostgreSQL URL",
                    hint: "run the demo without --db, then 'journal copy --from FILE --to URL'")
            }
            if (try? FileStatus.of(path)) != nil {
                throw CLIError(
                    .failure, "\(TextRendering.printable(path)) already exists; the demo needs a fresh journal",
                    hint: "pass a path that does not exist yet, or leave out --db for a temporary one")
            }
            return path
        }
        do {
            return try CurrentProcess.makeTemporaryDirectory(prefix: "/tmp/journal-demo-") + "/demo.db"
        } catch {
            throw CLIError(.failure, "cannot create a temporary folder: \(error)")
        }
    }

    /// Runs the whole tour.
    package func run() throws {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let samplePath = (folder.isEmpty ? "." : folder) + "/demo-sample.ndjson"
        let (transactions, digitizations) = (Self.transactions, Self.digitizations)
        out.line("journal demo: a tour of the journal on a fresh database")
        out.line("  database: \(path)")

        step(1, "simulate traffic: \(transactions) 3-D Secure transactions, \(digitizations) card digitizations")
        try command(
            "simulate",
            ["--seed", "2026", "--transactions", "\(transactions)", "--digitizations", "\(digitizations)"])

        let sample = try OutputSink.create(path: samplePath)
        sample.write(DemoSample.text)
        try sample.close()
        step(2, "import a hand-written file: every line is validated, then appended in one transaction")
        try command("import", [samplePath])

        step(3, "verify: is anything tampered with? (hash chain, positions, versions)")
        try command("verify", [])

        step(4, "audit a challenged 3-D Secure transaction")
        try command("audit", [DemoSample.challengedStream])

        step(5, "audit a yellow-flow card digitization (ID&V by OTP, one wrong code)")
        try command("audit", [DemoSample.yellowStream])

        step(6, "replay one transaction event by event")
        try command("replay", [DemoSample.challengedStream])

        step(7, "replay every stream: the digest is the same on every run and machine")
        try command("replay", ["--all", "--record", path + ".replay.rec"])
        out.line("  (a record of each stream's states; after a rule change, '--against' names what changed:)")
        try command("replay", ["--all", "--against", path + ".replay.rec"])

        step(8, "analytics: OTP entries and their outcomes, from read models kept in the journal")
        try command("query", ["otp"])

        step(9, "analytics: challenge timeouts by directory server and last UI type")
        try command("query", ["timeouts"])

        try evidence()

        step(13, "analytics report: rates, funnel, challenges, errors and digitization in one HTML page")
        try command("report", ["--out", path + ".report.html"])

        out.line()
        out.line("Try it yourself:  export JOURNAL_DB=\(path)")
        out.line("                  journal export --stream \(DemoSample.yellowStream)")
        out.line("                  journal state \(DemoSample.challengedStream) --at-version 5")
        out.line("                  journal serve    # the dashboard at http://127.0.0.1:8080/; the HTTP API:")
        out.line("                                   # curl http://127.0.0.1:8080/v1/events?limit=5")
    }

    /// Steps 10–12: a key, a signed checkpoint, a proof, and a bundle checked with no journal.
    private func evidence() throws {
        let keyPath = path + ".key"
        let verifierPath = keyPath + ".pub"
        let bundlePath = path + ".evidence.json"

        step(10, "evidence: a signing key, a signed checkpoint of the journal's Merkle tree, a witness")
        try command("keygen", ["demo.example/journal", "--out", keyPath], opensJournal: false)
        out.line("  (the verifier key is also in \(verifierPath); the private key only in \(keyPath))")
        try command("checkpoint", ["--key", keyPath])
        let witnessKey = try cosign(verifierPath: verifierPath)

        let store = try JournalAccess.open(.sqlite(path: path), reading: true, context).get()
        let stream = try StreamName(DemoSample.challengedStream)
        let last = try store.read(stream: stream, from: .max, direction: .backward, limit: 1).first?.position ?? 1
        step(11, "a proof that the challenged transaction's last event is in the signed log (C2SP tlog-proof)")
        try command("prove", ["\(last)"])

        step(12, "a bundle of that transaction, checked where there is no journal")
        try command("bundle", [DemoSample.challengedStream, "--out", bundlePath])
        try command(
            "check",
            [bundlePath, "--key", verifierPath] + (witnessKey.map { ["--witness-key", $0, "--quorum", "1"] } ?? []),
            opensJournal: false)
        out.line("  ('journal replay --bundle \(bundlePath) --key \(verifierPath)' replays it, as step 6 did)")
    }

    /// Step 10, continued: a witness key, a witness in this process, and `journal cosign`. The
    /// witness's verifier key file, nil when there is no witness (the step is skipped).
    private func cosign(verifierPath: String) throws -> String? {
        let keyPath = path + ".witness.key"
        let witnessVerifierPath = keyPath + ".pub"
        let signer = try NoteSigner.generate(name: "witness.demo.example/w1", type: .cosignatureV1)
        let logs = try host.verifiers(file: verifierPath)
        guard let witness = try host.startWitness(signer: signer, logs: logs, statePath: path + ".witness.db") else {
            out.line("  (no witness step: libmicrohttpd is not installed)")
            return nil
        }
        defer { witness.stop() }
        out.line("$ journal keygen \(signer.name) --out \(keyPath) --witness   # and \(witnessVerifierPath)")
        try host.createKeyFile(keyPath, signer.privateKeyText + "\n", what: "key file", permissions: 0o600)
        try host.createKeyFile(
            witnessVerifierPath, signer.verifier.keyText + "\n", what: "verifier key file", permissions: 0o644)
        out.line(
            "$ journal witness --key \(keyPath) --logs \(verifierPath) --state \(path).witness.db "
                + "--listen \(witness.url.dropFirst("http://".count)) &   # here: in this process")
        out.line("  a witness cosigns a checkpoint only if it extends the last one it cosigned for that log")
        try command("cosign", ["--witness", witness.url, "--witness-key", witnessVerifierPath])
        return witnessVerifierPath
    }

    private func step(_ number: Int, _ title: String) {
        out.line()
        let heading = "── \(number). \(title) "
        out.line(heading + String(repeating: "─", count: max(3, 96 - heading.count)))
    }

    /// Prints `$ journal <command> …` and runs it, on the tour's journal unless the command
    /// opens none.
    private func command(_ name: String, _ arguments: [String], opensJournal: Bool = true) throws {
        out.line("$ \((["journal", name] + arguments).joined(separator: " "))")
        try host.run(name, arguments, journal: opensJournal ? path : nil)
    }
}
