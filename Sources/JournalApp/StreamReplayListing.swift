import EventStore
import JournalCore

/// What `journal replay STREAM` prints: every step of one stream's fold (version, position,
/// occurredAt, type, the state after it) and the final state, or the state before the first
/// event that no longer folds (then exit 6). The events come from the journal, or from a
/// checked bundle (`replay --bundle`), with the same output.
package struct StreamReplayListing: CommandReport {
    package let stream: StreamName
    package let outcome: StreamReplay.Outcome
    /// The steps, kept for the format that prints them only.
    private let steps: [JSONValue]
    private let rows: [[String]]

    /// Folds the events `pages` gives through position `until` (included), keeping each step as
    /// `format` prints it.
    package init(
        _ stream: StreamName, pages: (_ fromVersion: Int64, _ limit: Int) throws -> [RecordedEvent],
        untilPosition until: Int64, format: OutputFormat
    ) throws {
        var steps: [JSONValue] = []
        var rows: [[String]] = [["version", "position", "occurredAt", "type", "state after"]]
        outcome = try StreamReplay.fold(stream, pages: pages, untilPosition: until) { event, fold in
            switch format {
            case .json:
                steps.append(StreamReplay.stepJSON(event, fold))
            case .text:
                rows.append([
                    String(event.version), String(event.position), event.occurredAt.description, event.type,
                    fold.stepDescription
                ])
            }
        }
        self.stream = stream
        self.steps = steps
        self.rows = rows
    }

    /// The stream as the journal `store` holds it.
    package init(_ stream: StreamName, in store: any EventStore, untilPosition until: Int64, format: OutputFormat)
        throws
    {
        try self.init(
            stream,
            pages: { version, limit in try store.read(stream: stream, from: version, direction: .forward, limit: limit)
            },
            untilPosition: until, format: format)
    }

    package func json() -> JSONValue { StreamReplay.json(stream, outcome, steps: steps) }

    package func textLines() -> [String] {
        var lines = ["replay of \(stream): \(outcome.events) events"]
        lines += TextRendering.table(rows, rightAligned: [0, 1]).map { "  " + $0 }
        if let failure = outcome.failure {
            lines.append("  FAILS at version \(failure.version) (position \(failure.position)): " + failure.reason)
        }
        lines.append(outcome.failure == nil ? "final state:" : "state before the failure:")
        return lines + TextRendering.keyValueLines(outcome.summary)
    }

    package var failure: CLIError? {
        outcome.failure.map {
            CLIError(.replayFailed, "\(stream) no longer folds at version \($0.version): \($0.reason)")
        }
    }
}
