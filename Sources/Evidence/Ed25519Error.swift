/// Why an Ed25519 key could not be made or used.
public enum Ed25519Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// A seed (private key) is 32 bytes.
    case wrongSeedSize(Int)
    /// A public key is 32 bytes.
    case wrongPublicKeySize(Int)
    /// OpenSSL failed.
    case crypto(String)

    public var description: String {
        switch self {
        case let .wrongSeedSize(count): "an Ed25519 private key seed has 32 bytes, not \(count)"
        case let .wrongPublicKeySize(count): "an Ed25519 public key has 32 bytes, not \(count)"
        case let .crypto(reason): reason
        }
    }
}
