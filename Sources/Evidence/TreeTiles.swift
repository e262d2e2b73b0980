/// The journal's Merkle tree as stored: tiles in the layout of C2SP tlog-tiles, one row each in
/// `journal_tree(level, idx, hashes)` on both backends.
///
/// Tile (L, i) holds the hashes of the tree's nodes at height 8·L (leaves are height 0) with
/// node indexes i·256 … i·256 + 255, concatenated (32 bytes each); the rightmost tile of a level
/// holds the complete nodes so far and grows as the log does (its old bytes stay a prefix, which
/// the backends' triggers enforce). A tile that fills up hands its root, a node at height
/// 8·L + 8, to level L + 1. So the hash of any complete subtree at height h comes from one tile
/// of level h / 8 (2^(h mod 8) entries folded), and a proof over a tree of 10 M events reads a
/// few rows.
///
/// Every commit appends its events' leaf hashes here (`append`, `EventStore/Tree/TreeTiles+Append.swift`),
/// in the same transaction as the events: a rolled-back append leaves the tiles as they were.
package enum TreeTiles {
    /// Hashes per tile, and the tree heights a level spans.
    package static let width = 256
    package static let heightPerLevel = 8
    package static let tileBytes = width * 32

    /// The partial tiles at the right edge of a tree of `size` leaves, the ones a commit appends
    /// to: for each level with one, its index and how many hashes it holds.
    package static func edge(size: Int64) -> [(level: Int, index: Int64, count: Int)] {
        var edge: [(level: Int, index: Int64, count: Int)] = []
        var nodes = size
        var level = 0
        while nodes > 0 {
            if nodes & 255 != 0 { edge.append((level, nodes >> 8, Int(nodes & 255))) }
            nodes >>= 8
            level += 1
        }
        return edge
    }

    /// Where the hash of the complete subtree at height `level` with index `index` (over leaves
    /// index·2^level ..< (index + 1)·2^level) is: tile (tileLevel, tileIndex), `count` entries
    /// from `first`, to fold into one.
    package static func location(
        level: Int, index: Int64
    ) -> (tileLevel: Int, tileIndex: Int64, first: Int, count: Int) {
        let tileLevel = level / heightPerLevel
        let rest = level % heightPerLevel
        let firstNode = index << rest
        return (tileLevel, firstNode >> 8, Int(firstNode & 255), 1 << rest)
    }

    /// The root of the perfect tree over `hashes` (a power of two of them).
    package static func root(of hashes: [UInt8], hasher: ChainHasher) -> [UInt8] {
        var level = hashes
        var count = level.count / 32
        precondition(count > 0 && count & (count - 1) == 0, "a perfect subtree has a power of two of leaves")
        level.withUnsafeMutableBytes { bytes in
            while count > 1 {
                for pair in 0..<(count / 2) {
                    // Written over the left child: each node only reads entries at or after its own.
                    let left = UnsafeRawBufferPointer(rebasing: bytes[(64 * pair)..<(64 * pair + 32)])
                    let right = UnsafeRawBufferPointer(rebasing: bytes[(64 * pair + 32)..<(64 * pair + 64)])
                    var node = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                    withUnsafeMutableBytes(of: &node) { out in
                        hasher.nodeHash(left, right, into: out)
                        UnsafeMutableRawBufferPointer(rebasing: bytes[(32 * pair)..<(32 * pair + 32)])
                            .copyMemory(from: UnsafeRawBufferPointer(out))
                    }
                }
                count /= 2
            }
        }
        return Array(level[0..<32])
    }
}
