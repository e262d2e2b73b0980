import EventStore
import JournalCore

/// `journal check FILE --key VKEY`: a bundle verified with no journal (spec §6): its
/// checkpoint signed by a key of `--key`, every event proven in its tree, one stream's
/// versions without a gap, and with `--quorum` the witnesses' cosignatures.
package struct BundleCheckReport: CommandReport {
    package var verified: VerifiedBundle
    /// The witnesses of `--witness-key` that cosigned, nil without `--quorum`.
    package var cosigners: [NoteVerifier]?
    /// How many witness keys were given, and the quorum asked for.
    package var witnessKeys: Int
    package var quorum: Int64

    package init(_ arguments: ParsedArguments) throws {
        verified = try Self.verified(arguments)
        cosigners = try WitnessKeys.cosigners(arguments, on: verified.checkpoint)
        witnessKeys = cosigners == nil ? 0 : try WitnessKeys.keys(arguments).count
        quorum = arguments.integer("quorum") ?? 0
    }

    /// The bundle of `file` (default: the first positional), checked with the keys of `--key`
    /// and the quorum of `--witness-key`/`--quorum`.
    /// - Throws: exit 4 naming the first failure; exit 2 for an export given as a bundle.
    package static func verified(_ arguments: ParsedArguments, file: String? = nil) throws -> VerifiedBundle {
        let path = file ?? arguments.positionals[0]
        let verifiers = try EvidenceFiles.verifiers(arguments)
        if path != "-", ExportVerifier.looksLikeExport(WholeFile.prefix(path, count: 64)) {
            throw CLIError.usage(
                "\(TextRendering.printable(path)) is an export, not a bundle",
                hint: "check it against a signed checkpoint: journal check \(TextRendering.printable(path)) "
                    + "--checkpoint CHECKPOINT --key VKEY")
        }
        let bytes = try WholeFile.read(path, what: "bundle", maxBytes: 1 << 30)
        let verified = try check(bytes, with: verifiers, named: TextRendering.printable(path))
        try WitnessKeys.requireQuorum(arguments, on: verified.checkpoint)
        return verified
    }

    /// The bundle `bytes` checked with `verifiers`: its checkpoint signed by one of them, every
    /// event proven in its tree, one stream's versions without a gap, and at least one event.
    /// `name` (a file's, made printable) goes into the errors when given.
    /// - Throws: exit 4 naming the first failure.
    package static func check(_ bytes: some Collection<UInt8>, with verifiers: [NoteVerifier], named name: String?)
        throws(CLIError) -> VerifiedBundle
    {
        let named = name.map { " " + $0 } ?? ""
        let bundle: EvidenceBundle
        do {
            bundle = try EvidenceBundle(decoding: bytes)
        } catch {
            throw CLIError(.integrity, (name.map { "\($0) is not a bundle" } ?? "not a bundle") + ": \(error)")
        }
        let verified: VerifiedBundle
        do {
            verified = try BundleVerifier(verifiers: verifiers).verify(bundle)
        } catch {
            throw CLIError(.integrity, "the bundle\(named) does not check: \(error)")
        }
        // A bundle proves what it holds; one that holds nothing proves nothing about its stream.
        guard !verified.events.isEmpty else { throw CLIError(.integrity, "the bundle\(named) holds no events") }
        return verified
    }

    package func json() -> JSONValue {
        let checkpoint = verified.checkpoint.checkpoint
        var object = JSONObject()
        object["ok"] = .bool(true)
        object["stream"] = .string(verified.stream)
        object["events"] = .number(JSONNumber(verified.events.count))
        object["treeSize"] = .number(JSONNumber(checkpoint.size))
        object["origin"] = .string(checkpoint.origin)
        if let cosigners { object["cosignedBy"] = .array(cosigners.map { .string($0.name) }) }
        return .object(object)
    }

    package func textLines() -> [String] {
        let checkpoint = verified.checkpoint.checkpoint
        let count = verified.events.count
        var lines = [
            "ok: \(verified.stream): \(count) event\(count == 1 ? "" : "s") (versions 0…\(count - 1)), "
                + "each proven in the tree of \(checkpoint.size) events signed by \(checkpoint.origin)"
        ]
        if let cosigners {
            lines.append(
                "ok: cosigned by \(cosigners.count) of the \(witnessKeys) witnesses given "
                    + "(\(cosigners.map(\.name).joined(separator: ", "))), quorum \(quorum)")
        }
        return lines
    }
}
