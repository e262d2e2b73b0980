import EventStore
import JournalApp
import JournalCore

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
            try consistency(from: old, arguments, store, context)
            return
        }
        let position = Int64(arguments.positionals[0]) ?? 0
        let signed = try EvidenceCheckpoint.chosen(arguments, store)
        let proof = try JournalEvidence.inclusion(of: position, against: signed, in: store)
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["position"] = .number(JSONNumber(position))
            object["index"] = .number(JSONNumber(position - 1))
            object["leaf"] = .string(String(decoding: proof.extra ?? [], as: UTF8.self))
            object["proof"] = .array(proof.proof.map { .string(Base64.encode($0)) })
            object["checkpoint"] = .string(signed.noteText)
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            context.stdout.write(proof.text)
        }
    }

    private static func consistency(
        from oldPath: String, _ arguments: ParsedArguments, _ store: any EventStore,
        _ context: CommandContext
    ) throws {
        let old = try EvidenceFiles.checkpoint(path: oldPath)
        try EvidenceCheckpoint.requireMatch(old, store, named: TextRendering.printable(oldPath))
        let new = try EvidenceCheckpoint.chosen(arguments, store)
        let (from, to) = (old.checkpoint.size, new.checkpoint.size)
        guard from <= to else {
            throw CLIError(
                .failure, "the old checkpoint (size \(from)) is newer than the new one (size \(to))",
                hint: "give the older checkpoint as --consistency OLD and the newer as --checkpoint NEW")
        }
        let proof = try store.consistencyProof(from: from, to: to)
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["fromSize"] = .number(JSONNumber(from))
            object["toSize"] = .number(JSONNumber(to))
            object["proof"] = .array(proof.map { .string(Base64.encode($0)) })
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            for hash in proof { context.stdout.line(Base64.encode(hash)) }
        }
    }
}
