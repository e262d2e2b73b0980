/// Why a checkpoint could not be read, made or verified.
public enum CheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checkpoint text does not end with a line feed.
    case notEndingInNewline
    /// Fewer than the three lines origin, size, root.
    case missingLines(count: Int)
    /// The first line (the origin) is empty.
    case emptyOrigin
    /// The second line is not a tree size (decimal digits, no leading zero, within Int64).
    case malformedSize(String)
    /// The third line is not the base64 of a 32-byte root.
    case malformedRoot(String)
    /// An extension line (counted from 1 after the root line) is empty or holds a line feed.
    case invalidExtensionLine(line: Int)
    /// The signed note around it is bad, or its signatures do not verify.
    case note(NoteError)
    /// No key named as the origin signed the checkpoint (or would sign it).
    case originNotSigned(origin: String)

    public var description: String {
        switch self {
        case .notEndingInNewline: "the checkpoint text does not end with a line feed"
        case let .missingLines(count): "a checkpoint has at least 3 lines (origin, size, root), not \(count)"
        case .emptyOrigin: "line 1: the checkpoint's origin is empty"
        case let .malformedSize(text): "line 2: \"\(text)\" is not a tree size"
        case let .malformedRoot(reason): "line 3: the root is not base64 of 32 bytes (\(reason))"
        case let .invalidExtensionLine(line): "line \(line + 3): an extension line is empty or holds a line feed"
        case let .note(error): error.description
        case let .originNotSigned(origin): "the checkpoint is not signed by a key named \(origin) (its origin)"
        }
    }
}
