/// A proof or root was asked for with sizes or an index that have none.
public enum MerkleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A tree size below zero.
    case negativeSize(Int64)
    /// An inclusion proof for an entry the tree does not have (0 ≤ index < size is required).
    case indexOutOfRange(index: Int64, size: Int64)
    /// A consistency proof needs 1 ≤ old size ≤ new size.
    case consistencySizes(oldSize: Int64, newSize: Int64)
    /// A subtree the tree does not have (an oracle's answer to a request it cannot serve).
    case noSuchSubtree(level: Int, index: Int64, size: Int64)

    public var description: String {
        switch self {
        case let .negativeSize(size):
            "tree size \(size) is negative"
        case let .indexOutOfRange(index, size):
            "entry index \(index) is not in a tree of size \(size)"
        case let .consistencySizes(oldSize, newSize):
            "no consistency proof from tree size \(oldSize) to \(newSize) (needs 1 ≤ old ≤ new)"
        case let .noSuchSubtree(level, index, size):
            "the tree of size \(size) has no complete subtree at level \(level), index \(index)"
        }
    }
}
