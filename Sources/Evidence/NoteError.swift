/// Why a signed note could not be made, read or verified.
public enum NoteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A note's text is empty or does not end with a line feed.
    case textNotEndingInNewline
    /// The note is not valid UTF-8, or has a control character other than line feed (byte offset
    /// from 0).
    case invalidCharacter(byteOffset: Int)
    /// No blank line separates the text from the signature lines, or the note does not end with
    /// a line feed.
    case missingSignatureBlock
    /// Signature line `line` (counted from 1 in the whole note) is not `— <name> <base64>`.
    case malformedSignatureLine(line: Int, reason: String)
    /// More than 100 signature lines.
    case tooManySignatures
    /// A given key that matches a signature's name and id does not verify it.
    case invalidSignature(name: String, keyID: UInt32)
    /// Two different given keys share a name and key id.
    case ambiguousKey(name: String, keyID: UInt32)
    /// None of the given keys signed the note; `signedBy` lists the signatures' `name+id`.
    case noKnownSignature(signedBy: [String])
    /// A signer key could not sign.
    case signing(String)

    public var description: String {
        switch self {
        case .textNotEndingInNewline:
            "a note's text must be non-empty and end with a line feed"
        case let .invalidCharacter(offset):
            "the note has invalid UTF-8 or a control character at byte \(offset + 1)"
        case .missingSignatureBlock:
            "the note has no signature lines after a blank line, or does not end with a line feed"
        case let .malformedSignatureLine(line, reason):
            "line \(line): \(reason)"
        case .tooManySignatures:
            "the note has more than 100 signature lines"
        case let .invalidSignature(name, keyID):
            "the signature by \(name)+\(NoteKeyID.text(keyID)) does not verify"
        case let .ambiguousKey(name, keyID):
            "two different keys are named \(name)+\(NoteKeyID.text(keyID))"
        case let .noKnownSignature(signedBy):
            signedBy.isEmpty
                ? "the note is not signed by any of the given keys"
                : "the note is not signed by any of the given keys (signed by \(signedBy.joined(separator: ", ")))"
        case let .signing(reason):
            "cannot sign: \(reason)"
        }
    }
}
