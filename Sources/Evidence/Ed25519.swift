/// Ed25519 keys (RFC 8032) for signing checkpoints, through OpenSSL.
///
/// A private key is its 32-byte seed; signing is deterministic, so one key signs one message
/// the same way every time (and the same way as Go's `crypto/ed25519`).
public enum Ed25519 {
    /// The size of a seed, of a public key.
    public static let keySize = 32
    /// The size of a signature.
    public static let signatureSize = 64

    /// A signing key. Its description never shows the seed.
    public struct PrivateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The 32-byte seed: the secret. Only the key formats read it.
        package let seed: [UInt8]
        public let publicKey: PublicKey

        /// The key of a 32-byte seed.
        public init(seed: [UInt8]) throws(Ed25519Error) {
            guard seed.count == keySize else { throw .wrongSeedSize(seed.count) }
            do {
                self.publicKey = PublicKey(checkedBytes: try LibCrypto.ed25519PublicKey(seed: seed))
            } catch {
                throw .crypto(error.description)
            }
            self.seed = seed
        }

        /// A new key from 32 random bytes of OpenSSL's CSPRNG.
        public static func generate() throws(Ed25519Error) -> PrivateKey {
            let seed: [UInt8]
            do {
                seed = try LibCrypto.randomBytes(keySize)
            } catch {
                throw .crypto(error.description)
            }
            return try PrivateKey(seed: seed)
        }

        /// The 64-byte signature of `message`.
        public func sign(_ message: some Collection<UInt8>) throws(Ed25519Error) -> [UInt8] {
            do {
                return try LibCrypto.ed25519Sign(seed: seed, message: message)
            } catch {
                throw .crypto(error.description)
            }
        }

        public var description: String { "Ed25519 private key (public \(Base64.encode(publicKey.bytes)))" }
        public var debugDescription: String { description }
        public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey]) }
    }

    /// A verifying key.
    public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
        /// The 32-byte encoded point.
        public let bytes: [UInt8]

        /// The key of 32 encoded bytes (whether they are a valid point shows when verifying).
        public init(bytes: [UInt8]) throws(Ed25519Error) {
            guard bytes.count == keySize else { throw .wrongPublicKeySize(bytes.count) }
            self.bytes = bytes
        }

        init(checkedBytes: [UInt8]) { self.bytes = checkedBytes }

        /// True when `signature` is this key's signature of `message`.
        public func isValidSignature(_ signature: [UInt8], of message: some Collection<UInt8>) -> Bool {
            LibCrypto.ed25519Verify(publicKey: bytes, message: message, signature: signature)
        }

        public var description: String { "Ed25519 public key \(Base64.encode(bytes))" }
    }
}
