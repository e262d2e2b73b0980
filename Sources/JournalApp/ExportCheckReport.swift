import EventStore
import JournalCore

/// `journal check EXPORT --checkpoint FILE --key VKEY` (spec §9): the RFC 6962 tree over the
/// export's first lines has the root of a checkpoint signed by a key of `--key`.
package struct ExportCheckReport: CommandReport {
    package var verified: VerifiedExport
    /// The export as the text names it: its path, or "stdin" for `-`.
    package var shown: String

    /// - Throws: exit 4 naming the first line where the export cannot be the signed log, or a
    ///   checkpoint the key did not sign; exit 1 for an export that cannot be read.
    package init(_ path: String, against checkpointPath: String, _ arguments: ParsedArguments) throws {
        let verifiers = try EvidenceFiles.verifiers(arguments)
        let signed = try EvidenceFiles.checkpoint(path: checkpointPath)
        shown = path == "-" ? "stdin" : TextRendering.printable(path)
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
    }

    package func json() -> JSONValue {
        let checkpoint = verified.checkpoint.checkpoint
        var object = JSONObject()
        object["ok"] = .bool(true)
        object["lines"] = .number(JSONNumber(checkpoint.size))
        object["linesAfter"] = .number(JSONNumber(verified.linesAfter))
        object["treeSize"] = .number(JSONNumber(checkpoint.size))
        object["root"] = .string(Base64.encode(checkpoint.root))
        object["origin"] = .string(checkpoint.origin)
        return .object(object)
    }

    package func textLines() -> [String] {
        let checkpoint = verified.checkpoint.checkpoint
        let after =
            verified.linesAfter == 0
            ? "" : "; \(TextRendering.counted(verified.linesAfter, "more line")) after them, not covered"
        return [
            "ok: the first \(TextRendering.counted(checkpoint.size, "line")) of \(shown) are the log "
                + "\(checkpoint.origin) signed at \(checkpoint.size) events (root "
                + "\(Base64.encode(checkpoint.root)))\(after)"
        ]
    }
}
