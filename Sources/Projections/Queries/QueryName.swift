import JournalCore

/// The analytics queries of `journal query NAME`.
public enum QueryName: String, Sendable, CaseIterable {
    case otp, timeouts, funnel, challenges, errors, idv, latency, rates

    /// One line for help texts.
    public var summary: String {
        switch self {
        case .otp: return "OTP submissions, resends and outcomes (3DS), by method and rejection (tokenization)"
        case .timeouts: return "challenge timeouts by directory server and UI type; expired OTPs and activations"
        case .funnel: return "3DS transactions: frictionless, challenged, outcomes, by directory server and version"
        case .challenges: return "per challenge UI type: screens, requests by action, outcomes, mean rounds"
        case .errors: return "protocol errors by code and component, runtime errors by code"
        case .idv: return "per ID&V method: offered, selected, re-selected, activated, failed; time to activation"
        case .latency: return "challenge and activation durations, p50/p95/p99, by directory server and method"
        case .rates: return "3DS and digitization rates of the streams started in the window (docs/spec.md §7)"
        }
    }

    /// True when the query reads projection `name`.
    public func readsProjection(_ name: ProjectionName) -> Bool { projections.contains(name) }

    /// The projections the query reads.
    var projections: [ProjectionName] {
        switch self {
        case .otp, .timeouts, .latency, .rates: return [.events, .threeDS, .card]
        case .funnel, .challenges, .errors: return [.events, .threeDS]
        case .idv: return [.events, .card]
        }
    }
}

/// A query's answer with what it covers: the window and how many log events lie in it.
public struct QueryOutput: Sendable {
    public var name: QueryName
    public var window: QueryWindow
    /// Events in the log whose occurredAt lies in the window.
    public var events: Int64
    public var report: any QueryReport
    /// `--every`: the window actually split into buckets (open bounds closed on the data).
    public var bucketWindow: QueryWindow?
}

extension ProjectionEngine {
    /// Catches the query's projections up, then answers it from one consistent snapshot.
    public func run(_ name: QueryName, window: QueryWindow = .all) throws(ProjectionError) -> QueryOutput {
        try snapshot(name.projections) { () throws(ProjectionError) -> QueryOutput in
            QueryOutput(
                name: name, window: window, events: try eventCountInSnapshot(window),
                report: try report(name, window))
        }
    }

    /// The query answered once per `every` bucket of the window (spec §7). An open bound is
    /// closed on the data: for `rates` the earliest cohort start and just after the latest; for
    /// the others the first and last minute holding an event.
    public func run(_ name: QueryName, window: QueryWindow, every: BucketWidth) throws(ProjectionError) -> QueryOutput {
        try snapshot(name.projections) { () throws(ProjectionError) -> QueryOutput in
            var lo = window.lowerBound
            var hi = window.upperBound
            if window.since == nil || window.until == nil {
                let span =
                    name == .rates
                    ? try cohortSpan()
                    : try EventClockProjection.span(db: db, generation: generation(.events))
                if let span {
                    if window.since == nil { lo = span.lowerBound }
                    if window.until == nil { hi = span.upperBound + 1 }
                } else {
                    (lo, hi) = (0, 0) // nothing to split
                }
            }
            var buckets: [BucketedReport.Bucket] = []
            for bucket in try every.buckets(from: lo, to: hi) {
                let part = QueryWindow(
                    since: Timestamp(millisecondsSinceEpoch: max(bucket.start, lo)),
                    until: Timestamp(millisecondsSinceEpoch: min(bucket.end, hi)))
                buckets.append(
                    BucketedReport.Bucket(
                        start: Timestamp(millisecondsSinceEpoch: bucket.start),
                        end: Timestamp(millisecondsSinceEpoch: bucket.end),
                        events: try eventCountInSnapshot(part), report: try report(name, part)))
            }
            let covered =
                lo < hi
                ? QueryWindow(
                    since: Timestamp(millisecondsSinceEpoch: lo),
                    until: Timestamp(millisecondsSinceEpoch: hi)) : window
            return QueryOutput(
                name: name, window: window, events: try eventCountInSnapshot(window),
                report: BucketedReport(every: every, buckets: buckets), bucketWindow: covered)
        }
    }

    private func report(_ name: QueryName, _ window: QueryWindow) throws(ProjectionError) -> any QueryReport {
        switch name {
        case .otp: return try otpReport(window)
        case .timeouts: return try timeoutsReport(window)
        case .funnel: return try funnelReport(window)
        case .challenges: return try challengesReport(window)
        case .errors: return try errorsReport(window)
        case .idv: return try idvReport(window)
        case .latency: return try latencyReport(window)
        case .rates: return try ratesReport(window)
        }
    }
}
