import EventStore
import JournalApp
import JournalCore

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

    static let pageSize = 1000

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let from = arguments.integer("from-position") ?? 0
        var line: [UInt8] = []
        line.reserveCapacity(4096)
        func emit(_ event: RecordedEvent) {
            line.removeAll(keepingCapacity: true)
            event.exportLine(into: &line)
            line.append(0x0A)
            context.stdout.write(bytes: line)
        }
        if let name = arguments.string("stream") {
            let stream = try StreamArgument.existing(name, in: store)
            var version: Int64 = 0
            while true {
                let page = try store.read(stream: stream, from: version, direction: .forward, limit: pageSize)
                for event in page where event.position >= from { emit(event) }
                guard page.count == pageSize, let last = page.last else { break }
                version = last.version + 1
            }
        } else if let scanning = store as? any EventScanning {
            var export = LogExport(store: scanning, pageSize: pageSize)
            try export.run(from: from) { page in context.stdout.write(bytes: page) }
        } else {
            var position = from
            while true {
                let page = try store.readAll(from: position, limit: pageSize)
                page.forEach(emit)
                guard page.count == pageSize, let last = page.last else { break }
                position = last.position + 1
            }
        }
        try context.stdout.flush()
    }
}
