/// The root of an RFC 6962 Merkle tree (``Merkle``) built one entry at a time in memory that
/// grows with the logarithm of the size: it keeps only the hash of each complete subtree along
/// the tree's right edge (one per set bit of the size), as certificate transparency's compact
/// ranges do. Checking an export of ten million lines holds 24 hashes, not ten million.
public struct IncrementalMerkleRoot: Sendable {
    /// The complete subtrees' hashes, the largest (leftmost) first: `hashes[i]` covers 2^k
    /// entries for the i-th set bit of `size`, counted from the most significant one.
    private var hashes: [[UInt8]] = []

    /// The number of entries appended.
    public private(set) var size: Int64 = 0

    public init() {}

    /// Appends one entry by its leaf line (SHA-256(0x00 ‖ line) is its hash).
    public mutating func append(leafLine: some Collection<UInt8>) {
        append(leafHash: Merkle.leafHash(leafLine))
    }

    /// Appends one entry by its leaf hash, merging every pair of equal subtrees it completes.
    public mutating func append(leafHash: [UInt8]) {
        var hash = leafHash
        // Each trailing one bit of the old size is a subtree of the new entry's size: merge.
        var completed = size
        while completed & 1 == 1 {
            hash = Merkle.nodeHash(hashes.removeLast(), hash)
            completed >>= 1
        }
        hashes.append(hash)
        size += 1
    }

    /// The root of the tree of the entries appended so far (`Merkle.emptyRoot` for none): the
    /// subtrees folded from the right, as RFC 6962 splits a tree at its largest power of two.
    public var root: [UInt8] {
        guard var root = hashes.last else { return Merkle.emptyRoot }
        for hash in hashes.dropLast().reversed() { root = Merkle.nodeHash(hash, root) }
        return root
    }
}
