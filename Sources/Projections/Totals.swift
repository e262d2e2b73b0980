/// Changes to the all-time totals a fold emits with each event: counters by key and exact
/// histograms of durations (for percentiles). Summed per batch, then added to the
/// `pj_*_total_gG` and `pj_*_hist_gG` tables in the batch's transaction, so the whole-log answer
/// of every query is a few indexed reads however long the log is.
///
/// Keys are `|`-separated: a metric name and the attributes it is counted by (see each fold).
public struct TotalsDelta: Sendable, Equatable {
    public var counts: [String: Int64] = [:]
    /// Per-event counters, keyed by metric and up to two components; turned into `counts`
    /// keys once per batch (``flattened``), not once per event.
    public var eventCounts: [EventKey: Int64] = [:]
    /// (metric, duration in ms) → how many.
    public var histogram: [HistogramKey: Int64] = [:]

    public init() {}

    public struct HistogramKey: Sendable, Hashable {
        public var metric: String
        public var value: Int64
    }

    /// The per-event metrics and how many components their keys have.
    public enum Metric: UInt8, Sendable, Hashable {
        case req, screen, timeout, perr, rerr, otp, rej, aexp, offered, sel, act, fail, cancel

        var name: String {
            switch self {
            case .req: return "req"
            case .screen: return "screen"
            case .timeout: return "timeout"
            case .perr: return "perr"
            case .rerr: return "rerr"
            case .otp: return "otp"
            case .rej: return "rej"
            case .aexp: return "aexp"
            case .offered: return "offered"
            case .sel: return "sel"
            case .act: return "act"
            case .fail: return "fail"
            case .cancel: return "cancel"
            }
        }

        var components: Int {
            switch self {
            case .req, .timeout, .perr, .sel: return 2
            case .screen, .rerr, .otp, .rej, .aexp, .offered, .act, .fail, .cancel: return 1
            }
        }
    }

    public struct EventKey: Sendable, Hashable {
        public var metric: Metric
        public var a: String
        public var b: String
    }

    mutating func add(_ key: String, _ n: Int64 = 1) { counts[key, default: 0] += n }

    mutating func count(_ metric: Metric, _ a: String, _ b: String = "") {
        eventCounts[EventKey(metric: metric, a: a, b: b), default: 0] += 1
    }

    /// All counters under their string keys.
    var flattened: [String: Int64] {
        var result = counts
        for (key, n) in eventCounts {
            let text = key.metric.components == 2 ? TotalsKey.make(key.metric.name, key.a, key.b)
                                                  : TotalsKey.make(key.metric.name, key.a)
            result[text, default: 0] += n
        }
        return result
    }

    mutating func observe(_ metric: String, _ value: Int64, _ n: Int64 = 1) {
        histogram[HistogramKey(metric: metric, value: value), default: 0] += n
    }

    /// Adds `after` and subtracts `before`: the change of a stream's contributions.
    mutating func move(from before: StreamContribution, to after: StreamContribution) {
        guard before != after else { return }
        for (key, n) in before.counts { add(key, -n) }
        for (key, n) in after.counts { add(key, n) }
        for (metric, value) in before.observations { observe(metric, value, -1) }
        for (metric, value) in after.observations { observe(metric, value, 1) }
    }
}

/// What one stream adds to the totals given its current state (its final outcome, say): when
/// the state changes, the old contribution is taken out and the new one put in.
public struct StreamContribution: Sendable, Equatable {
    public var counts: [(String, Int64)] = []
    public var observations: [(String, Int64)] = []

    public init() {}

    public static func == (lhs: StreamContribution, rhs: StreamContribution) -> Bool {
        lhs.counts.elementsEqual(rhs.counts, by: { $0 == $1 })
            && lhs.observations.elementsEqual(rhs.observations, by: { $0 == $1 })
    }
}
