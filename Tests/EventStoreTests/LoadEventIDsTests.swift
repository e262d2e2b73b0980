import Foundation
import Testing

@testable import EventStore

/// `LoadEventIDs`: the ids of a journal load, sorted in runs as transactions commit and merged
/// in the order of the stored 16-byte ids.
@Suite("Journal load id runs")
struct LoadEventIDsTests {
    /// A deterministic scramble of n into 64 bits.
    static func word(_ n: UInt64) -> UInt64 {
        var x = n &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    static func ids(in directory: TemporaryDirectory, runEntries: Int = 4, readEntries: Int = 3) throws -> LoadEventIDs
    {
        try LoadEventIDs(beside: directory.file("load.db"), runEntries: runEntries, readEntries: readEntries)
    }

    static func all(_ ids: LoadEventIDs) throws -> [LoadEventIDs.Entry] {
        var merge = try ids.merged()
        var entries: [LoadEventIDs.Entry] = []
        while let entry = try merge.next() { entries.append(entry) }
        return entries
    }

    @Test
    func committedIDsComeOutInTheOrderOfTheirStoredBytesAcrossRunsAndBlocks() throws {
        let directory = TemporaryDirectory.make()
        let ids = try Self.ids(in: directory)
        var expected: [(bytes: [UInt8], position: Int64)] = []
        var position: Int64 = 0
        for run in 0..<9 {
            for _ in 0..<(run * 7 % 11) { // runs of 0 to 10 entries, some empty
                position += 1
                // Some ids share their first word, so the second decides.
                let high = Self.word(UInt64(position % 5 == 0 ? 1 : position))
                let low = Self.word(UInt64(position) + 1_000_000)
                ids.add(.packed(high, low), position: position)
                expected.append(
                    (
                        withUnsafeBytes(of: high.bigEndian, Array.init)
                            + withUnsafeBytes(of: low.bigEndian, Array.init), position
                    ))
            }
            ids.commitPending()
        }
        let merged = try Self.all(ids)
        let sorted = expected.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        #expect(merged.count == sorted.count)
        #expect(merged.map(\.position) == sorted.map(\.position))
        #expect(ids.canMerge)
    }

    @Test
    func idsHandedOverWholeJoinRunsWithTheirPositionsAndComeOutInOrder() throws {
        let directory = TemporaryDirectory.make()
        // Runs of 5 entries gather several batches, and a batch may straddle two runs.
        let ids = try Self.ids(in: directory, runEntries: 5, readEntries: 2)
        var expected: [(high: UInt64, position: Int64)] = []
        var head: Int64 = 0
        for batch in 0..<7 {
            let count = 1 + batch % 3
            var entries: [LoadEventIDs.Entry] = []
            for index in 0..<count { // in the batch's order, not sorted
                let high = Self.word(UInt64(head) + UInt64(index))
                entries.append(LoadEventIDs.Entry(high: high, low: 0, position: Int64(index)))
                expected.append((high, head + 1 + Int64(index)))
            }
            ids.addCommitted(entries, positionBase: head + 1, packed: true)
            head += Int64(count)
        }
        let merged = try Self.all(ids)
        let sorted = expected.sorted { $0.high < $1.high }
        #expect(merged.map(\.high) == sorted.map(\.high))
        #expect(merged.map(\.position) == sorted.map(\.position))
        #expect(ids.canMerge)
    }

    @Test
    func aBatchWithAnIDThatDidNotPackSendsTheLoadToSQLitesOwnSort() throws {
        let directory = TemporaryDirectory.make()
        let ids = try Self.ids(in: directory)
        ids.addCommitted([LoadEventIDs.Entry(high: 1, low: 2, position: 0)], positionBase: 1, packed: true)
        #expect(ids.canMerge)
        ids.addCommitted([LoadEventIDs.Entry(high: 3, low: 4, position: 0)], positionBase: 2, packed: false)
        #expect(!ids.canMerge)
    }

    @Test
    func idsOfARolledBackTransactionOrSavepointAreNotKept() throws {
        let directory = TemporaryDirectory.make()
        let ids = try Self.ids(in: directory)
        ids.add(.packed(5, 0), position: 1)
        ids.commitPending()
        ids.add(.packed(4, 0), position: 2)
        ids.add(.packed(3, 0), position: 3)
        ids.dropPending() // the transaction rolled back
        ids.add(.packed(2, 0), position: 2)
        ids.add(.packed(1, 0), position: 3)
        ids.add(.packed(0, 0), position: 4)
        ids.dropPending(after: 2) // a savepoint taken at position 2 rolled back
        ids.commitPending()
        #expect(try Self.all(ids).map(\.position) == [2, 1])
        #expect(try Self.all(ids).map(\.high) == [2, 5])
    }

    @Test
    func anIDThatDoesNotPackSendsTheLoadToSQLitesOwnSort() throws {
        let directory = TemporaryDirectory.make()
        let ids = try Self.ids(in: directory)
        ids.add(.packed(1, 2), position: 1)
        #expect(ids.canMerge)
        ids.add(.text("ABCDEF00-0000-4000-8000-000000000001"), position: 2)
        #expect(!ids.canMerge)
    }

    @Test
    func theRunsLeaveNoFileBehind() throws {
        let directory = TemporaryDirectory.make()
        var ids: LoadEventIDs? = try Self.ids(in: directory)
        ids?.add(.packed(1, 2), position: 1)
        ids?.commitPending()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        ids = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}
