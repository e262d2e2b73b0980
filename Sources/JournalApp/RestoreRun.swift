import EventStore
import JournalCore

/// `journal restore SOURCE --db NEW`: the signed log rebuilt in a new journal from its export
/// or a mirror (spec §10; `JournalRestore` does the work), with the checkpoint that was checked
/// kept in it.
package struct RestoreRun: CommandReport {
    package var report: JournalRestore.Report
    /// The checkpoint the source was checked against, kept in the new journal.
    package var checkpoint: Checkpoint?
    /// The new journal, as its location is shown.
    package var journal: String

    /// Restores `source` (an export file, or a mirror folder) into the new journal `arguments`
    /// name; `--key VKEY` checks a mirror's checkpoint, or with `--checkpoint FILE` an export's.
    /// - Throws: exit 1 when the journal exists; exit 4 naming what does not check (nothing is
    ///   kept then).
    package init(source: String, _ arguments: ParsedArguments, _ context: CommandContext) throws {
        let backend = JournalBackend(location: context.journalPath(arguments))
        try JournalAccess.checkLocation(backend, writing: true)
        if case let .sqlite(path) = backend, FileSystem.entry(at: path) != .missing {
            throw CLIError(
                .failure, "\(backend.display) exists: a restore only creates a new journal",
                hint: "choose a new --db path; a restore never writes into an existing journal")
        }
        let target = {
            try backend.openForRestore(
                clock: context.now, busyTimeoutMilliseconds: JournalAccess.busyTimeout(context),
                isSameContent: JournalAccess.sameContent)
        }
        let signed: SignedCheckpoint?
        if FileSystem.entry(at: source) == .folder {
            let (reader, mirrorCheckpoint) = try Self.mirror(source, arguments)
            signed = mirrorCheckpoint
            var input = MirrorInput(MirrorEntries(reader: reader, size: mirrorCheckpoint.checkpoint.size))
            report = try JournalRestore.run(&input, checkpoint: mirrorCheckpoint.checkpoint, into: try target())
        } else {
            signed = try arguments.string("checkpoint").map { path throws in
                let signed = try EvidenceFiles.checkpoint(path: path)
                do {
                    try signed.verify(with: try EvidenceFiles.verifiers(arguments))
                } catch {
                    throw CLIError(
                        .integrity,
                        "the checkpoint \(TextRendering.printable(path)) is not signed by the given key: \(error)")
                }
                return signed
            }
            var input = try ExportFileInput(path: source)
            defer { input.close() }
            report = try JournalRestore.run(&input, checkpoint: signed?.checkpoint, into: try target())
        }
        if let signed {
            let store = try JournalAccess.open(backend, reading: false, create: false, context).get()
            try store.keepCheckpoint(note: signed.noteText, size: signed.checkpoint.size, root: signed.checkpoint.root)
        }
        checkpoint = signed?.checkpoint
        journal = backend.display
    }

    /// The mirror at `source` and its own checkpoint, checked with `--key VKEY`.
    private static func mirror(_ source: String, _ arguments: ParsedArguments) throws
        -> (MirrorReader, SignedCheckpoint)
    {
        guard arguments.string("key") != nil else {
            throw CLIError.usage(
                "a restore from a mirror needs --key VKEY", hint: "the key checks the mirror's checkpoint")
        }
        guard arguments.string("checkpoint") == nil else {
            throw CLIError.usage("a restore from a mirror checks the mirror's own checkpoint: drop --checkpoint")
        }
        let reader = MirrorReader(directory: source)
        let signed = try reader.checkpoint(verifiers: try EvidenceFiles.verifiers(arguments))
        guard reader.hasEntries || signed.checkpoint.size == 0 else {
            throw CLIError(
                .failure, "the mirror \(TextRendering.printable(source)) has no entry bundles",
                hint: "a mirror to restore from is written with 'journal publish --entries'")
        }
        return (reader, signed)
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["ok"] = .bool(true)
        object["events"] = .number(JSONNumber(report.events))
        object["streams"] = .number(JSONNumber(report.streams))
        object["headHash"] = .string(report.headHash)
        object["root"] = .string(Base64.encode(report.root))
        if let checkpoint {
            var held = JSONObject()
            held["origin"] = .string(checkpoint.origin)
            held["size"] = .number(JSONNumber(checkpoint.size))
            held["root"] = .string(Base64.encode(checkpoint.root))
            object["checkpoint"] = .object(held)
        }
        return .object(object)
    }

    package func textLines() -> [String] {
        let head = report.headHash.isEmpty ? "" : ", head hash \(report.headHash.prefix(16))…"
        var lines = [
            "restored \(report.events) events in \(report.streams) streams into \(journal) with "
                + "their positions, recordedAt and hashes\(head)"
        ]
        if let checkpoint {
            lines.append(
                "ok: the tree has the root of the checkpoint of \(checkpoint.origin) at \(checkpoint.size) "
                    + "events, kept in the new journal")
        }
        return lines
    }
}
