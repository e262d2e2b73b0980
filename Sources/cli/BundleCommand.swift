import EventStore
import JournalApp

/// `journal bundle STREAM [--checkpoint FILE] [--out FILE]`: one JSON document that lets anyone
/// check and replay a stream without the journal (spec §6).
enum BundleCommand {
    static let spec = CommandSpec(
        name: "bundle",
        summary: "a stream's events with inclusion proofs and a signed checkpoint, checkable anywhere",
        positionals: [PositionalSpec(name: "STREAM", help: "the stream to bundle", isRequired: true)],
        options: [
            EvidenceCheckpoint.option,
            OptionSpec(
                name: "out", value: .text(placeholder: "FILE"), help: "write the bundle to FILE (default: stdout)")
        ],
        printsResults: false,
        details: """
            Writes {"format": "journal-bundle/1", "stream", "checkpoint", "events": [{"position",
            "leaf", "proof"}, …]}: the stream's events up to the checkpoint's tree size, in
            version order, each with its leaf line (its export line) and its RFC 6962 inclusion
            proof, and the signed checkpoint they are proven against (--checkpoint FILE, else
            the latest the journal keeps). 'journal check FILE --key VKEY' verifies it and
            'journal replay --bundle FILE --key VKEY' replays it, with no journal at hand.

            A bundle proves that its events are in the signed log; it does not prove that the
            stream has no later events.
            """,
        examples: [
            "journal bundle 3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b --out evidence.json",
            "journal bundle card-53955dd4-51bd-4d17-b5d6-d3a82fb8ac08 --checkpoint checkpoint.txt"
        ],
        validate: { arguments throws(CLIError) in try StreamArgument.check(arguments.positionals[0]) },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let stream = try StreamArgument.existing(arguments.positionals[0], in: store)
        let signed = try EvidenceCheckpoint.chosen(arguments, store)
        let bundle = try JournalEvidence.bundle(stream, against: signed, in: store)
        try context.write(bundle.jsonText + "\n", toFile: arguments.string("out"))
    }
}
