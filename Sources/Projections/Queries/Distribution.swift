import JournalCore

/// Durations in milliseconds, summarized by nearest-rank percentiles (the value at rank
/// ⌈p·n⌉ of the sorted values): exact, and equal to one of the observed values.
public struct Distribution: Sendable, Equatable {
    public var count: Int64
    public var p50: Int64?
    public var p95: Int64?
    public var p99: Int64?

    public init(count: Int64 = 0, p50: Int64? = nil, p95: Int64? = nil, p99: Int64? = nil) {
        self.count = count
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
    }

    /// Summarizes `values`, which must be sorted ascending.
    public init(sorted values: [Int64]) {
        self.init(
            count: Int64(values.count), p50: Self.percentile(values, perMille: 500),
            p95: Self.percentile(values, perMille: 950), p99: Self.percentile(values, perMille: 990))
    }

    /// Nearest rank: the value at index ⌈p·n⌉ − 1 of the sorted values (nil when empty).
    public static func percentile(_ sorted: [Int64], perMille: Int) -> Int64? {
        guard !sorted.isEmpty else { return nil }
        let rank = (perMille * sorted.count + 999) / 1000
        return sorted[max(0, rank - 1)]
    }

    var json: JSONValue {
        ReportJSON.object([
            ("count", ReportJSON.int(count)), ("p50", ReportJSON.optionalInt(p50)),
            ("p95", ReportJSON.optionalInt(p95)), ("p99", ReportJSON.optionalInt(p99))
        ])
    }

    var medianAndP95JSON: [(String, JSONValue)] {
        [("median", ReportJSON.optionalInt(p50)), ("p95", ReportJSON.optionalInt(p95))]
    }
}
