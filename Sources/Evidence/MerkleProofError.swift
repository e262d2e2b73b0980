/// Why an inclusion or consistency proof does not verify.
public enum MerkleProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The proof is for an entry outside the tree (0 ≤ index < size is required).
    case indexOutOfRange(index: Int64, size: Int64)
    /// The leaf hash is not a SHA-256 hash.
    case malformedLeafHash(byteCount: Int)
    /// Proof hash number `index` (from 0) is not a SHA-256 hash.
    case malformedProofHash(index: Int, byteCount: Int)
    /// The proof has the wrong number of hashes for its index and sizes.
    case wrongProofLength(expected: Int, actual: Int)
    /// The inclusion proof leads to another root than the one given.
    case rootMismatch
    /// A consistency proof from a larger tree to a smaller one (or from a negative size).
    case sizesOutOfOrder(oldSize: Int64, newSize: Int64)
    /// A consistency proof from the empty tree: it proves nothing, so none is accepted.
    case emptyOldTree
    /// Two trees of the same size with different roots.
    case rootsDiffer
    /// A tree of size 0 whose root is not SHA-256 of nothing.
    case notTheEmptyRoot
    /// The consistency proof does not lead to the old tree's root.
    case oldRootMismatch
    /// The consistency proof does not lead to the new tree's root.
    case newRootMismatch

    public var description: String {
        switch self {
        case let .indexOutOfRange(index, size):
            "entry index \(index) is not in a tree of size \(size)"
        case let .malformedLeafHash(byteCount):
            "the leaf hash has \(byteCount) bytes, not 32"
        case let .malformedProofHash(index, byteCount):
            "proof hash \(index + 1) has \(byteCount) bytes, not 32"
        case let .wrongProofLength(expected, actual):
            "the proof has \(actual) hashes where \(expected) are needed"
        case .rootMismatch:
            "the inclusion proof does not lead to the tree's root"
        case let .sizesOutOfOrder(oldSize, newSize):
            "tree size \(oldSize) cannot be a prefix of tree size \(newSize)"
        case .emptyOldTree:
            "a consistency proof from the empty tree proves nothing"
        case .rootsDiffer:
            "two trees of the same size have different roots"
        case .notTheEmptyRoot:
            "the root of a tree of size 0 must be SHA-256 of nothing"
        case .oldRootMismatch:
            "the consistency proof does not lead to the old tree's root"
        case .newRootMismatch:
            "the consistency proof does not lead to the new tree's root"
        }
    }
}
