/// Why a bundle document could not be decoded.
public enum BundleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is not JSON (the parser's message, with a byte offset).
    case invalidJSON(String)
    /// The `format` is not `journal-bundle/1`.
    case unknownFormat(String)
    /// A required key is missing (`events[2].proof`).
    case missingKey(path: String)
    /// A value has the wrong type (`events[0].position`: "an integer").
    case wrongType(path: String, expected: String)

    public var description: String {
        switch self {
        case let .invalidJSON(reason): "the bundle is not JSON: \(reason)"
        case let .unknownFormat(format): "unknown bundle format \"\(format)\" (expected \(EvidenceBundle.format))"
        case let .missingKey(path): "the bundle has no \(path)"
        case let .wrongType(path, expected): "\(path) is not \(expected)"
        }
    }
}
