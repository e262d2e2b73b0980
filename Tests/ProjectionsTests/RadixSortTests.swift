import Testing

@testable import Projections

/// The folds sort times, sids and fact keys with `RadixSort`: it must give the comparison
/// sort's order (stable for equal keys) for every size, spread and digit pattern.
@Suite("Radix sort of a batch's keys")
struct RadixSortTests {
    @Test(
        "the order of keys equals a stable comparison sort, below and above the threshold",
        arguments: [0, 1, 2, 100, RadixSort.threshold - 1, RadixSort.threshold, 5_000, 70_000])
    func orderEqualsStableComparisonSort(count: Int) {
        var random = TestRandom(seed: UInt64(count) &+ 7)
        // Keys with few distinct values (ties), a narrow spread, a wide one and every bit.
        let spreads: [UInt64] = [3, 1 << 20, 1 << 40, UInt64.max]
        for spread in spreads {
            var keys: [UInt64] = []
            for _ in 0..<count {
                let r = random.next()
                keys.append(spread == UInt64.max ? r : (r % spread) &+ (1 << 50))
            }
            let expected: [Int32] = (0..<Int32(count)).sorted { (l: Int32, r: Int32) -> Bool in
                let a = keys[Int(l)]
                let b = keys[Int(r)]
                return a != b ? a < b : l < r
            }
            #expect(RadixSort.order(keys) == expected, "spread \(spread)")
        }
    }

    @Test(
        "sorting times gives the comparison sort's result, negative times and the whole Int64 range included",
        arguments: [1, 50, 3_000, 40_000])
    func sortEqualsComparisonSort(count: Int) {
        var random = TestRandom(seed: UInt64(count))
        let cases: [[Int64]] = [
            (0..<count).map { _ in 1_795_939_200_000 + Int64(random.next() % 3_600_000) }, // an hour of a log
            (0..<count).map { _ in Int64(bitPattern: random.next()) }, // anything, both signs
            (0..<count).map { i in i % 2 == 0 ? Int64.min + Int64(i) : Int64.max - Int64(i) }, // the extremes
            (0..<count).map { _ in -5 + Int64(random.next() % 11) } // around zero, many ties
        ]
        for values in cases {
            var sorted = values
            RadixSort.sort(&sorted)
            #expect(sorted == values.sorted())
        }
    }

    @Test("facts are ordered by kind, then time, then seq, by the radix path and the fallback alike")
    func factOrderByKindTimeSeq() {
        var random = TestRandom(seed: 11)
        let count = 10_000
        let kinds = (0..<count).map { _ in Int64(1 + random.next() % 5) }
        let times = (0..<count).map { _ in 1_795_939_200_000 + Int64(random.next() % 600_000) }
        let ascendingSeqs = (0..<count).map { Int64($0) << 20 }
        let shuffledSeqs = ascendingSeqs.reversed().map { $0 } // not in log order: the fallback
        for seqs in [ascendingSeqs, shuffledSeqs] {
            let expected: [Int] = (0..<count).sorted { (l: Int, r: Int) -> Bool in
                if kinds[l] != kinds[r] { return kinds[l] < kinds[r] }
                if times[l] != times[r] { return times[l] < times[r] }
                return seqs[l] < seqs[r]
            }
            let order = FactOrder.sorted(count: count, kind: { kinds[$0] }, time: { times[$0] }, seqs: seqs)
            #expect(order == expected)
        }
    }
}
