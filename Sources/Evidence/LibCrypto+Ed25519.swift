import COpenSSL

// Ed25519 through EVP_PKEY_ED25519 (a NULL digest: Ed25519 hashes internally) and RAND_bytes.
extension LibCrypto {
    /// Why an Ed25519 call into OpenSSL failed (never carries key bytes).
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The 32-byte Ed25519 public key of a 32-byte seed (RFC 8032 private key).
    package static func ed25519PublicKey(seed: [UInt8]) throws(Failure) -> [UInt8] {
        let key = try privateKey(seed: seed)
        defer { EVP_PKEY_free(key) }
        var publicKey = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_raw_public_key(key, &publicKey, &length) == 1, length == 32 else {
            throw Failure(description: "OpenSSL could not derive the Ed25519 public key")
        }
        return publicKey
    }

    /// The 64-byte Ed25519 signature of `message` by the key with `seed` (deterministic, RFC 8032).
    package static func ed25519Sign(seed: [UInt8], message: some Collection<UInt8>) throws(Failure) -> [UInt8] {
        let key = try privateKey(seed: seed)
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "OpenSSL could not allocate a context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else {
            throw Failure(description: "OpenSSL could not start an Ed25519 signature")
        }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = 64
        let message = Array(message)
        let result = message.withUnsafeBufferPointer { message in
            EVP_DigestSign(context, &signature, &length, message.baseAddress, message.count)
        }
        guard result == 1, length == 64 else { throw Failure(description: "OpenSSL could not sign with Ed25519") }
        return signature
    }

    /// True when `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    package static func ed25519Verify(publicKey: [UInt8], message: some Collection<UInt8>, signature: [UInt8]) -> Bool {
        guard publicKey.count == 32, signature.count == 64,
            let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, 32)
        else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        let message = Array(message)
        return message.withUnsafeBufferPointer { message in
            EVP_DigestVerify(context, signature, 64, message.baseAddress, message.count) == 1
        }
    }

    /// `count` bytes from OpenSSL's CSPRNG (seeded by the operating system).
    package static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw Failure(description: "OpenSSL could not produce random bytes")
        }
        return bytes
    }

    private static func privateKey(seed: [UInt8]) throws(Failure) -> OpaquePointer {
        guard seed.count == 32 else { throw Failure(description: "an Ed25519 seed has 32 bytes, not \(seed.count)") }
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, 32) else {
            throw Failure(description: "OpenSSL could not load the Ed25519 key")
        }
        return key
    }
}
