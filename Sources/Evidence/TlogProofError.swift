/// Why a tlog-proof could not be read or does not verify.
public enum TlogProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Line `line` (from 1) is not what the format has there.
    case malformedLine(line: Int, reason: String)
    /// No blank line and checkpoint after the proof hashes.
    case missingCheckpoint
    /// The checkpoint (starting at `firstLine` of the proof text, when parsing) is bad or its
    /// signature does not verify.
    case checkpoint(firstLine: Int?, CheckpointError)
    /// The proof has no `extra` line, so there is no leaf line to check.
    case missingExtra
    /// The inclusion proof does not verify against the checkpoint.
    case inclusion(MerkleProofError)

    public var description: String {
        switch self {
        case let .malformedLine(line, reason): "line \(line): \(reason)"
        case .missingCheckpoint: "the proof has no blank line followed by a signed checkpoint"
        case let .checkpoint(firstLine, error):
            if let firstLine { "checkpoint (from line \(firstLine)): \(error)" } else { "checkpoint: \(error)" }
        case .missingExtra: "the proof has no extra line with the entry's leaf line"
        case let .inclusion(error): "inclusion proof: \(error)"
        }
    }
}
