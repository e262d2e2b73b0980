/// Why a signer (private) or verifier key text was refused. Never includes the key's text.
public enum NoteKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name breaks the name rule (``NoteKeyName``); the reason says which part.
    case invalidName(String)
    /// The text does not have the fields of a key (the reason names the missing one).
    case malformed(String)
    /// The key id is not 8 hexadecimal digits.
    case malformedKeyID
    /// The key bytes are not standard base64.
    case malformedBase64
    /// The key's algorithm byte is neither 1 (Ed25519) nor 4 (cosignature/v1).
    case unknownAlgorithm(UInt8)
    /// The key has the wrong number of bytes after the algorithm byte.
    case wrongKeySize(Int)
    /// The key id does not match the name and public key.
    case keyIDMismatch(stated: UInt32, computed: UInt32)
    /// A private key where a verifier key was expected (it is not echoed).
    case privateKeyGiven
    /// A verifier key where a private key was expected.
    case notAPrivateKey
    /// A list of verifier keys with a bad line (1-based).
    indirect case inList(line: Int, NoteKeyError)
    /// A list of verifier keys with no key in it.
    case emptyList
    /// OpenSSL failed while deriving the key.
    case crypto(String)

    public var description: String {
        switch self {
        case let .invalidName(reason): reason
        case let .malformed(reason): "not a key: \(reason)"
        case .malformedKeyID: "the key id is not 8 hexadecimal digits"
        case .malformedBase64: "the key is not standard base64"
        case let .unknownAlgorithm(byte):
            "unknown key algorithm \(byte) (1 is Ed25519, 4 an Ed25519 cosignature/v1 key)"
        case let .wrongKeySize(count): "an Ed25519 key has 32 bytes, not \(count)"
        case let .keyIDMismatch(stated, computed):
            "the key id \(NoteKeyID.text(stated)) does not match the name and key (\(NoteKeyID.text(computed)))"
        case .privateKeyGiven: "this is a private key (PRIVATE+KEY+…); give the verifier key"
        case .notAPrivateKey: "not a private key: it does not start with PRIVATE+KEY+"
        case let .inList(line, reason): "line \(line): \(reason)"
        case .emptyList: "no verifier key given"
        case let .crypto(reason): reason
        }
    }
}
