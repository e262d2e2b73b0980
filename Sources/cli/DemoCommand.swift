import EventStore
import JournalApp
import JournalCore
import JournalHTTP

/// `journal demo`: the newcomer's tour, on a fresh journal. Each step prints the command a user
/// would type, then runs that very command.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo",
        summary: "tour: fill a fresh journal, then verify, audit, replay and analyse it",
        printsResults: false,
        details: """
            Creates a fresh journal (in a new temporary folder, or at --db PATH, which must not
            exist yet), fills it with 300 simulated 3-D Secure transactions and 150 card
            digitizations ('journal simulate --seed 2026'), imports a small hand-written sample (a
            challenged 3-D Secure transaction, a yellow-flow card digitization activated by OTP,
            a frictionless transaction), then
            shows verify, an audit of the challenged transaction and of the yellow-flow journey,
            a replay, a replay of every stream with its digest, the analytics queries, and the
            evidence: a signing key, a signed checkpoint cosigned by a witness (run in this
            process on a loopback port), an inclusion proof, and a bundle checked with no
            journal, and last the analytics report, one HTML page next to the journal
            ('journal report'). Each step prints the command that produced it, so you can run it
            again yourself.
            """,
        examples: ["journal demo", "journal demo --db /tmp/tour.db"],
        run: run)

    static let transactions = 300
    static let digitizations = 150

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let path = try freshJournalPath(arguments)
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let samplePath = (folder.isEmpty ? "." : folder) + "/demo-sample.ndjson"
        let out = context.stdout

        out.line("journal demo: a tour of the journal on a fresh database")
        out.line("  database: \(path)")

        step(1, "simulate traffic: \(transactions) 3-D Secure transactions, \(digitizations) card digitizations", out)
        try runStep(
            SimulateCommand.spec,
            [
                "--seed", "2026", "--transactions", "\(transactions)",
                "--digitizations", "\(digitizations)"
            ], path: path, context: context)

        try writeSample(to: samplePath)
        step(2, "import a hand-written file: every line is validated, then appended in one transaction", out)
        try runStep(ImportCommand.spec, [samplePath], path: path, context: context)

        step(3, "verify: is anything tampered with? (hash chain, positions, versions)", out)
        try runStep(VerifyCommand.spec, [], path: path, context: context)

        step(4, "audit a challenged 3-D Secure transaction", out)
        try runStep(AuditCommand.spec, [DemoSample.challengedStream], path: path, context: context)

        step(5, "audit a yellow-flow card digitization (ID&V by OTP, one wrong code)", out)
        try runStep(AuditCommand.spec, [DemoSample.yellowStream], path: path, context: context)

        step(6, "replay one transaction event by event", out)
        try runStep(ReplayCommand.spec, [DemoSample.challengedStream], path: path, context: context)

        step(7, "replay every stream: the digest is the same on every run and machine", out)
        try runStep(ReplayCommand.spec, ["--all", "--record", path + ".replay.rec"], path: path, context: context)
        out.line("  (a record of each stream's states; after a rule change, '--against' names what changed:)")
        try runStep(ReplayCommand.spec, ["--all", "--against", path + ".replay.rec"], path: path, context: context)

        step(8, "analytics: OTP entries and their outcomes, from read models kept in the journal", out)
        try runStep(QueryCommand.spec, ["otp"], path: path, context: context)

        step(9, "analytics: challenge timeouts by directory server and last UI type", out)
        try runStep(QueryCommand.spec, ["timeouts"], path: path, context: context)

        try evidence(path: path, context: context)

        step(13, "analytics report: rates, funnel, challenges, errors and digitization in one HTML page", out)
        try runStep(ReportCommand.spec, ["--out", path + ".report.html"], path: path, context: context)

        out.line()
        out.line("Try it yourself:  export JOURNAL_DB=\(path)")
        out.line("                  journal export --stream \(DemoSample.yellowStream)")
        out.line("                  journal state \(DemoSample.challengedStream) --at-version 5")
        out.line("                  journal serve    # the dashboard at http://127.0.0.1:8080/; the HTTP API:")
        out.line("                                   # curl http://127.0.0.1:8080/v1/events?limit=5")
    }

    /// Steps 10–12: a key, a signed checkpoint, a proof, and a bundle checked with no journal.
    /// The key files and the bundle are named after the journal (it is fresh, so they are too).
    private static func evidence(path: String, context: CommandContext) throws {
        let out = context.stdout
        let keyPath = path + ".key"
        let verifierPath = keyPath + ".pub"
        let bundlePath = path + ".evidence.json"

        step(10, "evidence: a signing key, a signed checkpoint of the journal's Merkle tree, a witness", out)
        try runStep(KeygenCommand.spec, ["demo.example/journal", "--out", keyPath], path: nil, context: context)
        out.line("  (the verifier key is also in \(verifierPath); the private key only in \(keyPath))")
        try runStep(CheckpointCommand.spec, ["--key", keyPath], path: path, context: context)
        let witnessKey = try cosign(path: path, verifierPath: verifierPath, context: context)

        let store = try JournalAccess.open(.sqlite(path: path), reading: true, context).get()
        let stream = try StreamName(DemoSample.challengedStream)
        let last = try store.read(stream: stream, from: .max, direction: .backward, limit: 1).first?.position ?? 1
        step(11, "a proof that the challenged transaction's last event is in the signed log (C2SP tlog-proof)", out)
        try runStep(ProveCommand.spec, ["\(last)"], path: path, context: context)

        step(12, "a bundle of that transaction, checked where there is no journal", out)
        try runStep(
            BundleCommand.spec, [DemoSample.challengedStream, "--out", bundlePath], path: path, context: context)
        try runStep(
            CheckCommand.spec,
            [bundlePath, "--key", verifierPath] + (witnessKey.map { ["--witness-key", $0, "--quorum", "1"] } ?? []),
            path: nil, context: context)
        out.line("  ('journal replay --bundle \(bundlePath) --key \(verifierPath)' replays it, as step 6 did)")
    }

    /// Step 10, continued: a witness key, a witness in this process, and `journal cosign`. The
    /// witness's verifier key file, nil when libmicrohttpd is missing (the step is skipped).
    private static func cosign(path: String, verifierPath: String, context: CommandContext) throws -> String? {
        let out = context.stdout
        let keyPath = path + ".witness.key"
        let witnessVerifierPath = keyPath + ".pub"
        let signer = try NoteSigner.generate(name: "witness.demo.example/w1", type: .cosignatureV1)
        let logs = try EvidenceFiles.verifiers(value: verifierPath, option: "logs")
        guard
            let witness = try DemoWitness(
                signer: signer, logs: logs, statePath: path + ".witness.db", now: context.now)
        else {
            out.line("  (no witness step: libmicrohttpd is not installed)")
            return nil
        }
        defer { witness.stop() }
        out.line("$ journal keygen \(signer.name) --out \(keyPath) --witness   # and \(witnessVerifierPath)")
        try EvidenceFiles.createNew(keyPath, signer.privateKeyText + "\n", what: "key file")
        try EvidenceFiles.createNew(
            witnessVerifierPath, signer.verifier.keyText + "\n", what: "verifier key file", permissions: 0o644)
        out.line(
            "$ journal witness --key \(keyPath) --logs \(verifierPath) --state \(path).witness.db "
                + "--listen \(witness.url.dropFirst("http://".count)) &   # here: in this process")
        out.line("  a witness cosigns a checkpoint only if it extends the last one it cosigned for that log")
        try runStep(
            CosignCommand.spec, ["--witness", witness.url, "--witness-key", witnessVerifierPath], path: path,
            context: context)
        return witnessVerifierPath
    }

    /// `--db PATH` when given (it must not exist), else a new temporary folder's `demo.db`.
    private static func freshJournalPath(_ arguments: ParsedArguments) throws(CLIError) -> String {
        if let path = arguments.string("db") {
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

    private static func writeSample(to path: String) throws(CLIError) {
        let sink = try OutputSink.create(path: path)
        sink.write(DemoSample.text)
        try sink.close()
    }

    private static func step(_ number: Int, _ title: String, _ out: OutputSink) {
        out.line()
        let heading = "── \(number). \(title) "
        out.line(heading + String(repeating: "─", count: max(3, 96 - heading.count)))
    }

    /// Prints `$ journal <command> …` and runs it through the parser, as a user would.
    /// `path`: the journal (nil for a command that opens none).
    private static func runStep(
        _ spec: CommandSpec, _ arguments: [String], path: String?,
        context: CommandContext
    ) throws {
        let shown = (["journal", spec.name] + arguments).joined(separator: " ")
        context.stdout.line("$ \(shown)")
        let parsed = try JournalCLI.parser.parse(arguments + (path.map { ["--db", $0] } ?? []), for: spec)
        try spec.run(parsed, context)
    }
}
