// The journal's Merkle tree and signed checkpoints (contract section 6), for every backend: the
// backends store tiles and checkpoints (`treeTile`, `storeCheckpoint`), and everything here is
// computed from them.
extension EventStore {
    /// The hash of the complete subtree at height `level` with index `index`: the root of the
    /// tree over leaves index·2^level ..< (index + 1)·2^level (positions one more), which must all
    /// be in the journal. Read from one tile.
    /// - Throws: `.invalidInput` for a subtree that is not complete at the head, `.integrity`
    ///   when the stored tile does not hold it.
    public func subtreeHash(level: Int, index: Int64) throws(EventStoreError) -> [UInt8] {
        var tiles = TreeTileReader(store: self)
        return try tiles.subtreeHash(level: level, index: index, size: try treeSize())
    }

    /// The leaf line of the event at `position` (1 … head): its export line, the bytes hashed
    /// into the tree.
    /// - Throws: `.invalidInput` for a position outside the journal.
    public func leafLine(position: Int64) throws(EventStoreError) -> [UInt8] {
        let head = try treeSize()
        guard position >= 1 && position <= head else {
            throw EventStoreError(code: .invalidInput,
                                  message: "position \(position) is not in the journal (positions 1 … \(head))", position: position)
        }
        guard let event = try readAll(from: position, limit: 1).first, event.position == position else {
            throw EventStoreError(code: .integrity, message: "the event at position \(position) is missing", position: position)
        }
        var line: [UInt8] = []
        event.exportLine(into: &line)
        return line
    }

    /// The last checkpoint the journal kept, if any.
    public func latestCheckpoint() throws(EventStoreError) -> StoredCheckpoint? {
        try checkpoints().last
    }
}

/// Reads complete subtree hashes from a store's tiles, each tile once per reader (a proof asks
/// for several subtrees of the same tile).
struct TreeTileReader<Store: EventStore> {
    let store: Store
    private var cache: [TileKey: [UInt8]] = [:]

    private struct TileKey: Hashable {
        var level: Int
        var index: Int64
    }

    init(store: Store) { self.store = store }

    /// The hash of a complete subtree of the tree of `size` leaves (see
    /// `EventStore.subtreeHash(level:index:)`).
    mutating func subtreeHash(level: Int, index: Int64, size: Int64) throws(EventStoreError) -> [UInt8] {
        guard level >= 0, level < 56, index >= 0, index <= (Int64.max >> level) - 1,
              (index + 1) << level <= size else {
            throw EventStoreError(code: .invalidInput,
                                  message: "the subtree at height \(level), index \(index) is not complete in a tree of \(size) events")
        }
        let place = TreeTiles.location(level: level, index: index)
        let key = TileKey(level: place.tileLevel, index: place.tileIndex)
        let tile: [UInt8]
        if let cached = cache[key] {
            tile = cached
        } else {
            tile = try store.treeTile(level: place.tileLevel, index: place.tileIndex)
            cache[key] = tile
        }
        let start = 32 * place.first
        let end = start + 32 * place.count
        guard tile.count >= end else {
            throw EventStoreError(code: .integrity,
                                  message: "the journal's tree tile (\(place.tileLevel), \(place.tileIndex)) holds "
                                      + "\(tile.count / 32) hashes, not the \(end / 32) a tree of \(size) events has")
        }
        if place.count == 1 { return Array(tile[start..<end]) }
        return TreeTiles.root(of: Array(tile[start..<end]), hasher: try ChainHasher())
    }
}
