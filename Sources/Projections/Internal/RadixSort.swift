/// A stable least-significant-digit radix sort of 64-bit keys, 16 bits a pass, skipping the
/// digits every key shares (a batch's times differ in their low 32 bits or so: two passes).
///
/// The folds sort a batch's occurredAt times, its touched rows by sid and its facts by kind and
/// time: with this a few linear passes instead of a comparison sort's n log n compares
/// (BENCHMARKS.md, "Rebuild path").
enum RadixSort {
    /// Below this many keys the comparison sort is as cheap (the passes' 65,536 counters).
    static let threshold = 2_048

    /// The positions of `keys` in ascending key order; equal keys keep their order.
    static func order(_ keys: [UInt64]) -> [Int32] {
        precondition(keys.count < Int(Int32.max), "too many keys for 32-bit positions")
        var order = (0..<Int32(keys.count)).map { $0 }
        guard keys.count >= threshold else {
            order.sort { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : $0 < $1 }
            return order
        }
        var differing: UInt64 = 0
        let first = keys[0]
        for key in keys { differing |= key ^ first }
        var scratch = [Int32](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 1 << 16)
        var shift: UInt64 = 0
        while shift < 64 {
            defer { shift += 16 }
            guard (differing >> shift) & 0xFFFF != 0 else { continue }
            keys.withUnsafeBufferPointer { keys in
                counts.withUnsafeMutableBufferPointer { counts in
                    order.withUnsafeBufferPointer { from in
                        scratch.withUnsafeMutableBufferPointer { to in
                            for i in 0..<counts.count { counts[i] = 0 }
                            for position in from { counts[Int((keys[Int(position)] >> shift) & 0xFFFF)] += 1 }
                            var total = 0
                            for i in 0..<counts.count {
                                let n = counts[i]
                                counts[i] = total
                                total += n
                            }
                            for position in from {
                                let digit = Int((keys[Int(position)] >> shift) & 0xFFFF)
                                to[counts[digit]] = position
                                counts[digit] += 1
                            }
                        }
                    }
                }
            }
            swap(&order, &scratch)
        }
        return order
    }

    /// Sorts `values` ascending (by their distance from the smallest: any spread up to the
    /// whole `Int64` range).
    static func sort(_ values: inout [Int64]) {
        guard values.count >= threshold else {
            values.sort()
            return
        }
        let low = values.min()!
        let keys = values.map { UInt64(bitPattern: $0 &- low) }
        let order = order(keys)
        values = order.map { Int64(bitPattern: keys[Int($0)]) &+ low }
    }
}
