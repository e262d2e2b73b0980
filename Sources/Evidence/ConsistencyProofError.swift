/// Why a consistency proof could not be read or does not hold.
public enum ConsistencyProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Line `line` (from 1) is not a base64 SHA-256.
    case malformedLine(line: Int, reason: String)
    /// The old checkpoint is bad or not signed by a trusted key named as its origin.
    case oldCheckpoint(CheckpointError)
    /// The new checkpoint is bad or not signed by a trusted key named as its origin.
    case newCheckpoint(CheckpointError)
    /// The checkpoints are of two logs.
    case differentOrigins(old: String, new: String)
    /// The proof is for other sizes than the checkpoints'.
    case sizesDiffer(proofFrom: Int64, proofTo: Int64, oldCheckpoint: Int64, newCheckpoint: Int64)
    /// The proof does not verify.
    case proof(MerkleProofError)

    public var description: String {
        switch self {
        case let .malformedLine(line, reason): "line \(line): \(reason)"
        case let .oldCheckpoint(error): "old checkpoint: \(error)"
        case let .newCheckpoint(error): "new checkpoint: \(error)"
        case let .differentOrigins(old, new): "the checkpoints are of two logs (\(old), \(new))"
        case let .sizesDiffer(proofFrom, proofTo, oldCheckpoint, newCheckpoint):
            "the proof is from size \(proofFrom) to \(proofTo), the checkpoints are of sizes "
                + "\(oldCheckpoint) and \(newCheckpoint)"
        case let .proof(error): error.description
        }
    }
}
