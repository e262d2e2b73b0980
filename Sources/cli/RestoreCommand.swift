import EventStore
import JournalApp
import JournalCore

/// `journal restore EXPORT.ndjson --db NEW [--checkpoint FILE --key VKEY]` and `journal restore
/// DIR --key VKEY --db NEW`: the signed log back from an export or a mirror (spec §10;
/// `JournalRestore` does the work).
enum RestoreCommand {
    static let spec = CommandSpec(
        name: "restore",
        summary: "rebuild the signed log from its export or a mirror: positions, times and hashes kept",
        positionals: [
            PositionalSpec(
                name: "SOURCE", help: "an export file ('journal export' wrote it) or a mirror folder", isRequired: true)
        ],
        options: [
            OptionSpec(
                name: "checkpoint", value: .text(placeholder: "FILE"),
                help: "check the export against this signed checkpoint first (with --key VKEY)"),
            EvidenceFiles.verifierKeyOption
        ],
        details: """
            Rebuilds a journal at --db NEW (a SQLite file or a PostgreSQL URL; NEW must not exist,
            else exit 1) keeping every event's position, recordedAt and hash as exported: the new
            journal's export is byte-identical to the input, and every checkpoint of the source
            holds for it ('journal verify --checkpoint'). 'journal import' makes a new log
            instead (new recordedAt, new hashes).

            Each line must be an export line as 'journal export' writes it, at positions 1…N
            without a gap, each stream's versions 0, 1, 2 … in turn, and every hash the chain's;
            else exit 4 naming the line, and nothing is kept. With --checkpoint FILE --key VKEY,
            the checkpoint's signature is checked first and the tree of the first lines must
            have its root before anything is kept. The file is read a chunk at a time.

            SOURCE may be a mirror folder written by 'journal publish --entries': --key VKEY is
            then required; every entry is checked against the level-0 tiles and the tree against
            the mirror's signed checkpoint. A checkpoint that was checked is kept in the new
            journal.
            """,
        examples: [
            "journal restore backup.ndjson --db restored.db",
            "journal restore backup.ndjson --db restored.db --checkpoint latest.checkpoint --key journal.vkey",
            "journal restore /srv/www/journal --key journal.vkey --db restored.db"
        ],
        validate: { arguments throws(CLIError) in
            if (arguments.string("checkpoint") == nil) != (arguments.string("key") == nil)
                && FileSystem.entry(at: arguments.positionals.first ?? "") != .folder
            {
                throw CLIError.usage(
                    "--checkpoint FILE and --key VKEY go together",
                    hint: "the key checks the checkpoint's signature")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let source = arguments.positionals[0]
        let shown = TextRendering.printable(source)
        let backend = JournalBackend(location: context.journalPath(arguments))
        try JournalAccess.checkLocation(backend, writing: true)
        if case let .sqlite(path) = backend, FileSystem.entry(at: path) != .missing {
            throw CLIError(
                .failure, "\(backend.display) exists: a restore only creates a new journal",
                hint: "choose a new --db path; a restore never writes into an existing journal")
        }
        let checkpoint: SignedCheckpoint?
        let report: JournalRestore.Report
        if FileSystem.entry(at: source) == .folder {
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
                    .failure, "the mirror \(shown) has no entry bundles",
                    hint: "a mirror to restore from is written with 'journal publish --entries'")
            }
            checkpoint = signed
            var input = MirrorInput(MirrorEntries(reader: reader, size: signed.checkpoint.size))
            report = try JournalRestore.run(
                &input, checkpoint: signed.checkpoint, into: try openTarget(backend, context))
        } else {
            checkpoint = try arguments.string("checkpoint").map { path throws in
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
            report = try JournalRestore.run(
                &input, checkpoint: checkpoint?.checkpoint, into: try openTarget(backend, context))
        }
        if let checkpoint {
            let store = try JournalAccess.open(backend, reading: false, create: false, context).get()
            try store.keepCheckpoint(
                note: checkpoint.noteText, size: checkpoint.checkpoint.size, root: checkpoint.checkpoint.root)
        }
        print(report, checkpoint: checkpoint?.checkpoint, into: backend, arguments, context)
    }

    private static func openTarget(_ backend: JournalBackend, _ context: CommandContext) throws -> ImportTarget {
        try backend.openForRestore(
            clock: context.now, busyTimeoutMilliseconds: JournalAccess.busyTimeout(context),
            isSameContent: JournalAccess.sameContent)
    }

    private static func print(
        _ report: JournalRestore.Report, checkpoint: Checkpoint?, into backend: JournalBackend,
        _ arguments: ParsedArguments, _ context: CommandContext
    ) {
        switch arguments.format {
        case .json:
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
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let head = report.headHash.isEmpty ? "" : ", head hash \(report.headHash.prefix(16))…"
            context.stdout.line(
                "restored \(report.events) events in \(report.streams) streams into \(backend.display) with "
                    + "their positions, recordedAt and hashes\(head)")
            if let checkpoint {
                context.stdout.line(
                    "ok: the tree has the root of the checkpoint of \(checkpoint.origin) at \(checkpoint.size) "
                        + "events, kept in the new journal")
            }
        }
    }
}
