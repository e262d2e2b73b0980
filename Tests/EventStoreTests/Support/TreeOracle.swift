import EventStore

/// The journal's Merkle tree computed the naive way (RFC 6962 §2.1, recursively over the leaf
/// lines read back from the log), to hold the stored tree to.
enum TreeOracle {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { try! EventHashing.sha256(bytes) }
    static func leafHash(_ line: [UInt8]) -> [UInt8] { sha256([0] + line) }
    static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] { sha256([1] + left + right) }

    /// MTH(D[n]) over leaf hashes.
    static func root(_ leaves: ArraySlice<[UInt8]>) -> [UInt8] {
        switch leaves.count {
        case 0: return sha256([])
        case 1: return leaves.first!
        default:
            var split = 1
            while split * 2 < leaves.count { split *= 2 }
            let middle = leaves.startIndex + split
            return nodeHash(root(leaves[..<middle]), root(leaves[middle...]))
        }
    }

    /// Every event's leaf line (its export line), read back from the store.
    static func leafLines(_ store: some EventStore) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var position: Int64 = 1
        while true {
            let page = try store.readAll(from: position, limit: 10_000)
            for event in page {
                var line: [UInt8] = []
                event.exportLine(into: &line)
                lines.append(line)
            }
            guard let last = page.last else { return lines }
            position = last.position + 1
        }
    }

    static func leafHashes(_ store: some EventStore) throws -> [[UInt8]] {
        try leafLines(store).map(leafHash)
    }

    /// The naive root of the store's whole log.
    static func root(of store: some EventStore) throws -> [UInt8] {
        let leaves = try leafHashes(store)
        return root(leaves[...])
    }

    /// The root of the tree of `size` composed from the store's complete subtrees (one per bit
    /// of `size`, largest first, folded from the right).
    static func storedRoot(_ store: some EventStore, size: Int64) throws -> [UInt8] {
        guard size > 0 else { return sha256([]) }
        var subtrees: [[UInt8]] = []
        var start: Int64 = 0
        for level in stride(from: 62, through: 0, by: -1) where size & (Int64(1) << level) != 0 {
            subtrees.append(try store.subtreeHash(level: level, index: start >> level))
            start += Int64(1) << level
        }
        var root = subtrees.removeLast()
        while let left = subtrees.popLast() { root = nodeHash(left, root) }
        return root
    }
}
