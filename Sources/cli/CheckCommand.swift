import EventStore
import JournalApp
import JournalCore

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
            try checkExport(arguments.positionals[0], against: checkpoint, arguments, context)
            return
        }
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
        if path != "-", ExportVerifier.looksLikeExport(WholeFile.prefix(path, count: 64)) {
            throw CLIError.usage(
                "\(TextRendering.printable(path)) is an export, not a bundle",
                hint: "check it against a signed checkpoint: journal check \(TextRendering.printable(path)) "
                    + "--checkpoint CHECKPOINT --key VKEY")
        }
        let bytes = try WholeFile.read(path, what: "bundle", maxBytes: 1 << 30)
        let bundle: EvidenceBundle
        do {
            bundle = try EvidenceBundle(decoding: bytes)
        } catch {
            throw CLIError(.integrity, "\(TextRendering.printable(path)) is not a bundle: \(error)")
        }
        let verified: VerifiedBundle
        do {
            verified = try BundleVerifier(verifiers: verifiers).verify(bundle)
        } catch {
            throw CLIError(.integrity, "the bundle \(TextRendering.printable(path)) does not check: \(error)")
        }
        // A bundle proves what it holds; one that holds nothing proves nothing about its stream.
        guard !verified.events.isEmpty else {
            throw CLIError(.integrity, "the bundle \(TextRendering.printable(path)) holds no events")
        }
        try WitnessKeys.requireQuorum(arguments, on: verified.checkpoint)
        return verified
    }

    /// `check EXPORT --checkpoint FILE --key VKEY` (spec §9): exit 4 naming the first line
    /// where the export cannot be the signed log.
    private static func checkExport(
        _ path: String, against checkpointPath: String, _ arguments: ParsedArguments, _ context: CommandContext
    ) throws {
        let verifiers = try EvidenceFiles.verifiers(arguments)
        let signed = try EvidenceFiles.checkpoint(path: checkpointPath)
        let shown = path == "-" ? "stdin" : TextRendering.printable(path)
        let verified: VerifiedExport
        do {
            verified = try ExportVerifier(verifiers: verifiers).verify(path: path, against: signed)
        } catch {
            switch error {
            case let .unreadable(reason):
                throw CLIError(.failure, reason)
            case .checkpoint:
                throw CLIError(
                    .integrity,
                    "the checkpoint \(TextRendering.printable(checkpointPath)) is not signed by the given key: \(error)"
                )
            case .encoding, .tooFewLines, .notAnExportLine, .rootMismatch:
                throw CLIError(
                    .integrity,
                    "\(shown) is not the log signed in \(TextRendering.printable(checkpointPath)): \(error)")
            }
        }
        try WitnessKeys.requireQuorum(arguments, on: verified.checkpoint)
        let checkpoint = verified.checkpoint.checkpoint
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["ok"] = .bool(true)
            object["lines"] = .number(JSONNumber(checkpoint.size))
            object["linesAfter"] = .number(JSONNumber(verified.linesAfter))
            object["treeSize"] = .number(JSONNumber(checkpoint.size))
            object["root"] = .string(Base64.encode(checkpoint.root))
            object["origin"] = .string(checkpoint.origin)
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let after =
                verified.linesAfter == 0
                ? "" : "; \(TextRendering.counted(verified.linesAfter, "more line")) after them, not covered"
            context.stdout.line(
                "ok: the first \(TextRendering.counted(checkpoint.size, "line")) of \(shown) are the log "
                    + "\(checkpoint.origin) signed at \(checkpoint.size) events (root "
                    + "\(Base64.encode(checkpoint.root)))\(after)")
        }
    }
}
