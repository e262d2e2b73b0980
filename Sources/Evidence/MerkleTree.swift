/// An in-memory Merkle tree that keeps every complete subtree's hash: the reference
/// implementation the store's trees are tested against, and a convenient tree for small logs.
///
/// `levels[0]` holds the leaf hashes; `levels[k][i]` is the hash of the complete subtree over
/// leaves `[i·2^k, (i+1)·2^k)`.
public struct MerkleTree: Sendable {
    public private(set) var levels: [[[UInt8]]] = [[]]

    public init() {}

    /// A tree of these leaf lines, in order.
    public init<Lines: Sequence>(leafLines: Lines) where Lines.Element: Collection<UInt8> {
        for line in leafLines { append(leafLine: line) }
    }

    /// The number of entries.
    public var size: Int64 { Int64(levels[0].count) }

    /// Appends one entry by its leaf line.
    public mutating func append(leafLine: some Collection<UInt8>) {
        append(leafHash: Merkle.leafHash(leafLine))
    }

    /// Appends one entry by its leaf hash, completing every subtree it closes.
    public mutating func append(leafHash: [UInt8]) {
        levels[0].append(leafHash)
        var level = 0
        while levels[level].count % 2 == 0 {
            let count = levels[level].count
            let parent = Merkle.nodeHash(levels[level][count - 2], levels[level][count - 1])
            if levels.count == level + 1 { levels.append([]) }
            levels[level + 1].append(parent)
            level += 1
        }
    }

    /// The hash of the complete subtree at `level` and `index`.
    public func subtreeHash(level: Int, index: Int64) throws(MerkleError) -> [UInt8] {
        guard level >= 0, level < levels.count, index >= 0, index < Int64(levels[level].count) else {
            throw .noSuchSubtree(level: level, index: index, size: size)
        }
        return levels[level][Int(index)]
    }

    /// The root of the first `size` entries (all of them by default).
    public func root(size: Int64? = nil) throws(MerkleError) -> [UInt8] {
        let size = size ?? self.size
        guard size <= self.size else { throw .indexOutOfRange(index: size - 1, size: self.size) }
        return try Self.typed { try Merkle.root(size: size, subtreeHash: oracle) }
    }

    /// The inclusion proof of entry `index` in the tree of its first `size` entries.
    public func inclusionProof(index: Int64, size: Int64? = nil) throws(MerkleError) -> [[UInt8]] {
        let size = size ?? self.size
        guard size <= self.size else { throw .indexOutOfRange(index: index, size: self.size) }
        return try Self.typed { try Merkle.inclusionProof(index: index, size: size, subtreeHash: oracle) }
    }

    /// The consistency proof from the first `oldSize` entries to the first `newSize`.
    public func consistencyProof(oldSize: Int64, newSize: Int64? = nil) throws(MerkleError) -> [[UInt8]] {
        let newSize = newSize ?? size
        guard newSize <= size else { throw .consistencySizes(oldSize: oldSize, newSize: newSize) }
        return try Self.typed { try Merkle.consistencyProof(oldSize: oldSize, newSize: newSize, subtreeHash: oracle) }
    }

    private var oracle: (Int, Int64) throws -> [UInt8] { { try subtreeHash(level: $0, index: $1) } }

    /// Runs a generator whose only errors are ``MerkleError``s (this tree's oracle throws no other).
    private static func typed<T>(_ body: () throws -> T) throws(MerkleError) -> T {
        do {
            return try body()
        } catch let error as MerkleError {
            throw error
        } catch {
            fatalError("unexpected error \(error)")
        }
    }
}
