import EventStore
import JournalApp

/// `journal check FILE --key VKEY`: verifies a bundle with no journal (spec §6);
/// `journal check EXPORT --checkpoint FILE --key VKEY`: an export against a signed checkpoint (§9).
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "verify a bundle, or an export against a signed checkpoint, offline (no journal)",
        positionals: [
            PositionalSpec(
                name: "FILE", help: "the bundle ('journal bundle' wrote it), or with --checkpoint an export",
                isRequired: true)
        ],
        options: [
            EvidenceFiles.verifierKeyOption.required(),
            OptionSpec(
                name: "checkpoint", value: .text(placeholder: "CHECKPOINT"),
                help: "FILE is an export ('journal export'): check it against this signed checkpoint"),
            WitnessKeys.keyOption, WitnessKeys.quorumOption
        ],
        usesDB: false,
        details: """
            Opens no journal. Checks that the bundle's checkpoint is signed by a key of --key
            (a verifier key NAME+ID+KEY, or a file holding one per line), that every event's
            leaf line is in the checkpoint's tree by its inclusion proof, and that the events
            are one stream's versions 0, 1, 2, … without a gap, at the positions they claim.
            Exit 0 when all of this holds, 4 naming the first thing that does not.

            With --checkpoint CHECKPOINT, FILE is an export ('journal export > FILE', - for
            stdin): the checkpoint must be signed by a key of --key, and the RFC 6962 tree over
            FILE's first SIZE lines (SIZE: the checkpoint's tree size; each line without its
            line feed is a leaf) must have the checkpoint's root. Exit 0 when it has; 4 naming
            the first line where it cannot hold: too few lines, a line that is not an export
            line (or holds another position than its line number), or a root that differs.
            Lines after SIZE are counted, not checked. The file is streamed: any size, in
            bounded memory.

            --witness-key VKEY (repeatable, or a file of keys) with --quorum N also requires
            valid cosignatures of at least N of those witnesses on the checkpoint ('journal
            cosign'), else exit 4 saying how many held (docs/witnesses.md).
            """,
        examples: [
            "journal check evidence.json --key 'payments.example/journal+1a2b3c4d+AUm…'",
            "journal check evidence.json --key trusted.vkeys --format json",
            "journal check journal-export.ndjson --checkpoint checkpoint.txt --key journal.key.pub",
            "journal check evidence.json --key journal.vkey --witness-key witnesses.vkeys --quorum 2"
        ],
        validate: { arguments throws(CLIError) in try WitnessKeys.validate(arguments) },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        if let checkpoint = arguments.string("checkpoint") {
            try ExportCheckReport(arguments.positionals[0], against: checkpoint, arguments).print(
                arguments.format, context)
        } else {
            try BundleCheckReport(arguments).print(arguments.format, context)
        }
    }
}
