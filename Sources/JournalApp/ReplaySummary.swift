import EventStore
import JournalCore

/// What `journal replay --all` prints: the streams and events folded, the streams that no longer
/// fold (then exit 6), and the SHA-256 digest of all final states in stream-name order.
package struct ReplaySummary: CommandReport {
    package let streams: Int
    package let events: Int
    package let failures: [(stream: StreamName, failure: StreamReplay.Failure)]
    /// The digest as 64 hex digits.
    package let digest: String
    /// The last position folded; `.max` for the whole log.
    package let untilPosition: Int64

    /// The summary of `report`, which it finishes.
    package init(_ report: ReplayReport, untilPosition: Int64) {
        streams = report.streams
        events = report.events
        failures = report.failures
        digest = report.finish()
        self.untilPosition = untilPosition
    }

    /// Folds every stream of `store` through position `until` (included); `progress` makes the
    /// progress line for the events to replay.
    package static func replayAll(
        _ store: any EventStore, untilPosition until: Int64, progress: (_ total: Int64?) -> ProgressReporter?
    ) throws -> ReplaySummary {
        let progress = progress(min(try store.headPosition(), until))
        var report = ReplayReport()
        defer { progress?.finish(done: Int64(report.events), events: Int64(report.events)) }
        try report.replay(store, untilPosition: until) { done in progress?.update(done: done, events: done) }
        return ReplaySummary(report, untilPosition: until)
    }

    package func json() -> JSONValue {
        var object = JSONObject()
        object["ok"] = .bool(failures.isEmpty)
        object["streams"] = .number(JSONNumber(streams))
        object["events"] = .number(JSONNumber(events))
        if untilPosition != .max { object["untilPosition"] = .number(JSONNumber(untilPosition)) }
        object["failures"] = .array(
            failures.map { item in
                var failure = JSONObject()
                failure["stream"] = .string(item.stream.rawValue)
                failure["version"] = .number(JSONNumber(item.failure.version))
                failure["position"] = .number(JSONNumber(item.failure.position))
                failure["reason"] = .string(item.failure.reason)
                return .object(failure)
            })
        object["digest"] = .string("sha256:" + digest)
        return .object(object)
    }

    package func textLines() -> [String] {
        let scope = untilPosition == .max ? "" : " up to position \(untilPosition)"
        let streamCount = streams == 1 ? "1 stream" : "\(streams) streams"
        let failed = failures.count == 1 ? "1 no longer folds" : "\(failures.count) no longer fold"
        var lines = [
            "replayed \(streamCount), \(events) events\(scope): " + (failures.isEmpty ? "every stream folds" : failed)
        ]
        for item in failures {
            lines.append(
                "  FAILS \(item.stream) at version \(item.failure.version) "
                    + "(position \(item.failure.position)): \(item.failure.reason)")
        }
        lines.append("digest of all final states: sha256:\(digest)")
        return lines
    }

    package var failure: CLIError? {
        guard !failures.isEmpty else { return nil }
        return CLIError(
            .replayFailed,
            failures.map { "\($0.stream) no longer folds at version \($0.failure.version): " + $0.failure.reason },
            hints: ["'journal replay STREAM' shows every step up to the failure"])
    }
}
