/// The first thing about a bundle that does not hold. `event` is the index in `events` (from 0).
public enum BundleVerificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checkpoint note is malformed or not signed by a trusted key named as its origin.
    case checkpoint(CheckpointError)
    /// An event's position is not in the checkpoint's tree (1 … tree size).
    case positionOutOfRange(event: Int, position: Int64, treeSize: Int64)
    /// An event's inclusion proof does not verify against the checkpoint's root.
    case inclusion(event: Int, position: Int64, MerkleProofError)
    /// An event's leaf line is not a JSON object.
    case leafNotAnObject(event: Int, position: Int64, reason: String)
    /// An event's leaf line has another `stream` (nil: none) than the bundle.
    case wrongStream(event: Int, position: Int64, found: String?)
    /// An event's `version` (nil: none) is not the next one: versions are 0, 1, 2, … in order.
    case versionGap(event: Int, position: Int64, expected: Int64, found: Int64?)
    /// An event's leaf line has another `position` (nil: none) than the event entry.
    case positionMismatch(event: Int, position: Int64, leafPosition: Int64?)

    public var description: String {
        switch self {
        case let .checkpoint(error):
            "checkpoint: \(error)"
        case let .positionOutOfRange(event, position, treeSize):
            "events[\(event)] (position \(position)): not in the checkpoint's tree of size \(treeSize)"
        case let .inclusion(event, position, error):
            "events[\(event)] (position \(position)): \(error)"
        case let .leafNotAnObject(event, position, reason):
            "events[\(event)] (position \(position)): the leaf line is not a JSON object: \(reason)"
        case let .wrongStream(event, position, found):
            "events[\(event)] (position \(position)): stream is "
                + "\(found.map { "\"\($0)\"" } ?? "missing"), not the bundle's"
        case let .versionGap(event, position, expected, found):
            "events[\(event)] (position \(position)): version "
                + "\(found.map(String.init) ?? "missing") where \(expected) is next"
        case let .positionMismatch(event, position, leafPosition):
            "events[\(event)] (position \(position)): the leaf line's position is "
                + "\(leafPosition.map(String.init) ?? "missing")"
        }
    }
}
