/// The order in which a batch's fact rows are inserted: by their table's key (kind, occurredAt,
/// then their unique sequence number), so that the inserts of a batch go into a few runs of
/// the clustered fact table (one per kind, mostly at its end) instead of page by page at random.
///
/// The fact tables are `WITHOUT ROWID` tables whose primary key is the order their queries read
/// (`kind, t, a, b, sid, seq`): no secondary index to sort when a rebuild swaps in. The texts
/// `a` and `b` are left out of this sort (ties of kind and millisecond are rare): it only needs
/// to be close to the key order, and compares integers only.
enum FactOrder {
    /// The indices of `count` facts sorted by (kind, time, seq).
    static func sorted(count: Int, kind: (Int) -> Int64, time: (Int) -> Int64, seqs: [Int64]) -> [Int] {
        if let order = radixSorted(count: count, kind: kind, time: time, seqs: seqs) { return order }
        var keys: [(kind: Int64, time: Int64, seq: Int64, index: Int)] = []
        keys.reserveCapacity(count)
        for index in 0..<count { keys.append((kind(index), time(index), seqs[index], index)) }
        keys.sort { ($0.kind, $0.time, $0.seq) < ($1.kind, $1.time, $1.seq) }
        return keys.map(\.index)
    }

    /// The same order by one radix sort of (kind, time) keys, when the facts come in seq order
    /// (a fold appends them in log order: ties of kind and time then keep it, the sort being
    /// stable), the kinds are small and the batch's times span less than 2⁴⁸ ms; else nil.
    private static func radixSorted(
        count: Int, kind: (Int) -> Int64, time: (Int) -> Int64,
        seqs: [Int64]
    ) -> [Int]? {
        guard count > 0 else { return [] }
        var low = Int64.max
        var high = Int64.min
        for index in 0..<count {
            let t = time(index)
            low = min(low, t)
            high = max(high, t)
            guard kind(index) >= 0 && kind(index) < 1 << 15 else { return nil }
            guard index == 0 || seqs[index - 1] < seqs[index] else { return nil }
        }
        let span = high.subtractingReportingOverflow(low)
        guard !span.overflow, span.partialValue < 1 << 48 else { return nil }
        var keys: [UInt64] = []
        keys.reserveCapacity(count)
        for index in 0..<count {
            keys.append(UInt64(kind(index)) << 48 | UInt64(time(index) - low))
        }
        return RadixSort.order(keys).map { Int($0) }
    }
}
