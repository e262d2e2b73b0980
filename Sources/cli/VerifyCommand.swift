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
        if let directory = arguments.string("mirror") {
            var mirror = try MirrorVerification(directory: directory, verifiers: EvidenceFiles.verifiers(arguments))
            if arguments.string("db") != nil {
                try mirror.requireExtension(by: JournalAccess.openForReading(context, arguments))
            }
            return try mirror.print(arguments.format, context)
        }
        let store = try JournalAccess.openForReading(context, arguments, checksCuts: false)
        var verification = try JournalVerification(store) { total in
            ProgressReporter.make(arguments, context, verb: "verifying", unit: .events, total: total)
        }
        if verification.failure == nil { verification.heldTo = try heldToCheckpoint(arguments, store) }
        try verification.print(arguments.format, context)
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
}
