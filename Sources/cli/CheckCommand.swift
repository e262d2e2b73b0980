import EventStore
import JournalCore

/// `journal check FILE --key VKEY`: verifies a bundle with no journal (contract §6).
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "verify a bundle offline: signature, every inclusion proof, versions without a gap",
        positionals: [PositionalSpec(name: "FILE", help: "the bundle ('journal bundle' wrote it)", isRequired: true)],
        options: [EvidenceFiles.verifierKeyOption, WitnessKeys.keyOption, WitnessKeys.quorumOption],
        details: """
            Opens no journal. Checks that the bundle's checkpoint is signed by a key of --key
            (a verifier key NAME+ID+KEY, or a file holding one per line), that every event's
            leaf line is in the checkpoint's tree by its inclusion proof, and that the events
            are one stream's versions 0, 1, 2, … without a gap, at the positions they claim.
            Exit 0 when all of this holds, 4 naming the first thing that does not.

            --witness-key VKEY (repeatable, or a file of keys) with --quorum N also requires
            valid cosignatures of at least N of those witnesses on the checkpoint ('journal
            cosign'), else exit 4 saying how many held (docs/witnesses.md).
            """,
        examples: [
            "journal check evidence.json --key 'payments.example/journal+1a2b3c4d+AUm…'",
            "journal check evidence.json --key trusted.vkeys --format json",
            "journal check evidence.json --key journal.vkey --witness-key witnesses.vkeys --quorum 2"
        ],
        validate: { arguments throws(CLIError) in try WitnessKeys.validate(arguments) },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let verified = try verified(arguments)
        let checkpoint = verified.checkpoint.checkpoint
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["ok"] = .bool(true)
            object["stream"] = .string(verified.stream)
            object["events"] = .number(JSONNumber(verified.events.count))
            object["treeSize"] = .number(JSONNumber(checkpoint.size))
            object["origin"] = .string(checkpoint.origin)
            if let held = try WitnessKeys.cosigners(arguments, on: verified.checkpoint) {
                object["cosignedBy"] = .array(held.map { .string($0.name) })
            }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let count = verified.events.count
            context.stdout.line(
                "ok: \(verified.stream): \(count) event\(count == 1 ? "" : "s") (versions 0…\(count - 1)), "
                    + "each proven in the tree of \(checkpoint.size) events signed by \(checkpoint.origin)")
            if let held = try WitnessKeys.cosigners(arguments, on: verified.checkpoint) {
                context.stdout.line(
                    "ok: cosigned by \(held.count) of the \(try WitnessKeys.keys(arguments).count) witnesses given "
                        + "(\(held.map(\.name).joined(separator: ", "))), quorum \(arguments.integer("quorum") ?? 0)")
            }
        }
    }

    /// The bundle of `FILE` (the first positional), checked with the keys of `--key`: exit 4
    /// naming the first failure.
    static func verified(_ arguments: ParsedArguments, file: String? = nil) throws -> VerifiedBundle {
        let path = file ?? arguments.positionals[0]
        let verifiers = try EvidenceFiles.verifiers(arguments)
        let bytes = try WholeFile.read(path, what: "bundle", maxBytes: 1 << 30)
        let bundle: EvidenceBundle
        do {
            bundle = try EvidenceBundle(decoding: bytes)
        } catch {
            throw CLIError(.integrity, "\(Help.printable(path)) is not a bundle: \(error)")
        }
        let verified: VerifiedBundle
        do {
            verified = try BundleVerifier(verifiers: verifiers).verify(bundle)
        } catch {
            throw CLIError(.integrity, "the bundle \(Help.printable(path)) does not check: \(error)")
        }
        // A bundle proves what it holds; one that holds nothing proves nothing about its stream.
        guard !verified.events.isEmpty else {
            throw CLIError(.integrity, "the bundle \(Help.printable(path)) holds no events")
        }
        try WitnessKeys.requireQuorum(arguments, on: verified.checkpoint)
        return verified
    }
}
