import JournalCore

/// The occurredAt window of a query: `since` included, `until` excluded; either may be open.
public struct QueryWindow: Sendable, Equatable, CustomStringConvertible {
    public var since: Timestamp?
    public var until: Timestamp?

    public init(since: Timestamp? = nil, until: Timestamp? = nil) {
        self.since = since
        self.until = until
    }

    /// The whole log.
    public static let all = QueryWindow()

    var lowerBound: Int64 { since?.millisecondsSinceEpoch ?? Int64.min }
    var upperBound: Int64 { until?.millisecondsSinceEpoch ?? Int64.max }

    /// True when `occurredAt` (ms) lies in the window.
    public func contains(_ occurredAt: Int64) -> Bool {
        occurredAt >= lowerBound && occurredAt < upperBound
    }

    public var description: String {
        switch (since, until) {
        case (nil, nil): return "all events"
        case let (since?, nil): return "since \(since)"
        case let (nil, until?): return "until \(until) (excluded)"
        case let (since?, until?): return "\(since) to \(until) (excluded)"
        }
    }
}
