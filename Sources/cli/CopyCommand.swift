import JournalApp

/// `journal copy --from A --to B`: moves a whole journal between backends (SQLite file ⇄
/// PostgreSQL URL, or file to file), event for event.
///
/// Every event keeps its id, stream, version, type, occurredAt, recordedAt and data/meta bytes,
/// and is appended in position order, so the destination gets the same positions and therefore
/// the same hash chain and the same Merkle tree: the copy is checked by verifying the source
/// before, the destination after, and comparing their head hashes and tree roots. Pages of 1,000
/// events are appended atomically (one multi-stream append each, with expected versions). A copy
/// that was interrupted resumes: when the destination already holds a prefix of the source (its
/// head hash equals the source's hash at that position), copying continues after it; any other
/// non-empty destination is refused.
enum CopyCommand {
    static let spec = CommandSpec(
        name: "copy",
        summary: "copy a whole journal to another backend (SQLite file or PostgreSQL URL), verified",
        options: [
            OptionSpec(
                name: "from", value: .text(placeholder: "A"),
                help: "the source journal: a file path or a postgres:// URL", isRequired: true),
            OptionSpec(
                name: "to", value: .text(placeholder: "B"),
                help: "the destination: a new or empty journal (created when missing), or a partial copy to resume",
                isRequired: true),
            ProgressReporter.option
        ],
        usesDB: false,
        details: """
            Copies every event in position order, keeping ids, streams, versions, occurredAt,
            recordedAt and the data and meta bytes, so both journals hold the same hash chain.
            The source is verified first (exit 4 if it is damaged) and the destination after the
            copy; the command succeeds only when both verify and their head hashes and Merkle tree
            roots are equal (a source of an older version opened read-only has no tree yet: its
            root is not compared).
            A destination that already holds the first events of the source (an interrupted
            copy) is resumed; any other non-empty destination is refused. --db is not used.
            Passwords in URLs are never printed.

            Progress (events copied of the source's events, events/s, time left) is shown on
            stderr when it is a terminal; --progress prints it as a plain line every few seconds
            and a final line.
            """,
        examples: [
            "journal copy --from journal.db --to postgres://journal@db.internal/journal",
            "journal copy --from postgres://journal@db.internal/journal --to backup.db --format json"
        ],
        validate: { arguments throws(CLIError) in
            guard let from = arguments.string("from"), !from.isEmpty, let to = arguments.string("to"), !to.isEmpty
            else {
                throw .usage(
                    "copy needs --from A and --to B", hint: "journal copy --from journal.db --to postgres://host/db")
            }
            guard from != to else { throw .usage("--from and --to name the same journal") }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let from = JournalBackend(location: arguments.string("from") ?? "")
        let to = JournalBackend(location: arguments.string("to") ?? "")
        let copy = try JournalCopy.copy(from: from, to: to, pageSize: 1_000, context: context) { total in
            ProgressReporter.make(arguments, context, verb: "copying", unit: .events, total: total)
        }
        try JournalCopy.Report(from: from, to: to, copy).print(arguments.format, context)
    }
}
