import COpenSSL

/// The evidence code's only calls into OpenSSL's libcrypto: SHA-256 (the Merkle tree, key ids),
/// Ed25519 (note signatures) and the system's random bytes (key generation).
///
/// SHA-256 traps when OpenSSL cannot allocate a digest context: a tree hash or a signature over
/// a made-up value must never be produced, and there is nothing sensible to return instead.
package enum LibCrypto {
    /// OpenSSL's SHA-256, fetched once; a fetched `EVP_MD` may be shared by every thread.
    nonisolated(unsafe) private static let sha256Digest: OpaquePointer = {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("OpenSSL could not fetch SHA256") }
        return md
    }()

    /// Feeds bytes to one SHA-256 computation (see ``sha256(_:)``).
    package struct SHA256Input: ~Copyable {
        fileprivate let context: OpaquePointer

        package func update(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
                fatalError("OpenSSL SHA-256 update failed")
            }
        }

        package func update(byte: UInt8) {
            withUnsafeBytes(of: byte) { update($0) }
        }

        package func update(_ bytes: some Collection<UInt8>) {
            if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) == nil {
                Array(bytes).withUnsafeBytes { update($0) }
            }
        }
    }

    /// SHA-256 of everything `body` feeds in, in order.
    package static func sha256(_ body: (borrowing SHA256Input) -> Void) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex2(context, sha256Digest, nil) == 1 else { fatalError("OpenSSL SHA-256 init failed") }
        body(SHA256Input(context: context))
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else {
            fatalError("OpenSSL SHA-256 final failed")
        }
        return out
    }

    /// SHA-256 of `bytes`.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        sha256 { $0.update(bytes) }
    }
}
