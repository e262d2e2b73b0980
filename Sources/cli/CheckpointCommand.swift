import EventStore
import JournalApp
import JournalCore

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
            try list(arguments, context)
            return
        }
        if arguments.flag("latest") {
            try latest(arguments, context)
            return
        }
        guard let signer = try EvidenceFiles.signer(arguments, context) else {
            throw CLIError.usage(
                "'journal checkpoint' needs the signing key: --key FILE or $JOURNAL_SIGNING_KEY",
                hint: "create one with 'journal keygen NAME --out FILE'")
        }
        let store = try JournalAccess.openExistingForWriting(context, arguments)
        let kept = try JournalEvidence.sign(store, with: signer)
        print(kept, origin: signer.name, format: arguments.format, context)
    }

    static func print(_ kept: StoredCheckpoint, origin: String, format: OutputFormat, _ context: CommandContext) {
        switch format {
        case .json:
            context.stdout.line(JSONWriter.string(.object(JournalEvidence.checkpointJSON(kept, origin: origin))))
        case .text:
            context.stdout.write(kept.note)
        }
    }

    /// The line `import --sign` and `simulate --sign` print after their summary.
    static func printSigned(_ kept: StoredCheckpoint, _ context: CommandContext) {
        context.stdout.line(
            "signed checkpoint: \(kept.size) events, root \(Base64.encode(kept.root)) "
                + "('journal checkpoint --list' shows it)")
    }

    /// `--latest [--out FILE]`: the latest kept checkpoint as signed, ending in one line feed.
    private static func latest(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        guard let kept = try store.checkpoints().last else {
            throw CLIError(
                .failure, "the journal keeps no checkpoint",
                hint: "sign one with 'journal checkpoint --key FILE'")
        }
        var note = kept.note
        while note.hasSuffix("\n\n") { note.removeLast() }
        if !note.hasSuffix("\n") { note += "\n" }
        if let path = arguments.string("out") {
            let sink = try OutputSink.create(path: path)
            sink.write(note)
            try sink.close()
        } else if arguments.format == .text {
            context.stdout.write(note)
        }
        if arguments.format == .json {
            let origin = (try? SignedCheckpoint(parsing: kept.note).checkpoint.origin) ?? "?"
            context.stdout.line(JSONWriter.string(.object(JournalEvidence.checkpointJSON(kept, origin: origin))))
        }
    }

    private static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let kept = try store.checkpoints()
        let origin: (StoredCheckpoint) -> String = { checkpoint in
            (try? SignedCheckpoint(parsing: checkpoint.note).checkpoint.origin) ?? "?"
        }
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["checkpoints"] = .array(
                kept.map { checkpoint in
                    var entry = JournalEvidence.checkpointJSON(checkpoint, origin: origin(checkpoint))
                    entry["signedAt"] = .string(checkpoint.signedAt.description)
                    entry["cosignedBy"] = .array(checkpoint.cosignatures.map { .string($0.witnessName) })
                    return .object(entry)
                })
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            guard !kept.isEmpty else {
                context.stdout.line("no checkpoints kept; sign one with 'journal checkpoint --key FILE'")
                return
            }
            var rows = [["size", "root", "signedAt", "origin", "cosignedBy"]]
            for checkpoint in kept {
                let cosigners = checkpoint.cosignatures.map(\.witnessName).joined(separator: ", ")
                rows.append([
                    "\(checkpoint.size)", Base64.encode(checkpoint.root), checkpoint.signedAt.description,
                    origin(checkpoint), cosigners.isEmpty ? "-" : cosigners
                ])
            }
            for line in TextRendering.table(rows, rightAligned: [0]) { context.stdout.line(line) }
        }
    }
}
