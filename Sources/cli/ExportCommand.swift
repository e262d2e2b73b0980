import JournalApp

/// `journal export [--stream S] [--from-position P]`: NDJSON in position order.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        summary: "write events as NDJSON to stdout, in position order",
        options: [
            OptionSpec(name: "stream", value: .text(placeholder: "S"), help: "only this stream's events"),
            OptionSpec(
                name: "from-position", value: .integer(placeholder: "P", minimum: 0),
                help: "only events at position P or later (P included)")
        ],
        printsResults: false,
        details: """
            Writes one JSON object per line: the import envelope (id, stream, type, occurredAt,
            data, meta) plus the keys the journal assigned (position, version, recordedAt, hash
            as 64 hex digits). data and meta are written exactly as they were received. Importing
            an export into an empty journal reproduces the same events in the same order.
            """,
        examples: [
            "journal export > backup.ndjson",
            "journal export --stream 3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",
            "journal export --from-position 1001 --db journal.db"
        ],
        validate: { arguments throws(CLIError) in
            if let stream = arguments.string("stream") { try StreamArgument.check(stream) }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let stream = try arguments.string("stream").map { name in try StreamArgument.existing(name, in: store) }
        try ExportWriter.write(store, stream: stream, from: arguments.integer("from-position") ?? 0, to: context.stdout)
    }
}
