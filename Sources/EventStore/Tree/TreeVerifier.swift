/// The part of `verify()` that holds the stored Merkle tree to the log: fed every event's leaf
/// hash in position order, it rebuilds the tiles (`TreeTiles`) one at a time and compares each
/// with the stored one, so a tree that does not match the events (tiles edited, or a log
/// rewritten under tiles kept from before) fails with `.integrity`. Memory: one tile per level.
struct TreeVerifier {
    private let hasher: ChainHasher
    /// The tile being rebuilt at each level, and its index.
    private var tiles: [[UInt8]] = []
    private var indexes: [Int64] = []
    private var leaf = ChainHasher.zeroHash
    /// A full leaf tile may be absent: the file keeps only its root, in the tile above, which is
    /// compared as any other.
    private let leafTilesElided: Bool

    init(hasher: ChainHasher, leafTilesElided: Bool = false) {
        self.hasher = hasher
        self.leafTilesElided = leafTilesElided
    }

    /// Adds the next event's leaf; `storedTile(level, index)` reads a stored tile (empty when
    /// there is none) in the same snapshot as the events.
    mutating func add(
        _ event: RecordedEvent,
        storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]
    ) throws(EventStoreError) {
        try push(hasher.leafHash(of: event), level: 0, storedTile: storedTile)
    }

    /// Adds the leaf hashes of the next events (32 bytes each, in position order), made elsewhere
    /// (`ScanChainCheck`): copied into the level-0 tile a tile's worth at a time.
    mutating func add(
        leafHashes: [UInt8],
        storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]
    ) throws(EventStoreError) {
        precondition(leafHashes.count % 32 == 0, "leaf hashes are 32 bytes each")
        var start = 0
        while start < leafHashes.count {
            openLevel(0)
            let end = min(leafHashes.count, start + TreeTiles.tileBytes - tiles[0].count)
            tiles[0].append(contentsOf: leafHashes[start..<end])
            start = end
            try completeIfFull(level: 0, storedTile: storedTile)
        }
    }

    private mutating func push(
        _ node: [UInt8], level: Int,
        storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]
    ) throws(EventStoreError) {
        openLevel(level)
        tiles[level].append(contentsOf: node)
        try completeIfFull(level: level, storedTile: storedTile)
    }

    /// Starts `level`'s first tile when the tree reaches it.
    private mutating func openLevel(_ level: Int) {
        if tiles.count == level {
            tiles.append([])
            indexes.append(0)
        }
    }

    /// A full tile at `level`: compared with the stored one, then its root pushed one level up.
    private mutating func completeIfFull(
        level: Int, storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]
    ) throws(EventStoreError) {
        guard tiles[level].count == TreeTiles.tileBytes else { return }
        try compare(level: level, storedTile: storedTile)
        let parent = TreeTiles.root(of: tiles[level], hasher: hasher)
        tiles[level].removeAll(keepingCapacity: true)
        indexes[level] += 1
        try push(parent, level: level + 1, storedTile: storedTile)
    }

    /// After the last event: the partial tiles at the edge must be stored exactly, and nothing
    /// beyond them.
    func finish(storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8]) throws(EventStoreError) {
        for level in tiles.indices {
            try compare(level: level, storedTile: storedTile)
            if !tiles[level].isEmpty, try !storedTile(level, indexes[level] + 1).isEmpty {
                throw mismatch(level: level, index: indexes[level] + 1, "is stored beyond the end of the log")
            }
        }
        if try !storedTile(tiles.count, 0).isEmpty {
            throw mismatch(level: tiles.count, index: 0, "is stored beyond the end of the log")
        }
    }

    private func compare(level: Int, storedTile: (Int, Int64) throws(EventStoreError) -> [UInt8])
        throws(EventStoreError)
    {
        let stored = try storedTile(level, indexes[level])
        let rebuilt = tiles[level]
        if leafTilesElided && level == 0 && stored.isEmpty && rebuilt.count == TreeTiles.tileBytes { return }
        guard stored == rebuilt else {
            // A tile that holds the rebuilt one and more (a log cut back under its tree), or less,
            // fails at the first hash one of them lacks; any other at the tile's first position.
            let common = min(stored.count, rebuilt.count)
            let prefix = stored[..<common] == rebuilt[..<common]
            throw mismatch(
                level: level, index: indexes[level], hash: prefix ? common / 32 : 0,
                "holds \(stored.count / 32) hashes that are not the tree of the events it covers")
        }
    }

    /// `.integrity` at the first position the tile's hash number `hash` covers (0: the tile's).
    private func mismatch(level: Int, index: Int64, hash: Int = 0, _ what: String) -> EventStoreError {
        let first = index << (8 * (level + 1)) + 1
        let bad = (index << 8 + Int64(hash)) << (8 * level) + 1
        return .integrity(
            at: bad,
            "the journal's Merkle tree tile (\(level), \(index)) \(what) "
                + "(from position \(first)): the tree was changed behind the store's back, or the log cut back "
                + "under it")
    }
}
