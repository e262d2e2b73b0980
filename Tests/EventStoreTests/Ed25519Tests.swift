import EventStore
import Testing

@Suite("Ed25519 through OpenSSL")
struct Ed25519Tests {
    /// RFC 8032 §7.1, tests 1–3: seed, public key, message, signature (hex).
    private static let vectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd2"
                + "5bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c38"
                + "7b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a"
                + "7c15e9716ed28dc027beceea1ec40a"
        )
    ]

    @Test("a seed gives the RFC 8032 public key and signature, and the signature verifies")
    func rfc8032Vectors() throws {
        for vector in Self.vectors {
            let key = try Ed25519.PrivateKey(seed: EvidenceFixture.hex(vector.seed))
            #expect(EvidenceFixture.hexString(key.publicKey.bytes) == vector.publicKey)
            let message = EvidenceFixture.hex(vector.message)
            let signature = try key.sign(message)
            #expect(EvidenceFixture.hexString(signature) == vector.signature)
            #expect(key.publicKey.isValidSignature(signature, of: message))
        }
    }

    @Test("a signature fails for another message, a flipped bit, another key or a wrong length")
    func rejections() throws {
        let key = try Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))
        let other = try Ed25519.PrivateKey(seed: [UInt8](repeating: 8, count: 32))
        let message = Array("journal\n".utf8)
        let signature = try key.sign(message)
        #expect(key.publicKey.isValidSignature(signature, of: message))
        #expect(!key.publicKey.isValidSignature(signature, of: Array("journal!".utf8)))
        for bit in stride(from: 0, to: 512, by: 37) {
            var flipped = signature
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(!key.publicKey.isValidSignature(flipped, of: message), "bit \(bit)")
        }
        #expect(!other.publicKey.isValidSignature(signature, of: message))
        #expect(!key.publicKey.isValidSignature(Array(signature.dropLast()), of: message))
        #expect(!key.publicKey.isValidSignature(signature + [0], of: message))
    }

    @Test("generated keys differ and sign; seeds and public keys of the wrong size are refused")
    func generationAndSizes() throws {
        let first = try Ed25519.PrivateKey.generate()
        let second = try Ed25519.PrivateKey.generate()
        #expect(first.publicKey != second.publicKey)
        #expect(first.publicKey.isValidSignature(try first.sign([1, 2, 3]), of: [1, 2, 3]))
        #expect(throws: Ed25519Error.wrongSeedSize(31)) {
            try Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: Ed25519Error.wrongPublicKeySize(33)) {
            try Ed25519.PublicKey(bytes: [UInt8](repeating: 1, count: 33))
        }
    }

    @Test("a private key's description and dump never show its seed")
    func privateKeyStaysPrivate() throws {
        let seed = [UInt8](repeating: 0xAB, count: 32)
        let key = try Ed25519.PrivateKey(seed: seed)
        var dumped = ""
        dump(key, to: &dumped)
        for text in [key.description, key.debugDescription, String(describing: key), String(reflecting: key), dumped] {
            #expect(!text.contains("171"), "\(text)")
            #expect(!text.contains(Base64.encode(seed)))
            #expect(!text.lowercased().contains("abab"))
        }
    }
}
