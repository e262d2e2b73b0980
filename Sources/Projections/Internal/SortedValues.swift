/// Sorted durations kept as portable text (no blob: the same column type on SQLite and
/// PostgreSQL): a header letter, then every value in a fixed number of 6-bit digits
/// (`0` + digit, ASCII 48–111). `S`: 6 digits of v + 2³⁵ (|v| < 2³⁵ ms, about a year);
/// `L`: 11 digits of v with its sign bit flipped (any Int64).
enum SortedValues {
    private static let shortBias: Int64 = 1 << 35

    static func encode(_ values: [Int64]) -> String {
        let short = values.allSatisfy { $0 >= -shortBias && $0 < shortBias }
        let width = short ? 6 : 11
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 + values.count * width)
        bytes.append(short ? UInt8(ascii: "S") : UInt8(ascii: "L"))
        for value in values {
            let u = short ? UInt64(value + shortBias) : UInt64(bitPattern: value) ^ (1 << 63)
            var shift = (width - 1) * 6
            while shift >= 0 {
                bytes.append(48 + UInt8((u >> UInt64(shift)) & 63))
                shift -= 6
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The values of `text`; nil when it is not this encoding (a damaged row).
    static func decode(_ text: String) -> [Int64]? {
        var text = text
        return text.withUTF8 { bytes -> [Int64]? in
            guard let header = bytes.first else { return nil }
            let short: Bool
            switch header {
            case UInt8(ascii: "S"): short = true
            case UInt8(ascii: "L"): short = false
            default: return nil
            }
            let width = short ? 6 : 11
            guard (bytes.count - 1) % width == 0 else { return nil }
            var values: [Int64] = []
            values.reserveCapacity((bytes.count - 1) / width)
            var i = 1
            while i < bytes.count {
                var u: UInt64 = 0
                for j in i..<(i + width) {
                    let digit = bytes[j] &- 48
                    guard digit < 64 else { return nil }
                    u = u << 6 | UInt64(digit)
                }
                values.append(short ? Int64(u) - shortBias : Int64(bitPattern: u ^ (1 << 63)))
                i += width
            }
            return values
        }
    }

    /// Inserts `value` into the sorted `values`, keeping them sorted.
    static func insert(_ value: Int64, into values: inout [Int64]) {
        var i = values.count
        while i > 0 && values[i - 1] > value { i -= 1 }
        values.insert(value, at: i)
    }

    /// `values` (sorted) with `changes` applied (value → how many to add, or to take out when
    /// negative), sorted.
    static func applying(_ changes: [Int64: Int64], to values: [Int64]) -> [Int64] {
        var removals: [Int64: Int64] = [:]
        var additions: [Int64] = []
        for (value, n) in changes {
            if n < 0 { removals[value] = -n }
            if n > 0 { additions.append(contentsOf: repeatElement(value, count: Int(n))) }
        }
        additions.sort()
        var result: [Int64] = []
        result.reserveCapacity(values.count + additions.count)
        var j = 0
        for value in values {
            if let left = removals[value], left > 0 {
                removals[value] = left - 1
                continue
            }
            while j < additions.count && additions[j] < value {
                result.append(additions[j])
                j += 1
            }
            result.append(value)
        }
        result.append(contentsOf: additions[j...])
        return result
    }

    /// Nearest-rank percentiles over the union of sorted lists, without merging them: the
    /// smallest v with at least `rank` values ≤ v (a binary search on v, counting by binary
    /// search in each list), which is always an observed value.
    static func distribution(_ lists: [[Int64]]) -> Distribution {
        var lists = lists.filter { !$0.isEmpty }
        // Many short lists (minutes) cost a binary search each per step: merged into one first.
        if lists.count > 32 {
            let short = lists.filter { $0.count < 256 }
            if short.count > 1 { lists = lists.filter { $0.count >= 256 } + [short.flatMap { $0 }.sorted()] }
        }
        let count = lists.reduce(0) { $0 + Int64($1.count) }
        guard count > 0 else { return Distribution() }
        if lists.count == 1 { return Distribution(sorted: lists[0]) }
        let low = lists.map { $0[0] }.min()!
        let high = lists.map { $0[$0.count - 1] }.max()!
        func atRank(_ rank: Int64) -> Int64 {
            var lo = low
            var hi = high // the answer lies in [lo, hi]
            while lo < hi {
                let mid = lo + Int64((UInt64(bitPattern: hi &- lo)) / 2)
                var seen: Int64 = 0
                for list in lists { seen += Int64(upperBound(list, mid)) }
                if seen >= rank { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        func percentile(_ perMille: Int64) -> Int64 { atRank(max(1, (perMille * count + 999) / 1000)) }
        return Distribution(count: count, p50: percentile(500), p95: percentile(950), p99: percentile(990))
    }

    /// How many elements of the sorted `list` are ≤ `value`.
    private static func upperBound(_ list: [Int64], _ value: Int64) -> Int {
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
