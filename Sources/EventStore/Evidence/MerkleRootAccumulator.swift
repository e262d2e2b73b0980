/// The root of an RFC 6962 tree built one leaf at a time in O(log n) memory: the hashes of the
/// complete subtrees the leaves so far split into (one per set bit of the count, largest
/// first). For checking a stream of entries against a signed root without keeping them.
///
/// ```swift
/// var tree = MerkleRootAccumulator()
/// for line in lines { tree.append(leafHash: Merkle.leafHash(line)) }
/// tree.root == checkpoint.root
/// ```
public struct MerkleRootAccumulator: Sendable, Equatable {
    /// The entries appended so far.
    public private(set) var size: Int64 = 0
    /// The complete subtrees' hashes, left to right.
    private var peaks: [[UInt8]] = []

    public init() {}

    /// Appends one entry by its leaf hash, folding every subtree it completes.
    public mutating func append(leafHash: [UInt8]) {
        var hash = leafHash
        var count = size
        while count & 1 == 1 {
            hash = Merkle.nodeHash(peaks.removeLast(), hash)
            count >>= 1
        }
        peaks.append(hash)
        size += 1
    }

    /// The root of the tree of the entries so far (SHA-256 of nothing when there are none).
    public var root: [UInt8] {
        guard var root = peaks.last else { return Merkle.emptyRoot }
        for peak in peaks.dropLast().reversed() { root = Merkle.nodeHash(peak, root) }
        return root
    }
}
