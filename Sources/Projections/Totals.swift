/// Changes to the all-time totals a fold emits with each event: counters by key and exact
/// histograms of durations (for percentiles). Summed per batch, then added to the
/// `pj_*_total_gG` and `pj_*_hist_gG` tables in the batch's transaction, so the whole-log answer
/// of every query is a few indexed reads however long the log is. Each counter and duration
/// also carries the minute of the time that places it in a window, for the time-bucketed copies
/// of the same counters (`pj_*_tb_gG`, `pj_*_tv_gG`, see ``TimeBuckets``).
///
/// Keys are kept as (metric, components) while folding, and turned into their stored text
/// (`|`-separated, see ``TotalsKey``) once per distinct key per batch, not once per event.
public struct TotalsDelta: Sendable, Equatable {
    public var counts: [Key: Int64] = [:]
    /// (metric, duration in ms) → how many.
    public var histogram: [HistogramKey: Int64] = [:]

    public init() {}

    /// The counted metrics and how many components their keys have.
    public enum Metric: UInt8, Sendable, Hashable {
        case req, screen, timeout, perr, rerr, otp, rej, aexp, offered, sel, act, fail, cancel
        case funnel, otptx, ended, rounds, journey, decisions, cohort

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
            case .funnel: return "funnel"
            case .otptx: return "otptx"
            case .ended: return "ended"
            case .rounds: return "rounds"
            case .journey: return "journey"
            case .decisions: return "decisions"
            case .cohort: return "cohort"
            }
        }

        var components: Int {
            switch self {
            case .decisions: return 0
            case .screen, .rerr, .otp, .rej, .aexp, .offered, .act, .fail, .cancel, .otptx, .rounds, .journey: return 1
            case .req, .timeout, .perr, .sel, .ended: return 2
            case .funnel, .cohort: return 5
            }
        }
    }

    /// A counter: a metric and up to five components (unused ones empty), and the minute
    /// (⌊t / 60,000⌋) of the time that places it in a window (``untimed``: counted in the
    /// all-time totals only).
    public struct Key: Sendable, Hashable {
        public var metric: Metric
        public var a = "", b = "", c = "", d = "", e = ""
        public var minute: Int64 = Key.untimed

        public static let untimed = Int64.min

        /// Hashes the metric, the minute and the components the metric uses (the others are
        /// always empty): a key is hashed several times per event, its unused empty strings
        /// were a third of that work.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(metric)
            hasher.combine(minute)
            let used = metric.components
            if used > 0 { hasher.combine(a) }
            if used > 1 { hasher.combine(b) }
            if used > 2 { hasher.combine(c) }
            if used > 3 { hasher.combine(d) }
            if used > 4 { hasher.combine(e) }
        }

        /// The stored key text.
        var text: String {
            var text = metric.name
            let parts = [a, b, c, d, e]
            for part in parts.prefix(metric.components) {
                text += "|"
                text += TotalsKey.escape(part)
            }
            return text
        }
    }

    /// The histogram metrics: challenge duration (`chal`, by directory server `chal|ds`) and
    /// decision to activation (`act`, by method `act|kind`).
    public enum HistogramMetric: UInt8, Sendable, Hashable {
        case chal, act
    }

    public struct HistogramKey: Sendable, Hashable {
        public var metric: HistogramMetric
        /// The group (directory server, method kind); nil for the metric over all groups.
        public var group: String?
        public var value: Int64
        /// The minute of the time that places the value in a window (``Key/untimed``: none).
        public var minute: Int64 = Key.untimed

        /// The stored metric text.
        var metricText: String {
            let name = metric == .chal ? "chal" : "act"
            guard let group else { return name }
            return TotalsKey.make(name, group)
        }
    }

    mutating func count(
        _ metric: Metric, _ a: String = "", _ b: String = "", _ c: String = "", _ d: String = "",
        _ e: String = "", by n: Int64 = 1, at t: Int64?
    ) {
        let minute = t.map { TimeBuckets.minute(of: $0) } ?? Key.untimed
        counts[Key(metric: metric, a: a, b: b, c: c, d: d, e: e, minute: minute), default: 0] += n
    }

    /// Observes a duration: once over all groups (untimed, for the all-time histogram) and once
    /// in its group, at the minute of `t` (for the all-time histogram and the windows). The row
    /// over all groups costs a second upsert per duration, but a percentile over all directory
    /// servers or methods is then read from one metric up to its rank; summed from the groups'
    /// rows at query time it missed the query-time goal on large journals (BENCHMARKS.md,
    /// "Rebuild path").
    mutating func observe(_ metric: HistogramMetric, _ group: String, _ value: Int64, _ n: Int64 = 1, at t: Int64) {
        histogram[HistogramKey(metric: metric, group: nil, value: value), default: 0] += n
        histogram[
            HistogramKey(metric: metric, group: group, value: value, minute: TimeBuckets.minute(of: t)),
            default: 0] += n
    }
}
