import JournalApp

/// `journal prove POSITION [--checkpoint FILE]` and `journal prove --consistency OLD [--checkpoint
/// NEW]`: RFC 6962 proofs in the C2SP formats (spec §6).
enum ProveCommand {
    static let spec = CommandSpec(
        name: "prove",
        summary: "an inclusion proof of one event (C2SP tlog-proof), or a consistency proof between checkpoints",
        positionals: [
            PositionalSpec(
                name: "POSITION", help: "the event's position (not with --consistency)",
                isRequired: false)
        ],
        options: [
            EvidenceCheckpoint.option,
            OptionSpec(
                name: "consistency", value: .text(placeholder: "OLD"),
                help: "prove that the checkpoint --checkpoint (or the latest) extends the older checkpoint OLD")
        ],
        details: """
            POSITION: prints a C2SP tlog-proof: the header line, 'extra' with the event's leaf
            line (its export line) in base64, 'index' (position − 1), the inclusion proof (one
            base64 SHA-256 per line, the leaf's sibling first), a blank line and the signed
            checkpoint. Anyone holding the signer's verifier key can check it without the
            journal (Go's sumdb/tlog CheckRecord accepts it).

            --consistency OLD: prints the RFC 6962 consistency proof from the tree of the
            checkpoint file OLD to the tree of --checkpoint NEW (or the latest kept), one base64
            hash per line: the newer log contains the older one unchanged (sumdb/tlog CheckTree).

            Each checkpoint must match the journal (exit 4 otherwise): its size within the
            journal and its root the journal's root at that size.
            """,
        examples: [
            "journal prove 2507 > proof.txt",
            "journal prove 2507 --checkpoint checkpoint-2026-12-01.txt",
            "journal prove --consistency checkpoint-2026-11-30.txt --format json"
        ],
        validate: { arguments throws(CLIError) in
            let position = arguments.positionals.first
            switch (position, arguments.string("consistency")) {
            case (nil, nil):
                throw CLIError.usage("give a POSITION, or --consistency OLD", hint: "run 'journal prove --help'")
            case (.some, .some): throw CLIError.usage("give a POSITION or --consistency OLD, not both")
            case let (.some(text), nil):
                guard let value = Int64(text), value >= 1 else {
                    throw CLIError.usage("POSITION is a position ≥ 1, not '\(TextRendering.printable(text))'")
                }
            case (nil, .some): break
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        if let old = arguments.string("consistency") {
            try ConsistencyProofReport(from: old, arguments, store).print(arguments.format, context)
        } else {
            let position = Int64(arguments.positionals[0]) ?? 0
            try InclusionProofReport(position: position, arguments, store).print(arguments.format, context)
        }
    }
}
