import EventStore
import JournalCore

/// `journal audit STREAM`: a stream's history for a person, each event with its key fields, its
/// meta object and whether its hash checks.
package struct StreamAudit: CommandReport {
    package struct Row {
        package var event: RecordedEvent
        package var keyFields: JSONObject
        /// The event's meta object, nil when it has none (or an empty one).
        package var meta: JSONObject?
        package var hashChecks: Bool
    }

    package var stream: StreamName
    package var rows: [Row] = []

    /// Reads every event of `stream` and recomputes its hash (`IntegrityCheck`); a store that
    /// does not check its reads itself, so that every event is marked.
    package init(_ stream: StreamName, in store: any EventStore) throws {
        self.stream = stream
        let parser = JSONParser()
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
    }

    /// The events whose hash does not check.
    package var bad: [Row] { rows.filter { !$0.hashChecks } }

    /// Exit 4 naming the first event whose hash does not check.
    package var failure: CLIError? {
        guard let first = bad.first else { return nil }
        return CLIError(
            .integrity,
            "integrity violation in \(stream): the hash of version \(first.event.version) "
                + "(position \(first.event.position)) does not check",
            hint: "run 'journal verify' to check the whole journal")
    }

    package func json() -> JSONValue {
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
        return .object(object)
    }

    package func textLines() -> [String] {
        let bad = bad.count
        let verdict =
            bad == 0 ? "every hash checks" : bad == 1 ? "1 hash does NOT check" : "\(bad) hashes do NOT check"
        var lines = ["\(stream): \(rows.count) events, \(verdict)"]
        var table = [["ver", "pos", "occurredAt", "recordedAt", "type", "key fields"]]
        for row in rows {
            table.append([
                String(row.event.version), String(row.event.position), row.event.occurredAt.description,
                row.event.recordedAt.description, row.event.type, AuditKeyFields.text(row.keyFields)
            ])
        }
        // The key-fields column varies in width; the mark goes in a last, aligned column.
        let aligned = TextRendering.table(table, rightAligned: [0, 1])
        let width = aligned.map(\.count).max() ?? 0
        lines.append("  " + aligned[0].padding(width) + "  hash")
        for (line, row) in zip(aligned.dropFirst(), rows) {
            lines.append("  " + line.padding(width) + "  " + (row.hashChecks ? "✓" : "✗"))
            if let meta = row.meta { lines.append("      meta " + JSONWriter.string(.object(meta))) }
        }
        return lines
    }
}
