import EventStore
import JournalCore

/// `journal verify`: the whole journal's integrity (hash chain, versions, positions).
enum VerifyCommand {
    static let spec = CommandSpec(
        name: "verify",
        summary: "check the whole journal's integrity: hash chain, versions, positions",
        details: """
            Walks every event in position order and recomputes the hash chain; checks that
            positions have no gaps and that each stream's versions count from 0 without gaps, and
            that the journal's stored Merkle tree is the tree of its events (export lines).
            Exit code 0 when the journal is intact, 4 when it is not (the first bad position is
            named on stderr, and in the JSON output).
            """,
        examples: ["journal verify --db journal.db", "journal verify --format json"],
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let report: VerifyReport
        switch verify(store) {
        case let .success(value):
            report = value
        case let .failure(error) where error.code == .integrity:
            let position = error.position ?? 0
            if arguments.format == .json {
                var line = JSONObject()
                line["ok"] = .bool(false)
                line["firstBadPosition"] = .number(JSONNumber(position))
                line["reason"] = .string(error.message)
                context.stdout.line(JSONWriter.string(.object(line)))
            }
            let message = error.message.contains("position \(position)")
                ? error.message : "first bad position \(position): \(error.message)"
            throw CLIError(.integrity, message,
                           hint: "'journal audit STREAM' marks each event whose hash does not check")
        case let .failure(error):
            throw error
        }
        switch arguments.format {
        case .json:
            var line = JSONObject()
            line["ok"] = .bool(true)
            line["events"] = .number(JSONNumber(report.events))
            line["streams"] = .number(JSONNumber(report.streams))
            line["headPosition"] = .number(JSONNumber(report.headPosition))
            line["headHash"] = .string(report.headHash)
            context.stdout.line(JSONWriter.string(.object(line)))
        case .text:
            let head = report.headHash.isEmpty ? "" : ", head hash \(report.headHash.prefix(16))…"
            context.stdout.line("ok: \(report.events) events in \(report.streams) streams intact "
                                + "(hash chain, positions, versions); head position \(report.headPosition)\(head)")
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
