import EventStore
import JournalApp

/// `journal checkpoint --key FILE | --list`: sign the journal's tree head as a C2SP
/// tlog-checkpoint and keep it, or list the kept ones (spec §6).
enum CheckpointCommand {
    static let spec = CommandSpec(
        name: "checkpoint",
        summary: "sign the journal's Merkle tree head (C2SP tlog-checkpoint) and keep it; --list shows them",
        options: [
            EvidenceFiles.signingKeyOption,
            OptionSpec(name: "list", value: .flag, help: "list the checkpoints the journal keeps (size, root, when)"),
            OptionSpec(
                name: "latest", value: .flag,
                help: "print the latest kept checkpoint exactly as signed (a file for --checkpoint)"),
            OptionSpec(
                name: "out", value: .text(placeholder: "FILE"), help: "with --latest: write it to FILE (mode 0600)")
        ],
        details: """
            Signs the journal's current head, the root of the RFC 6962 Merkle tree over every
            event's export line, with the Ed25519 key of --key FILE (or $JOURNAL_SIGNING_KEY),
            keeps the signed checkpoint in the journal, and prints it: the note text
            (origin = the key's name, tree size, base64 root), a blank line and the signature
            line. Hand it to whoever must hold the journal to its word: 'journal verify
            --checkpoint' later proves the journal is that log or an append-only extension of
            it, and 'journal prove' and 'journal bundle' prove events against it.

            --list prints the kept checkpoints, oldest first, with the witnesses that cosigned
            each ('journal cosign'). --latest prints the latest kept checkpoint exactly as it was
            signed (the note, its signature lines and cosignatures, one final line feed), or
            writes it to --out FILE: what 'verify --checkpoint', 'prove --checkpoint' and
            'check --checkpoint' take. With no checkpoint kept it exits 1.
            """,
        examples: [
            "journal checkpoint --key journal.key > checkpoint-2026-12-01.txt",
            "journal checkpoint --list --format json",
            "journal checkpoint --latest --out checkpoint.txt"
        ],
        validate: { arguments throws(CLIError) in
            let modes = [arguments.string("key") != nil, arguments.flag("list"), arguments.flag("latest")]
            if modes.filter({ $0 }).count > 1 {
                throw CLIError.usage("give one of --key FILE (sign), --list or --latest")
            }
            if arguments.string("out") != nil && !arguments.flag("latest") {
                throw CLIError.usage("--out FILE goes with --latest", hint: "journal checkpoint --latest --out FILE")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if arguments.flag("list") {
            try KeptCheckpointList(JournalAccess.openForReading(context, arguments)).print(arguments.format, context)
            return
        }
        if arguments.flag("latest") {
            let latest = try KeptCheckpoint.latest(in: JournalAccess.openForReading(context, arguments))
            let out = arguments.string("out")
            if out != nil || arguments.format == .text { try context.write(latest.noteFile, toFile: out) }
            if arguments.format == .json { try latest.print(.json, context) }
            return
        }
        guard let signer = try EvidenceFiles.signer(arguments, context) else {
            throw CLIError.usage(
                "'journal checkpoint' needs the signing key: --key FILE or $JOURNAL_SIGNING_KEY",
                hint: "create one with 'journal keygen NAME --out FILE'")
        }
        let store = try JournalAccess.openExistingForWriting(context, arguments)
        let kept = try JournalEvidence.sign(store, with: signer)
        try KeptCheckpoint(kept, origin: signer.name).print(arguments.format, context)
    }
}
