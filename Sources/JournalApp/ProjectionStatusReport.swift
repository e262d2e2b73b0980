import JournalCore
import Projections

/// `journal project --status`: per projection, its code version and the version it was built
/// with, its table generation, its checkpoint, the log's head, the lag, and the checkpoint of a
/// rebuild in progress.
package struct ProjectionStatusReport: CommandReport {
    package var status: [ProjectionStatus]
    /// True for the read models of a read-only journal, built for this run only.
    package var temporary: Bool

    package init(_ engine: ProjectionEngine, temporary: Bool) throws(CLIError) {
        status = try ReadModels.reporting { () throws(ProjectionError) in try engine.status() }
        self.temporary = temporary
    }

    /// The log's head position.
    package var head: Int64 { status.first?.head ?? 0 }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["head"] = .number(JSONNumber(head))
        object["projections"] = .array(
            status.map { projection in
                var entry = JSONObject()
                entry["name"] = .string(projection.name.rawValue)
                entry["codeVersion"] = .number(JSONNumber(projection.codeVersion))
                entry["builtVersion"] = projection.builtVersion.map { .number(JSONNumber($0)) } ?? .null
                entry["generation"] = .number(JSONNumber(projection.generation))
                entry["checkpoint"] = .number(JSONNumber(projection.checkpoint))
                entry["lag"] = .number(JSONNumber(projection.lag))
                entry["rebuildCheckpoint"] = projection.rebuildCheckpoint.map { .number(JSONNumber($0)) } ?? .null
                return .object(entry)
            })
        if temporary { object["temporary"] = .bool(true) }
        return .object(object)
    }

    package func textLines() -> [String] {
        var rows = [["projection", "version", "generation", "checkpoint", "head", "lag", "state"]]
        for p in status {
            rows.append([
                p.name.rawValue, "\(p.codeVersion)", "\(p.generation)", "\(p.checkpoint)", "\(p.head)",
                "\(p.lag)", Self.state(p)
            ])
        }
        var lines = TextRendering.table(rows, rightAligned: [1, 2, 3, 4, 5])
        if temporary {
            lines.append("the journal is read-only: its read models are built from the log in a temporary")
            lines.append("database for each run (query, find, report, project); --models FILE keeps them")
        }
        return lines
    }

    /// The state column: built or not, by which version, behind or up to date.
    private static func state(_ p: ProjectionStatus) -> String {
        if p.builtVersion == nil { return p.rebuildCheckpoint.map { "building (at \($0))" } ?? "never built" }
        if p.stale { return "built by version \(p.builtVersion ?? 0): rebuilds on next use" }
        if let rebuilding = p.rebuildCheckpoint { return "rebuilding (at \(rebuilding))" }
        return p.lag == 0 ? "up to date" : "behind"
    }
}
