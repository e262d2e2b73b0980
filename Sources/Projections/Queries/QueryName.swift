/// The analytics queries of `journal query NAME`.
public enum QueryName: String, Sendable, CaseIterable {
    case otp, timeouts, funnel, challenges, errors, idv, latency

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
        }
    }

    /// True when the query reads projection `name`.
    public func readsProjection(_ name: ProjectionName) -> Bool { projections.contains(name) }

    /// The projections the query reads.
    var projections: [ProjectionName] {
        switch self {
        case .otp, .timeouts, .latency: return [.events, .threeDS, .card]
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
}

extension ProjectionEngine {
    /// Catches the query's projections up, then answers it from one consistent snapshot.
    public func run(_ name: QueryName, window: QueryWindow = .all) throws(ProjectionError) -> QueryOutput {
        try snapshot(name.projections) { () throws(ProjectionError) -> QueryOutput in
            let report: any QueryReport
            switch name {
            case .otp: report = try otpReport(window)
            case .timeouts: report = try timeoutsReport(window)
            case .funnel: report = try funnelReport(window)
            case .challenges: report = try challengesReport(window)
            case .errors: report = try errorsReport(window)
            case .idv: report = try idvReport(window)
            case .latency: report = try latencyReport(window)
            }
            return QueryOutput(name: name, window: window, events: try eventCountInSnapshot(window), report: report)
        }
    }
}
