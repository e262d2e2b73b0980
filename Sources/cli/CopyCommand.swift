import EventStore
import JournalApp
import JournalCore

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

    static let pageSize = 1_000

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let from = JournalBackend(location: arguments.string("from") ?? "")
        let to = JournalBackend(location: arguments.string("to") ?? "")
        try JournalAccess.checkLocation(from, writing: false)
        try JournalAccess.checkLocation(to, writing: true)
        let source: any TransactionalEventStore
        switch JournalAccess.open(from, reading: true, context) {
        case let .success(store): source = store
        case let .failure(error) where error.code == .missing:
            throw CLIError(.failure, "no journal at \(from.display)", hint: "--from names the journal to copy")
        case let .failure(error): throw error
        }
        let sourceReport = try verified(source, from)
        let destination = try JournalAccess.open(to, reading: false, context).get()

        // Resume after the destination's head when it is a prefix of the source.
        let start = try destination.headPosition()
        if start > 0 {
            let destinationLast = try destination.readAll(from: start, limit: 1).first
            let sourceAtStart = try source.readAll(from: start, limit: 1).first
            guard let destinationLast, let sourceAtStart, destinationLast.hash == sourceAtStart.hash else {
                throw CLIError(
                    .failure, "\(to.display) already holds \(start) events that are not the start of \(from.display)",
                    hint: "copy into a new or empty journal")
            }
        }
        var next = start + 1
        var copied: Int64 = 0
        let progress = ProgressReporter.make(
            arguments, context, verb: "copying", unit: .events,
            total: max(0, sourceReport.headPosition - start))
        while true {
            let page = try source.readAll(from: next, limit: pageSize)
            guard let last = page.last else { break }
            try destination.append(parts(of: page))
            copied += Int64(page.count)
            next = last.position + 1
            progress?.update(done: copied, events: copied)
        }
        progress?.finish(done: copied, events: copied)
        let destinationReport = try verified(destination, to)
        guard destinationReport == sourceReport else {
            throw CLIError(
                .integrity,
                "the copy at \(to.display) does not match \(from.display): "
                    + "\(destinationReport.events) events, head hash \(destinationReport.headHash.prefix(16)) "
                    + "vs \(sourceReport.events) events, head hash \(sourceReport.headHash.prefix(16))")
        }
        // The same leaf lines make the same Merkle tree: checkpoints signed on the source hold on
        // the copy (spec §6). A source opened read-only before its upgrade has no tree to compare.
        let tree = try destination.treeHead()
        if let sourceTree = try sourceTreeHead(source), sourceTree != tree {
            throw CLIError(
                .integrity,
                "the copy at \(to.display) has Merkle tree root \(Base64.encode(tree.root)) "
                    + "at size \(tree.size) where \(from.display) has \(Base64.encode(sourceTree.root)) "
                    + "at size \(sourceTree.size)",
                hint: "'journal verify --db …' on both; one of the trees was changed")
        }
        switch arguments.format {
        case .json:
            var line = JSONObject()
            line["ok"] = .bool(true)
            line["from"] = .string(from.display)
            line["to"] = .string(to.display)
            line["copied"] = .number(JSONNumber(copied))
            line["events"] = .number(JSONNumber(destinationReport.events))
            line["streams"] = .number(JSONNumber(destinationReport.streams))
            line["headPosition"] = .number(JSONNumber(destinationReport.headPosition))
            line["headHash"] = .string(destinationReport.headHash)
            line["treeRoot"] = .string(Base64.encode(tree.root))
            context.stdout.line(JSONWriter.string(.object(line)))
        case .text:
            let resumed = start > 0 ? " (resumed after position \(start))" : ""
            context.stdout.line("copied \(copied) events from \(from.display) to \(to.display)\(resumed)")
            let head = destinationReport.headHash.isEmpty ? "" : ", head hash \(destinationReport.headHash.prefix(16))…"
            context.stdout.line(
                "ok: both journals verify: \(destinationReport.events) events in \(destinationReport.streams) "
                    + "streams, head position \(destinationReport.headPosition)\(head)")
            context.stdout.line(
                "ok: same Merkle root \(Base64.encode(tree.root)): checkpoints of "
                    + "\(from.display) hold on the copy")
        }
    }

    /// Consecutive events of one stream become one part, with the expected version the source
    /// had before them, so a destination that diverged fails with a conflict instead of mixing.
    static func parts(of page: [RecordedEvent]) -> [StreamAppend] {
        var parts: [StreamAppend] = []
        for event in page {
            let proposed = ProposedEvent(
                id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data,
                meta: event.meta, recordedAt: event.recordedAt)
            if let index = parts.indices.last, parts[index].stream == event.stream {
                parts[index].events.append(proposed)
            } else {
                parts.append(
                    StreamAppend(
                        stream: event.stream,
                        expectedVersion: event.version == 0 ? .noStream : .exact(event.version - 1),
                        events: [proposed]))
            }
        }
        return parts
    }

    /// The source's tree head, or nil when the source is of an older version opened read-only
    /// (the destination built its tree from the same events).
    private static func sourceTreeHead(_ source: any EventStore) throws -> TreeHead? {
        do {
            return try source.treeHead()
        } catch let error where error.code == .needsUpgrade {
            return nil
        }
    }

    private static func verified(_ store: any EventStore, _ backend: JournalBackend) throws -> VerifyReport {
        switch verify(store) {
        case let .success(report):
            return report
        case let .failure(error) where error.code == .integrity:
            throw CLIError(
                .integrity, "\(backend.display): \(error.message)",
                hint: "'journal verify --db …' names the first bad position")
        case let .failure(error):
            throw error
        }
    }

    private static func verify(_ store: any EventStore) -> Result<VerifyReport, EventStoreError> {
        do {
            return .success(try store.verify())
        } catch {
            return .failure(error)
        }
    }
}
