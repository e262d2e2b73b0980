// The journal's Merkle tree and signed checkpoints (spec §6), for every backend: the
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

    /// The tree's size and root at the head.
    public func treeHead() throws(EventStoreError) -> TreeHead {
        let size = try treeSize()
        var tiles = TreeTileReader(store: self)
        return TreeHead(size: size, root: try tiles.root(size: size))
    }

    /// The root of the tree of the log's first `size` events (0 … head; SHA-256 of nothing for 0).
    /// - Throws: `.invalidInput` for a size outside 0 … head.
    public func treeRoot(size: Int64) throws(EventStoreError) -> [UInt8] {
        try checkSize(size, "a tree of size \(size)")
        var tiles = TreeTileReader(store: self)
        return try tiles.root(size: size)
    }

    /// The RFC 6962 inclusion proof of entry `index` (the event at position index + 1) in the tree
    /// of `size` events: the leaf's sibling first.
    /// - Throws: `.invalidInput` unless 0 ≤ index < size ≤ head.
    public func inclusionProof(index: Int64, size: Int64) throws(EventStoreError) -> [[UInt8]] {
        guard size >= 1 else {
            throw EventStoreError(
                code: .invalidInput, message: "no inclusion proof in a tree of size \(size): it has no entries")
        }
        try checkSize(size, "an inclusion proof in a tree of size \(size)")
        guard index >= 0 && index < size else {
            throw EventStoreError(
                code: .invalidInput,
                message: "entry \(index) (position \(index + 1)) is not in the tree of size \(size)",
                position: index + 1)
        }
        var tiles = TreeTileReader(store: self)
        return try TreeTileReader<Self>.merkle { () throws in
            try Merkle.inclusionProof(index: index, size: size) { level, index in
                try tiles.subtreeHash(level: level, index: index, size: size)
            }
        }
    }

    /// The RFC 6962 consistency proof from the tree of `oldSize` events to the tree of `newSize`
    /// events (empty when they are equal).
    /// - Throws: `.invalidInput` unless 1 ≤ oldSize ≤ newSize ≤ head.
    public func consistencyProof(from oldSize: Int64, to newSize: Int64) throws(EventStoreError) -> [[UInt8]] {
        guard oldSize <= newSize else {
            throw EventStoreError(
                code: .invalidInput,
                message: "no consistency proof from tree size \(oldSize) to the smaller \(newSize)")
        }
        guard oldSize >= 1 else {
            throw EventStoreError(
                code: .invalidInput,
                message: "no consistency proof from tree size \(oldSize): the empty tree proves nothing")
        }
        try checkSize(newSize, "a consistency proof to tree size \(newSize)")
        var tiles = TreeTileReader(store: self)
        return try TreeTileReader<Self>.merkle { () throws in
            try Merkle.consistencyProof(oldSize: oldSize, newSize: newSize) { level, index in
                try tiles.subtreeHash(level: level, index: index, size: newSize)
            }
        }
    }

    /// Keeps a signed checkpoint of the tree of `size` events with `root` (the signed note as
    /// text), stamped with the store's clock, after checking that the journal's tree at that
    /// size has that root.
    /// - Throws: `.invalidInput` for a size beyond the head or another root; `.readOnly`.
    @discardableResult
    public func keepCheckpoint(note: String, size: Int64, root: [UInt8]) throws(EventStoreError) -> StoredCheckpoint {
        guard try treeRoot(size: size) == root else {
            throw EventStoreError(
                code: .invalidInput,
                message: "the checkpoint's root is not the journal's tree root at size \(size): not kept")
        }
        return try storeCheckpoint(note: note, size: size, root: root)
    }

    /// Refuses a tree size outside 0 … head, saying what was asked for.
    private func checkSize(_ size: Int64, _ what: String) throws(EventStoreError) {
        let head = try treeSize()
        guard size >= 0 && size <= head else {
            throw EventStoreError(
                code: .invalidInput, message: "\(what) was asked for, but the journal's tree has \(head) events")
        }
    }

    /// The leaf line of the event at `position` (1 … head): its export line, the bytes hashed
    /// into the tree.
    /// - Throws: `.invalidInput` for a position outside the journal.
    public func leafLine(position: Int64) throws(EventStoreError) -> [UInt8] {
        let head = try treeSize()
        guard position >= 1 && position <= head else {
            throw EventStoreError(
                code: .invalidInput,
                message: "position \(position) is not in the journal (positions 1 … \(head))", position: position)
        }
        guard let event = try readAll(from: position, limit: 1).first, event.position == position else {
            throw EventStoreError(
                code: .integrity, message: "the event at position \(position) is missing", position: position)
        }
        var line: [UInt8] = []
        event.exportLine(into: &line)
        return line
    }
}

/// Reads complete subtree hashes from a store's tiles, each tile once per reader (a proof asks
/// for several subtrees of the same tile).
struct TreeTileReader<Store: EventStore> {
    let store: Store
    private var cache: [TileKey: [UInt8]] = [:]
    private var hasher: ChainHasher?

    private struct TileKey: Hashable {
        var level: Int
        var index: Int64
    }

    init(store: Store) { self.store = store }

    /// The root of the tree of `size` leaves (size ≤ head, checked by the caller).
    mutating func root(size: Int64) throws(EventStoreError) -> [UInt8] {
        try Self.merkle { () throws in
            try Merkle.root(size: size) { level, index in try subtreeHash(level: level, index: index, size: size) }
        }
    }

    /// Runs the library's proof generation over this reader, with its errors as store errors.
    static func merkle<R>(_ body: () throws -> R) throws(EventStoreError) -> R {
        do {
            return try body()
        } catch let error as EventStoreError {
            throw error
        } catch {
            throw EventStoreError(code: .invalidInput, message: "\(error)")
        }
    }

    /// The hash of a complete subtree of the tree of `size` leaves (see
    /// `EventStore.subtreeHash(level:index:)`).
    mutating func subtreeHash(level: Int, index: Int64, size: Int64) throws(EventStoreError) -> [UInt8] {
        guard level >= 0, level < 56, index >= 0, index <= (Int64.max >> level) - 1,
            (index + 1) << level <= size
        else {
            throw EventStoreError(
                code: .invalidInput,
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
            throw EventStoreError(
                code: .integrity,
                message: "the journal's tree tile (\(place.tileLevel), \(place.tileIndex)) holds "
                    + "\(tile.count / 32) hashes, not the \(end / 32) a tree of \(size) events has")
        }
        if place.count == 1 { return Array(tile[start..<end]) }
        let hasher: ChainHasher
        if let known = self.hasher {
            hasher = known
        } else {
            hasher = ChainHasher()
            self.hasher = hasher
        }
        return TreeTiles.root(of: Array(tile[start..<end]), hasher: hasher)
    }
}
