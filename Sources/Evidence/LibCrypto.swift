import COpenSSL

/// The evidence code's only calls into OpenSSL's libcrypto: SHA-256 (the Merkle tree, key ids),
/// Ed25519 (note signatures) and the system's random bytes (key generation).
///
/// SHA-256 runs on a context on the stack through the digest's own functions (the COpenSSL
/// shim), not EVP: in OpenSSL 3.0 each EVP digest allocates its state and checks the error
/// queue, a large share of a proof that hashes a few dozen nodes. It traps when OpenSSL fails:
/// a tree hash or a signature over a made-up value must never be produced, and there is nothing
/// sensible to return instead.
package enum LibCrypto {
    /// Feeds bytes to one SHA-256 computation (see ``sha256(_:)``).
    package struct SHA256Input: ~Copyable {
        fileprivate let context: UnsafeMutablePointer<SHA256_CTX>

        package func update(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            guard journal_sha256_update(context, bytes.baseAddress, bytes.count) == 1 else {
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
        withUnsafeTemporaryAllocation(of: SHA256_CTX.self, capacity: 1) { scratch in
            // The context lives only for this call: its pointer does not escape `body`.
            let context = scratch.baseAddress!
            guard journal_sha256_begin(context) == 1 else { fatalError("OpenSSL SHA-256 init failed") }
            body(SHA256Input(context: context))
            var out = [UInt8](repeating: 0, count: 32)
            guard out.withUnsafeMutableBytes({ journal_sha256_end(context, $0.baseAddress) }) == 1 else {
                fatalError("OpenSSL SHA-256 final failed")
            }
            return out
        }
    }

    /// SHA-256 of `bytes`.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        sha256 { $0.update(bytes) }
    }
}
