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
        try RestoreRun(source: arguments.positionals[0], arguments, context).print(arguments.format, context)
    }
}
