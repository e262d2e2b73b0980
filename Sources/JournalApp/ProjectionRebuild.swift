import JournalCore
import Projections

/// `journal project --rebuild [NAME]`: projections rebuilt from position 1 into a new
/// generation of tables, swapped in when complete, and the status after.
package struct ProjectionRebuild: CommandReport {
    package var targets: [ProjectionName]
    /// The events applied.
    package var events: Int64
    package var milliseconds: Int64
    package var status: ProjectionStatusReport

    /// Rebuilds `targets`; `progress` follows the log position reached.
    package init(
        _ targets: [ProjectionName], _ engine: ProjectionEngine, temporary: Bool,
        progress: (any ProgressReporting)?, now: () -> Timestamp
    ) throws(CLIError) {
        var reached: Int64 = 0
        engine.onBatch = { position in
            reached = position
            progress?.update(done: position, events: position)
        }
        let started = now()
        let events = try ReadModels.reporting { () throws(ProjectionError) in try engine.rebuild(targets) }
        engine.onBatch = nil
        progress?.finish(done: max(reached, events), events: events)
        milliseconds = max(0, now().millisecondsSinceEpoch - started.millisecondsSinceEpoch)
        status = try ProjectionStatusReport(engine, temporary: temporary)
        self.targets = targets
        self.events = events
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["rebuilt"] = .array(targets.map { .string($0.rawValue) })
        object["events"] = .number(JSONNumber(events))
        object["milliseconds"] = .number(JSONNumber(milliseconds))
        object["head"] = .number(JSONNumber(status.head))
        if status.temporary { object["temporary"] = .bool(true) }
        return .object(object)
    }

    package func textLines() -> [String] {
        let rate = milliseconds > 0 ? " (\(events * 1000 / milliseconds) events/s)" : ""
        return [
            "rebuilt \(targets.map(\.rawValue).joined(separator: ", ")): "
                + "\(events) events in \(milliseconds) ms\(rate)"
        ] + status.textLines()
    }
}
