import EventStore
import JournalCore
import Projections

/// What the report shows: the JSON answers of `journal query` over one window, taken from one
/// `ProjectionEngine` (the same values `--format json` prints; nothing is computed again), and
/// the window, its event count, and the `--every` width of the rates over time.
package struct ReportData {
    package var window: QueryWindow
    /// Events in the log whose occurredAt lies in the window.
    package var events: Int64
    /// The bucket width of `ratesOverTime` (`journal query rates --every W`).
    package var every: BucketWidth
    /// By source name: `rates`, `ratesOverTime`, `funnel`, `challenges`, `errors`, `latency`,
    /// `idv`, `otp`; each the JSON of `journal query <source> --format json` (`ratesOverTime`
    /// with `--every`).
    var sources: [String: JSONValue]
    /// The point of the log the page describes: head, its time, the latest checkpoint, what was
    /// checked, whether the events are marked simulated.
    var asOf: JournalAsOf

    /// The queries behind the report, by source name.
    static let queries: [(source: String, query: QueryName)] = [
        ("rates", .rates), ("funnel", .funnel), ("challenges", .challenges), ("errors", .errors),
        ("latency", .latency), ("idv", .idv), ("otp", .otp)
    ]

    /// Runs the report's queries over `window`; `asOf` is read from the store beside them.
    package static func load(_ engine: ProjectionEngine, window: QueryWindow, asOf: JournalAsOf) throws(ProjectionError)
        -> ReportData
    {
        var sources: [String: JSONValue] = [:]
        var events: Int64 = 0
        for (source, query) in queries {
            let output = try engine.run(query, window: window)
            sources[source] = output.report.json
            events = output.events
        }
        // The bucket width follows the span the buckets would cover: a day's buckets first
        // (cheap), then the width that draws that span in a few dozen points.
        let daily = try engine.run(.rates, window: window, every: .day)
        var every = BucketWidth.day
        var overTime = daily
        if let covered = daily.bucketWindow, let since = covered.since, let until = covered.until {
            every = width(forSpan: until.millisecondsSinceEpoch - since.millisecondsSinceEpoch)
            if every != .day { overTime = try engine.run(.rates, window: window, every: every) }
        }
        sources["ratesOverTime"] = overTime.report.json
        return ReportData(window: window, events: events, every: every, sources: sources, asOf: asOf)
    }

    /// A minute up to 40 minutes, 5 minutes up to 3 hours, 15 minutes up to 12 hours, an hour
    /// up to 4 days, else a day: between about 8 and 100 points.
    static func width(forSpan milliseconds: Int64) -> BucketWidth {
        let hour: Int64 = 3_600_000
        if milliseconds <= 40 * 60_000 { return .minute }
        if milliseconds <= 3 * hour { return .fiveMinutes }
        if milliseconds <= 12 * hour { return .quarterHour }
        if milliseconds <= 96 * hour { return .hour }
        return .day
    }

    /// The value at a dotted path, `source.key.key…` (array elements by index), nil when absent.
    func value(_ path: String) -> JSONValue? {
        value(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// The value at a path given as its components (keys may hold any character).
    func value(_ components: [String]) -> JSONValue? {
        guard let first = components.first, var current = sources[first] else { return nil }
        for component in components.dropFirst() {
            switch current {
            case let .object(object):
                guard let next = object[component] else { return nil }
                current = next
            case let .array(array):
                guard let index = Int(component), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The keys of the object at `path`, in the JSON's order (sorted by the queries).
    func keys(_ path: String) -> [String] { value(path)?.objectValue?.keys ?? [] }

    /// The integer at `path`, 0 when absent or null.
    func count(_ path: String) -> Int64 { value(path)?.numberValue?.int64 ?? 0 }

    /// The number of elements of the array at `path`.
    func length(_ path: String) -> Int { value(path)?.arrayValue?.count ?? 0 }
}
