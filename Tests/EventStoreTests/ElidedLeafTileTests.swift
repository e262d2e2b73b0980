import JournalCore
import Testing

@testable import EventStore

/// A new SQLite journal keeps no full leaf tile: its root is in the tile above, and a read of it
/// hashes its 256 events again. Roots, proofs and `verify` are those of the whole tree.
@Suite("Leaf tiles made from the events")
struct ElidedLeafTileTests {
    @Test func aNewJournalKeepsOnlyThePartialLeafTileAndReadsTheFullOnesFromItsEvents() throws {
        let path = TemporaryDirectory.make().file("journal.db")
        let store = try SQLiteEventStore(path: path)
        // Commits that cross tile boundaries, one that fills a tile exactly, and a large one.
        var n = 0
        for size in [100, 156, 300, 212, 1, 600] {
            try store.append(Fixture.events(n..<(n + size)), to: Fixture.stream(n % 7), expectedVersion: .any)
            n += size
        }
        let raw = try SQLiteConnection(path: path)
        #expect(try raw.scalarInt("SELECT count(*) FROM journal_tree WHERE level = 0") == 1)
        #expect(try raw.scalarInt("SELECT max(length(hashes)) FROM journal_tree WHERE level = 0") == 32 * (1369 % 256))
        try TreeConformanceTests.expectTreeMatchesLog(store, sizes: [1, 255, 256, 257, 512, 1024, 1280, 1369])
        let leaves = try TreeOracle.leafHashes(store)
        let root = TreeOracle.root(leaves[...])
        for index in [0, 255, 256, 700, 1368] {
            let proof = try store.inclusionProof(index: Int64(index), size: 1369)
            try Merkle.verifyInclusion(
                leafHash: leaves[index], index: Int64(index), size: 1369, proof: proof, root: root)
        }
        _ = try store.verify()
    }
}
