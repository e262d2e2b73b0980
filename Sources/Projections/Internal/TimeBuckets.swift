/// The time buckets of the windowed pre-aggregates: a count (or a duration) is kept under the
/// minute of the time that places it in a window, and again under the 10-minute, hour and day
/// (UTC) that minute lies in. A window `[lo, hi)` is answered from the fewest whole buckets
/// that tile the whole minutes it covers (``cover(_:_:levels:)``), plus the fact rows of the
/// at most two partial minutes its millisecond bounds cut through.
enum TimeBuckets {
    static let millisecondsPerMinute: Int64 = 60_000

    /// Bucket widths in minutes, finest first; each divides the next.
    static let countLevels: [Int64] = [1, 10, 60, 1440]
    /// The levels of the sorted duration lists (a day's list would be rewritten by every batch
    /// of the day; an hour's holds at most an hour of values).
    static let valueLevels: [Int64] = [1, 10, 60]

    /// ⌊a / b⌋ for any sign of `a` (b > 0).
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-(a + 1)) / b) - 1
    }

    /// ⌈a / b⌉ for any sign of `a` (b > 0; `a` > Int64.min).
    static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

    /// Open window bounds are clamped to ±2⁶⁰ ms (36 million years: beyond any occurredAt, which
    /// a timestamp holds in years 0000–9999), so bucket arithmetic cannot overflow.
    static let limit: Int64 = 1 << 60

    static func minute(of t: Int64) -> Int64 { floorDiv(t, millisecondsPerMinute) }

    /// Whole buckets `[first, end)` of the level whose width is `width` minutes.
    struct Run: Equatable {
        var width: Int64
        var first: Int64
        var end: Int64
    }

    /// How a window is answered: whole-bucket runs, and the millisecond ranges `[lo, hi)` left
    /// over (read from the fact rows).
    struct Cover: Equatable {
        var runs: [Run] = []
        var partial: [(lo: Int64, hi: Int64)] = []

        static func == (l: Cover, r: Cover) -> Bool {
            l.runs == r.runs && l.partial.count == r.partial.count
                && zip(l.partial, r.partial).allSatisfy { $0.lo == $1.lo && $0.hi == $1.hi }
        }
    }

    /// Tiles `[lo, hi)` (milliseconds; `Int64.min`/`Int64.max` for open bounds).
    static func cover(_ lo: Int64, _ hi: Int64, levels: [Int64]) -> Cover {
        var cover = Cover()
        let lo = max(lo, -limit)
        let hi = min(hi, limit)
        guard lo < hi else { return cover }
        let firstMinute = ceilDiv(lo, millisecondsPerMinute)
        let endMinute = floorDiv(hi, millisecondsPerMinute)
        guard firstMinute < endMinute else {
            cover.partial = [(lo, hi)]
            return cover
        }
        if lo < firstMinute * millisecondsPerMinute { cover.partial.append((lo, firstMinute * millisecondsPerMinute)) }
        if endMinute * millisecondsPerMinute < hi { cover.partial.append((endMinute * millisecondsPerMinute, hi)) }
        tile(firstMinute, endMinute, levels: levels[...], into: &cover.runs)
        return cover
    }

    /// Tiles the minutes `[a, b)` with the widest aligned buckets first.
    private static func tile(_ a: Int64, _ b: Int64, levels: ArraySlice<Int64>, into runs: inout [Run]) {
        guard a < b, let width = levels.last else { return }
        let first = ceilDiv(a, width)
        let end = floorDiv(b, width)
        guard first < end else {
            tile(a, b, levels: levels.dropLast(), into: &runs)
            return
        }
        tile(a, first * width, levels: levels.dropLast(), into: &runs)
        runs.append(Run(width: width, first: first, end: end))
        tile(end * width, b, levels: levels.dropLast(), into: &runs)
    }
}
