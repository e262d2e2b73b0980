import Evidence

// What a commit writes to the stored tiles: the store's half of `TreeTiles`, whose layout and
// tree math (`Sources/Evidence/TreeTiles.swift`) the evidence verifiers share.
extension TreeTiles {
    /// A tile to write: its level, index and all its hashes.
    package struct Tile: Equatable {
        package var level: Int
        package var index: Int64
        package var hashes: [UInt8]
    }

    /// The tiles that change when `leaves` (32-byte leaf hashes, concatenated) are appended to a
    /// tree of `size` leaves: the partial tiles grown, the new ones, and above every tile that
    /// fills up, its root appended one level higher. `edgeTile(level, index)` gives the stored
    /// bytes of an edge tile (nil when there is no such row).
    /// - Throws: `.integrity` when a stored edge tile does not hold what a tree of `size` has.
    package static func append(
        _ leaves: [UInt8], to size: Int64, hasher: ChainHasher,
        edgeTile: (Int, Int64) throws(EventStoreError) -> [UInt8]?
    ) throws(EventStoreError) -> [Tile] {
        precondition(leaves.count % 32 == 0, "leaf hashes are 32 bytes each")
        var written: [Tile] = []
        var nodes = leaves
        var before = size // complete nodes at this level's height before the append
        var level = 0
        while !nodes.isEmpty {
            var index = before >> 8
            let held = Int(before & 255)
            var tile: [UInt8] = []
            if held > 0 {
                let stored = try edgeTile(level, index) ?? []
                guard stored.count == held * 32 else {
                    throw EventStoreError(
                        code: .integrity,
                        message: "the journal's tree tile (\(level), \(index)) holds "
                            + "\(stored.count / 32) hashes where a tree of \(size) events has \(held)")
                }
                tile = stored
            }
            tile.reserveCapacity(tileBytes)
            var parents: [UInt8] = []
            var offset = 0
            while offset < nodes.count {
                let take = min(tileBytes - tile.count, nodes.count - offset)
                tile.append(contentsOf: nodes[offset..<(offset + take)])
                offset += take
                if tile.count == tileBytes {
                    parents.append(contentsOf: root(of: tile, hasher: hasher))
                    written.append(Tile(level: level, index: index, hashes: tile))
                    index += 1
                    tile.removeAll(keepingCapacity: true)
                }
            }
            if !tile.isEmpty { written.append(Tile(level: level, index: index, hashes: tile)) }
            nodes = parents
            before >>= 8
            level += 1
        }
        return written
    }

}
