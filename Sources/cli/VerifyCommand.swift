import EventStore
import JournalApp
import JournalCore

/// `journal verify`: the whole journal's integrity (hash chain, versions, positions).
enum VerifyCommand {
    static let spec = CommandSpec(
        name: "verify",
        summary: "check the whole journal's integrity: hash chain, versions, positions",
        options: [
            ProgressReporter.option,
            OptionSpec(
                name: "checkpoint", value: .text(placeholder: "FILE"),
                help: "also hold the journal to this signed checkpoint (with --key VKEY)"),
            EvidenceFiles.verifierKeyOption,
            WitnessKeys.keyOption,
            WitnessKeys.quorumOption,
            OptionSpec(
                name: "mirror", value: .text(placeholder: "DIR"),
                help: "check a mirror folder 'journal publish' wrote instead (with --key VKEY)")
        ],
        details: """
            Walks every event in position order and recomputes the hash chain; checks that
            positions have no gaps and that each stream's versions count from 0 without gaps, and
            that the journal's stored Merkle tree is the tree of its events (export lines).
            Exit code 0 when the journal is intact, 4 when it is not (the first bad position is
            named on stderr, and in the JSON output).

            --checkpoint FILE --key VKEY also checks that the checkpoint is signed by that key and
            that the journal's Merkle tree at the checkpoint's size has the checkpoint's root: the
            journal is the signed log or an append-only extension of it. A journal rebuilt from
            an edited export, or cut back below the checkpoint's size, fails with exit 4.
            With --witness-key VKEY (repeatable, or a file of keys) and --quorum N, the
            checkpoint must also carry valid cosignatures of at least N of those witnesses.

            --mirror DIR --key VKEY checks a mirror (C2SP tlog-tiles files) against itself instead:
            the checkpoint's signature, every full tile against its hash in the tile above, the
            tiles against the checkpoint's root, and every entry of the entry bundles against its
            leaf hash in the level-0 tiles. With --db given, also that the journal extends the
            mirror (its tree at the mirror's size has the mirror's root). Exit 4 naming the first
            file that does not check.

            Progress (events checked of the journal's events, events/s, time left) is shown on
            stderr when it is a terminal; --progress prints it as a plain line every few seconds
            and a final line.
            """,
        examples: [
            "journal verify --db journal.db", "journal verify --format json",
            "journal verify --progress 2> verify.log",
            "journal verify --checkpoint checkpoint-2026-12-01.txt --key journal.vkey",
            "journal verify --mirror /srv/www/journal --key journal.vkey"
        ],
        validate: { arguments throws(CLIError) in
            if arguments.string("mirror") != nil {
                guard arguments.string("key") != nil, arguments.string("checkpoint") == nil else {
                    throw CLIError.usage(
                        "--mirror DIR takes --key VKEY (and no --checkpoint: the mirror holds its own)",
                        hint: "journal verify --mirror DIR --key VKEY")
                }
            } else if (arguments.string("checkpoint") == nil) != (arguments.string("key") == nil) {
                throw CLIError.usage(
                    "--checkpoint FILE and --key VKEY go together",
                    hint: "the key checks the checkpoint's signature")
            }
            try WitnessKeys.validate(arguments)
            if arguments.integer("quorum") != nil && arguments.string("checkpoint") == nil {
                throw CLIError.usage("--witness-key and --quorum check a --checkpoint FILE")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if let mirror = arguments.string("mirror") { return try verifyMirror(mirror, arguments, context) }
        let store = try JournalAccess.openForReading(context, arguments, checksCuts: false)
        let progress = ProgressReporter.make(
            arguments, context, verb: "verifying", unit: .events,
            total: try? store.headPosition())
        var checked: Int64 = 0
        let result = verify(store) { count in
            checked = count
            progress?.update(done: count, events: count)
        }
        if case let .success(report) = result { checked = report.events }
        progress?.finish(done: checked, events: checked)
        let report: VerifyReport
        switch result {
        case let .success(value):
            report = value
        case let .failure(error) where error.code == .integrity:
            let position = error.position ?? 0
            if arguments.format == .json {
                var line = JSONObject()
                line["ok"] = .bool(false)
                line["firstBadPosition"] = .number(JSONNumber(position))
                line["reason"] = .string(error.message)
                context.stdout.line(JSONWriter.string(.object(line)))
            }
            let message =
                error.message.contains("position \(position)")
                ? error.message : "first bad position \(position): \(error.message)"
            throw CLIError(
                .integrity, message,
                hint: "'journal audit STREAM' marks each event whose hash does not check")
        case let .failure(error):
            throw error
        }
        let held = try heldToCheckpoint(arguments, store)
        switch arguments.format {
        case .json:
            var line = JSONObject()
            line["ok"] = .bool(true)
            if let held {
                var checkpoint = JSONObject()
                checkpoint["origin"] = .string(held.origin)
                checkpoint["size"] = .number(JSONNumber(held.size))
                checkpoint["root"] = .string(Base64.encode(held.root))
                line["checkpoint"] = .object(checkpoint)
            }
            line["events"] = .number(JSONNumber(report.events))
            line["streams"] = .number(JSONNumber(report.streams))
            line["headPosition"] = .number(JSONNumber(report.headPosition))
            line["headHash"] = .string(report.headHash)
            // The head that was verified, as a checkpoint would sign it (a journal of an older
            // version opened read-only has no tree yet).
            if let root = try? store.treeRoot(size: report.headPosition) {
                line["treeSize"] = .number(JSONNumber(report.headPosition))
                line["root"] = .string(Base64.encode(root))
            }
            context.stdout.line(JSONWriter.string(.object(line)))
        case .text:
            let head = report.headHash.isEmpty ? "" : ", head hash \(report.headHash.prefix(16))…"
            context.stdout.line(
                "ok: \(TextRendering.counted(report.events, "event")) in "
                    + "\(TextRendering.counted(report.streams, "stream")) intact "
                    + "(hash chain, positions, versions); head position \(report.headPosition)\(head)")
            if let held {
                context.stdout.line(
                    "ok: the journal is the log \(held.origin) signed at \(held.size) events, "
                        + "or an append-only extension of it")
            }
        }
    }

    /// `--checkpoint FILE --key VKEY`: the checkpoint must be signed by the key (exit 4) and the
    /// journal's tree at its size must have its root (exit 4).
    private static func heldToCheckpoint(_ arguments: ParsedArguments, _ store: any EventStore) throws -> Checkpoint? {
        guard let path = arguments.string("checkpoint") else { return nil }
        let verifiers = try EvidenceFiles.verifiers(arguments)
        let signed = try EvidenceFiles.checkpoint(path: path)
        do {
            try signed.verify(with: verifiers)
        } catch {
            throw CLIError(
                .integrity, "the checkpoint \(TextRendering.printable(path)) is not signed by the given key: \(error)")
        }
        try WitnessKeys.requireQuorum(arguments, on: signed)
        try EvidenceCheckpoint.requireMatch(signed, store, named: TextRendering.printable(path))
        return signed.checkpoint
    }

    private static func verify(_ store: any EventStore, progress: (Int64) -> Void) -> Result<
        VerifyReport, EventStoreError
    > {
        do {
            return .success(try store.verify(progress: progress))
        } catch {
            return .failure(error)
        }
    }

    /// `--mirror DIR --key VKEY [--db PATH]`: the mirror against itself, and the journal (when
    /// `--db` is given) against the mirror.
    private static func verifyMirror(_ directory: String, _ arguments: ParsedArguments, _ context: CommandContext)
        throws
    {
        let verified = try MirrorVerifier.verify(
            MirrorReader(directory: directory), verifiers: try EvidenceFiles.verifiers(arguments))
        let checkpoint = verified.checkpoint.checkpoint
        var journalSize: Int64?
        if arguments.string("db") != nil {
            let store = try JournalAccess.openForReading(context, arguments)
            let size = try store.treeSize()
            guard size >= checkpoint.size, try store.treeRoot(size: checkpoint.size) == checkpoint.root else {
                throw CLIError(
                    .integrity,
                    "the journal does not extend the mirror \(TextRendering.printable(directory)): "
                        + (size < checkpoint.size
                            ? "it has \(size) events, the mirror \(checkpoint.size)"
                            : "its tree at \(checkpoint.size) events has another root"),
                    hint: "'journal verify' checks the journal itself")
            }
            journalSize = size
        }
        switch arguments.format {
        case .json:
            var mirror = JSONObject()
            mirror["origin"] = .string(checkpoint.origin)
            mirror["size"] = .number(JSONNumber(checkpoint.size))
            mirror["root"] = .string(Base64.encode(checkpoint.root))
            mirror["tiles"] = .number(JSONNumber(verified.tiles))
            if let entries = verified.entries { mirror["entries"] = .number(JSONNumber(entries)) }
            var line = JSONObject()
            line["ok"] = .bool(true)
            line["mirror"] = .object(mirror)
            if let journalSize {
                var journal = JSONObject()
                journal["extendsMirror"] = .bool(true)
                journal["treeSize"] = .number(JSONNumber(journalSize))
                line["journal"] = .object(journal)
            }
            context.stdout.line(JSONWriter.string(.object(line)))
        case .text:
            let entries = verified.entries.map { "; \($0) entries hash to the level-0 tiles" } ?? "; no entry bundles"
            context.stdout.line(
                "ok: the mirror \(TextRendering.printable(directory)) holds the tree of \(checkpoint.size) events "
                    + "signed by \(checkpoint.origin): \(verified.tiles) tiles hash to the checkpoint's root\(entries)")
            if let journalSize {
                context.stdout.line(
                    "ok: the journal (\(journalSize) events) is the mirror's log or an append-only extension of it")
            }
        }
    }
}
