/// The bucket lengths of `--every` (spec §7): UTC-aligned, so an hour bucket starts on the
/// hour and a day bucket at midnight UTC.
public enum BucketWidth: String, Sendable, CaseIterable {
    case minute = "1m"
    case fiveMinutes = "5m"
    case quarterHour = "15m"
    case hour = "1h"
    case day = "1d"

    public var milliseconds: Int64 {
        switch self {
        case .minute: return 60_000
        case .fiveMinutes: return 300_000
        case .quarterHour: return 900_000
        case .hour: return 3_600_000
        case .day: return 86_400_000
        }
    }

    /// At most this many buckets per answer (a year of minutes is 525,600).
    public static let limit: Int64 = 100_000

    /// The aligned buckets `[start, end)` that start before `hi` and end after `lo`, in time
    /// order (none when `lo >= hi`).
    func buckets(from lo: Int64, to hi: Int64) throws(ProjectionError) -> [(start: Int64, end: Int64)] {
        guard lo < hi else { return [] }
        let width = milliseconds
        let first = TimeBuckets.floorDiv(lo, width)
        let end = TimeBuckets.ceilDiv(hi, width)
        guard end - first <= Self.limit else {
            throw ProjectionError(
                .tooLarge,
                "--every \(rawValue) would print \(end - first) buckets; "
                    + "the limit is \(Self.limit)")
        }
        return (first..<end).map { (start: $0 * width, end: ($0 + 1) * width) }
    }
}
