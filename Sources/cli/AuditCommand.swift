import EventStore
import JournalApp
import JournalCore

/// `journal audit STREAM`: a stream's history for a person, with a per-event integrity mark.
enum AuditCommand {
    static let spec = CommandSpec(
        name: "audit",
        summary: "show a stream's history: versions, positions, times, key fields, hash checks",
        positionals: [
            PositionalSpec(
                name: "STREAM", help: "3ds-<sdkTransID> or card-<digitizationID>",
                isRequired: true)
        ],
        details: """
            Prints one line per event, in version order: version, position, occurredAt (device or
            server time), recordedAt (journal time), type, the key fields (counters, UI type,
            action, transStatus, method, reason, …) and whether the event's hash checks (✓ or ✗).
            An event with a meta object (correlationId, platform, sdkVersion, …) is followed by
            an indented line 'meta {…}' with it as compact JSON; with --format json each event
            has a "meta" key ({} when the event has none). Exit code 4 when any hash does not
            check.
            """,
        examples: [
            "journal audit 3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",
            "journal audit card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84 --format json"
        ],
        validate: { arguments throws(CLIError) in try StreamArgument.check(arguments.positionals[0]) },
        run: run)

    struct Row {
        var event: RecordedEvent
        var keyFields: JSONObject
        /// The event's meta object, nil when it has none (or an empty one).
        var meta: JSONObject?
        var hashChecks: Bool
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments, verifiesReads: false)
        let stream = try StreamArgument.existing(arguments.positionals[0], in: store)
        let parser = JSONParser()
        var rows: [Row] = []
        var version: Int64 = 0
        while true {
            let page = try store.read(stream: stream, from: version, direction: .forward, limit: 512)
            for event in page {
                let data = (try? parser.parse(event.data).objectValue) ?? JSONObject()
                let meta = event.meta.flatMap { try? parser.parse($0).objectValue }.flatMap { $0.isEmpty ? nil : $0 }
                rows.append(
                    Row(
                        event: event, keyFields: AuditKeyFields.fields(type: event.type, data: data), meta: meta,
                        hashChecks: try IntegrityCheck.hashChecks(event, in: store)))
            }
            guard page.count == 512, let last = page.last else { break }
            version = last.version + 1
        }
        let bad = rows.filter { !$0.hashChecks }
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["stream"] = .string(stream.rawValue)
            object["intact"] = .bool(bad.isEmpty)
            object["events"] = .array(
                rows.map { row in
                    var line = JSONObject()
                    line["version"] = .number(JSONNumber(row.event.version))
                    line["position"] = .number(JSONNumber(row.event.position))
                    line["occurredAt"] = .string(row.event.occurredAt.description)
                    line["recordedAt"] = .string(row.event.recordedAt.description)
                    line["type"] = .string(row.event.type)
                    line["keyFields"] = .object(row.keyFields)
                    line["meta"] = .object(row.meta ?? JSONObject())
                    line["hashChecks"] = .bool(row.hashChecks)
                    return .object(line)
                })
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let verdict =
                bad.isEmpty
                ? "every hash checks"
                : bad.count == 1 ? "1 hash does NOT check" : "\(bad.count) hashes do NOT check"
            context.stdout.line("\(stream): \(rows.count) events, \(verdict)")
            var table = [["ver", "pos", "occurredAt", "recordedAt", "type", "key fields", "hash"]]
            for row in rows {
                table.append([
                    String(row.event.version), String(row.event.position),
                    row.event.occurredAt.description, row.event.recordedAt.description, row.event.type,
                    AuditKeyFields.text(row.keyFields), row.hashChecks ? "✓" : "✗"
                ])
            }
            // The key-fields column varies in width; the mark goes in a last, aligned column.
            let lines = TextRendering.table(table.map { Array($0.dropLast()) }, rightAligned: [0, 1])
            let width = lines.map(\.count).max() ?? 0
            for (index, (line, row)) in zip(lines, table).enumerated() {
                context.stdout.line("  " + line.padding(width) + "  " + row.last!)
                // The header is row 0; event rows follow in order.
                if index > 0, let meta = rows[index - 1].meta {
                    context.stdout.line("      meta " + JSONWriter.string(.object(meta)))
                }
            }
        }
        if let first = bad.first {
            throw CLIError(
                .integrity,
                "integrity violation in \(stream): the hash of version \(first.event.version) "
                    + "(position \(first.event.position)) does not check",
                hint: "run 'journal verify' to check the whole journal")
        }
    }
}
