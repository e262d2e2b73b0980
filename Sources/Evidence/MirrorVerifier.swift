/// Checks a mirror against itself: the checkpoint is signed by the log's key, every full tile
/// hashes to its entry in the tile above, the tiles give the checkpoint's root, and (when the
/// mirror has entry bundles) every entry hashes to its leaf hash in the level-0 tiles. What
/// holds then is exactly what the signed checkpoint commits to.
///
/// ```swift
/// let verified = try MirrorVerifier.verify(MirrorReader(directory: "mirror"), verifiers: keys)
/// verified.checkpoint.checkpoint.size   // the tree the mirror holds
/// ```
///
/// Reads each tile once (and each bundle once), a tile at a time: memory does not grow with
/// the log.
public enum MirrorVerifier {
    /// What a verification found.
    public struct Verified: Sendable, Equatable {
        public var checkpoint: SignedCheckpoint
        /// Tiles read, full and partial.
        public var tiles: Int
        /// Entries checked against the level-0 tiles; nil when the mirror has no entry bundles.
        public var entries: Int64?
    }

    /// - Throws: `.integrity` naming the first file that does not hold what it must; `.io`.
    public static func verify(_ reader: MirrorReader, verifiers: [NoteVerifier]) throws(MirrorError) -> Verified {
        let signed = try reader.checkpoint(verifiers: verifiers)
        let size = signed.checkpoint.size
        let levels = TlogTiles.levels(size: size)
        let entries = reader.hasEntries
        let hasher = ChainHasher()
        var tiles = 0
        var partialLeaves: [UInt8]?
        for level in levels {
            let above = level.level + 1 < levels.count ? levels[level.level + 1] : nil
            var parent: (index: Int64, hashes: [UInt8])?
            for index in 0..<level.fullTiles {
                let tile = try reader.tile(level: level.level, index: index, width: TlogTiles.width)
                tiles += 1
                // A level with a full tile has at least one node above it.
                guard let above, let parentWidth = above.width(ofTile: index >> 8) else {
                    preconditionFailure("a full tile without a tile above it")
                }
                if parent?.index != index >> 8 {
                    parent = (index >> 8, try reader.tile(level: above.level, index: index >> 8, width: parentWidth))
                }
                let offset = Int(index & 255) * Merkle.hashSize
                guard let hashes = parent?.hashes,
                    TreeTiles.root(of: tile, hasher: hasher)[...] == hashes[offset..<(offset + Merkle.hashSize)]
                else {
                    let path = TlogTiles.path(level: level.level, index: index, width: TlogTiles.width)
                    let parentPath = TlogTiles.path(level: above.level, index: index >> 8, width: parentWidth)
                    throw MirrorError(
                        .integrity,
                        "\(reader.directory)/\(path) does not hash to hash \(index & 255) of \(parentPath)")
                }
                if level.level == 0 && entries {
                    try checkBundle(reader, index: index, width: TlogTiles.width, against: tile)
                }
            }
            if level.partialWidth > 0 {
                let tile = try reader.tile(level: level.level, index: level.fullTiles, width: level.partialWidth)
                tiles += 1
                // Its entries once the root shows the tile holds what the checkpoint signs.
                if level.level == 0 && entries { partialLeaves = tile }
            }
        }
        let root = try root(reader, size: size, levels: levels, hasher: hasher)
        guard root == signed.checkpoint.root else {
            throw MirrorError(
                .integrity,
                "the tiles in \(reader.directory) give the root \(Base64.encode(root)) for \(size) entries, "
                    + "not the checkpoint's \(Base64.encode(signed.checkpoint.root))")
        }
        if let partialLeaves {
            let bundles = TlogTiles.bundles(size: size)
            try checkBundle(reader, index: bundles.fullTiles, width: bundles.partialWidth, against: partialLeaves)
        }
        return Verified(checkpoint: signed, tiles: tiles, entries: entries ? size : nil)
    }

    /// The root of the tree of `size` entries from the mirror's tiles: a few tiles at the top
    /// and along the right edge.
    static func root(_ reader: MirrorReader, size: Int64, levels: [TlogTiles.Level], hasher: ChainHasher)
        throws(MirrorError) -> [UInt8]
    {
        var cache: [String: [UInt8]] = [:]
        do {
            return try Merkle.root(size: size) { height, index in
                let place = TreeTiles.location(level: height, index: index)
                guard place.tileLevel < levels.count,
                    let width = levels[place.tileLevel].width(ofTile: place.tileIndex),
                    place.first + place.count <= width
                else { throw MirrorError(.integrity, "the tiles do not cover a tree of \(size) entries") }
                let path = TlogTiles.path(level: place.tileLevel, index: place.tileIndex, width: width)
                let tile: [UInt8]
                if let known = cache[path] {
                    tile = known
                } else {
                    tile = try reader.tile(level: place.tileLevel, index: place.tileIndex, width: width)
                    cache[path] = tile
                }
                let hashes = Array(tile[(place.first * 32)..<((place.first + place.count) * 32)])
                return place.count == 1 ? hashes : TreeTiles.root(of: hashes, hasher: hasher)
            }
        } catch let error as MirrorError {
            throw error
        } catch {
            throw MirrorError(.integrity, "computing the root of \(reader.directory): \(error)")
        }
    }

    /// Every entry of bundle `index` hashes to its leaf hash in the level-0 `tile`.
    static func checkBundle(_ reader: MirrorReader, index: Int64, width: Int, against tile: [UInt8])
        throws(MirrorError)
    {
        try check(try reader.bundle(index: index, width: width), of: reader, index: index, width: width, against: tile)
    }

    /// Every one of `entries`, bundle `index` of `width`, hashes to its leaf hash in `tile`.
    static func check(
        _ entries: [ArraySlice<UInt8>], of reader: MirrorReader, index: Int64, width: Int, against tile: [UInt8]
    ) throws(MirrorError) {
        for (offset, entry) in entries.enumerated() {
            let start = offset * Merkle.hashSize
            guard Merkle.leafHash(entry)[...] == tile[start..<(start + Merkle.hashSize)] else {
                throw MirrorError(
                    .integrity,
                    "entry \(index * 256 + Int64(offset)) of \(reader.directory)/"
                        + "\(TlogTiles.entriesPath(index: index, width: width)) does not hash to its leaf hash in "
                        + TlogTiles.path(level: 0, index: index, width: width))
            }
        }
    }
}

/// The entries of a mirror, in order, each checked against its leaf hash in the level-0 tiles
/// as it is read (a bundle and its tile at a time): the input of a restore from a mirror, whose
/// root is then checked against the signed checkpoint (`JournalRestore`).
public struct MirrorEntries: Sendable {
    public let reader: MirrorReader
    public let size: Int64
    private var bundle: [ArraySlice<UInt8>] = []
    private var nextIndex: Int64 = 0

    /// The first `size` entries of the mirror (its checkpoint's size).
    public init(reader: MirrorReader, size: Int64) {
        self.reader = reader
        self.size = size
    }

    /// The next entry (its index and leaf line), nil after the last.
    /// - Throws: `.integrity` for a missing bundle or tile, or an entry that does not hash to its
    ///   leaf hash; `.io`.
    public mutating func next() throws(MirrorError) -> (index: Int64, line: ArraySlice<UInt8>)? {
        guard nextIndex < size else { return nil }
        let offset = Int(nextIndex & 255)
        if offset == 0 {
            let bundles = TlogTiles.bundles(size: size)
            let index = nextIndex >> 8
            guard let width = bundles.width(ofTile: index) else { return nil }
            let tile = try reader.tile(level: 0, index: index, width: width)
            bundle = try reader.bundle(index: index, width: width)
            try MirrorVerifier.check(bundle, of: reader, index: index, width: width, against: tile)
        }
        defer { nextIndex += 1 }
        return (nextIndex, bundle[offset])
    }
}
