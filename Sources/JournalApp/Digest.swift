import COpenSSL
import EventStore

/// An incremental SHA-256, for replay digests (the one place the cli calls OpenSSL).
package final class SHA256Digest {
    private let context: OpaquePointer

    package init() {
        guard let context = EVP_MD_CTX_new() else {
            // Allocating a few bytes failed: the process is out of memory; nothing sensible remains.
            fatalError("EVP_MD_CTX_new failed")
        }
        self.context = context
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count) }
    }

    package func update(_ text: String) { update(Array(text.utf8)) }

    /// The digest as 64 hex digits; call once.
    package func finish() -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
        return Hex.string(out)
    }
}
