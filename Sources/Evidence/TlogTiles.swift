/// The static layout of C2SP tlog-tiles: which tiles and entry bundles a tree of a given size
/// has, and their paths below the log's prefix.
///
/// A tile at level L holds up to 256 hashes of the tree's nodes at height 8·L (level 0: leaf
/// hashes); a full tile has 256 (8,192 bytes), and the rightmost tile of each level is partial
/// when the level's node count is not a multiple of 256. The journal's stored tiles
/// (`TreeTiles`) have the same levels, heights and indexes, so tile (L, N) of the store is tile
/// `tile/L/N` here, cut to the width a tree of the checkpoint's size gives it.
///
/// ```swift
/// TlogTiles.path(level: 0, index: 1_234_067, width: 256)   // "tile/0/x001/x234/067"
/// TlogTiles.path(level: 1, index: 3, width: 17)            // "tile/1/003.p/17"
/// TlogTiles.entriesPath(index: 0, width: 5)                // "tile/entries/000.p/5"
/// ```
public enum TlogTiles {
    /// Hashes in a full tile, entries in a full bundle.
    public static let width = 256
    /// Bytes of a full tile.
    public static let fullTileBytes = width * Merkle.hashSize
    /// The longest leaf line an entry bundle can hold (its length is a big-endian `uint16`).
    public static let maxEntryBytes = 65_535

    /// One level of a tree of some size: its full tiles `0 ..< fullTiles` and, when the level's
    /// node count is not a multiple of 256, the partial tile `fullTiles` of `partialWidth` hashes.
    public struct Level: Sendable, Equatable {
        public var level: Int
        public var fullTiles: Int64
        /// 0 when the level has no partial tile.
        public var partialWidth: Int

        public init(level: Int, fullTiles: Int64, partialWidth: Int) {
            self.level = level
            self.fullTiles = fullTiles
            self.partialWidth = partialWidth
        }

        /// The width of tile `index` of this level (256 for a full tile); nil for no such tile.
        public func width(ofTile index: Int64) -> Int? {
            if index >= 0 && index < fullTiles { return TlogTiles.width }
            if index == fullTiles && partialWidth > 0 { return partialWidth }
            return nil
        }

        /// The number of tiles of the level, full and partial.
        public var tileCount: Int64 { fullTiles + (partialWidth > 0 ? 1 : 0) }
    }

    /// The levels of the tree of `size` entries, from 0 up to the last with a tile (none for 0).
    /// A level L has ⌊size / 256^L⌋ nodes: that many hashes in its tiles.
    public static func levels(size: Int64) -> [Level] {
        var levels: [Level] = []
        var nodes = max(0, size)
        var level = 0
        while nodes > 0 {
            levels.append(Level(level: level, fullTiles: nodes >> 8, partialWidth: Int(nodes & 255)))
            nodes >>= 8
            level += 1
        }
        return levels
    }

    /// The entry bundles of a tree of `size` entries: those of level 0's tiles.
    public static func bundles(size: Int64) -> Level {
        let size = max(0, size)
        return Level(level: -1, fullTiles: size >> 8, partialWidth: Int(size & 255))
    }

    /// `<N>` of a path: groups of three digits, all but the last prefixed with `x`
    /// (0 → `000`, 1000 → `x001/000`, 1234067 → `x001/x234/067`).
    public static func indexPath(_ index: Int64) -> String {
        precondition(index >= 0, "a tile index is not negative")
        var rest = index
        var path = threeDigits(rest % 1000)
        rest /= 1000
        while rest > 0 {
            path = "x" + threeDigits(rest % 1000) + "/" + path
            rest /= 1000
        }
        return path
    }

    /// `tile/<L>/<N>`, with `.p/<W>` for a partial tile (width 1 … 255).
    public static func path(level: Int, index: Int64, width: Int) -> String {
        "tile/\(level)/" + indexPath(index) + partialSuffix(width)
    }

    /// `tile/entries/<N>`, with `.p/<W>` for a partial bundle.
    public static func entriesPath(index: Int64, width: Int) -> String {
        "tile/entries/" + indexPath(index) + partialSuffix(width)
    }

    private static func partialSuffix(_ width: Int) -> String {
        precondition(width >= 1 && width <= TlogTiles.width, "a tile holds 1 to 256 hashes")
        return width == TlogTiles.width ? "" : ".p/\(width)"
    }

    private static func threeDigits(_ value: Int64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// An entry bundle's bytes: each entry's length as two bytes, big-endian, then the entry.
    /// - Throws: the index (in `entries`) of the first entry over `maxEntryBytes`.
    public static func bundle(_ entries: [[UInt8]]) throws(EntryTooLong) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + 2 + $1.count })
        for (offset, entry) in entries.enumerated() {
            try appendEntry(entry, to: &bytes, offset: offset)
        }
        return bytes
    }

    /// Appends one entry to a bundle's bytes.
    public static func appendEntry(_ entry: some Collection<UInt8>, to bytes: inout [UInt8], offset: Int)
        throws(EntryTooLong)
    {
        guard entry.count <= maxEntryBytes else { throw EntryTooLong(offset: offset, length: entry.count) }
        bytes.append(UInt8(entry.count >> 8))
        bytes.append(UInt8(entry.count & 255))
        bytes.append(contentsOf: entry)
    }

    /// The entries of a bundle's bytes, or nil when the bytes are not a sequence of
    /// length-prefixed entries.
    public static func entries(ofBundle bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        var entries: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 2 <= bytes.count else { return nil }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            guard offset + length <= bytes.count else { return nil }
            entries.append(bytes[offset..<(offset + length)])
            offset += length
        }
        return entries
    }

    /// An entry longer than a bundle's two-byte length can say.
    public struct EntryTooLong: Error, Sendable, Equatable {
        /// Its place among the entries given.
        public var offset: Int
        public var length: Int

        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }
}
