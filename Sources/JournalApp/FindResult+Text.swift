import JournalCore
import Projections

extension FindResult {
    /// `stream,startedAt,outcome,events` and one row per stream (RFC 4180).
    package var csvLines: [String] {
        var lines = ["stream,startedAt,outcome,events"]
        for found in streams {
            lines.append(
                [
                    Self.csvField(found.stream), found.startedAt.description, Self.csvField(found.outcome),
                    String(found.events)
                ].joined(separator: ","))
        }
        return lines
    }

    /// An aligned table, or "no streams match"; `limit` is named when more streams match.
    package func textLines(limit: Int) -> [String] {
        guard !streams.isEmpty else { return ["no streams match"] }
        var rows = [["stream", "started", "outcome", "events"]]
        for found in streams {
            rows.append([
                TextRendering.printable(found.stream), found.startedAt.description, found.outcome, String(found.events)
            ])
        }
        var lines = TextRendering.table(rows, rightAligned: [3])
        if truncated {
            lines.append("(the first \(limit) shown; more streams match: narrow the filters or raise --limit)")
        }
        return lines
    }

    /// RFC 4180 quoting, for a field that needs it.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
