import EventStore
import Testing

@Suite("Signed-note keys")
struct NoteKeyTests {
    /// The key pair of the examples of Go's golang.org/x/mod/sumdb/note.
    static let goSignerKey = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
    static let goVerifierKey = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"

    @Test("Go's example private key parses, gives Go's verifier key, and prints back unchanged")
    func goExampleKeys() throws {
        let signer = try NoteSigner(parsing: Self.goSignerKey)
        #expect(signer.name == "PeterNeumann")
        #expect(signer.keyID == 0xC74F_20A3)
        #expect(signer.verifier.keyText == Self.goVerifierKey)
        #expect(signer.privateKeyText == Self.goSignerKey)
        let verifier = try NoteVerifier(parsing: Self.goVerifierKey)
        #expect(verifier == signer.verifier)
        #expect(verifier.keyText == Self.goVerifierKey)
    }

    @Test("the key id is the first 4 bytes of SHA-256(name, line feed, 0x01, public key) in lowercase hex")
    func keyID() throws {
        let seed = [UInt8](0..<32)
        let signer = try NoteSigner(name: "payments.example/journal", privateKey: try Ed25519.PrivateKey(seed: seed))
        let hash = LibCrypto.sha256(Array("payments.example/journal\n".utf8) + [1] + signer.privateKey.publicKey.bytes)
        let id = EvidenceFixture.hexString(Array(hash.prefix(4)))
        #expect(signer.verifier.keyText.hasPrefix("payments.example/journal+\(id)+"))
        #expect(signer.privateKeyText.hasPrefix("PRIVATE+KEY+payments.example/journal+\(id)+"))
        #expect(signer.privateKeyText.hasSuffix(Base64.encode([1] + seed)))
        #expect(signer.verifier.keyText.hasSuffix(Base64.encode([1] + signer.privateKey.publicKey.bytes)))
        // An id with leading zeros keeps 8 digits.
        for n in 0..<64 {
            let other = try NoteSigner(
                name: "k\(n)", privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: UInt8(n), count: 32)))
            let fields = other.verifier.keyText.split(separator: "+")
            #expect(fields[1].count == 8 && fields[1] == fields[1].lowercased())
        }
    }

    @Test("every substring and every one-byte change of a verifier key is refused, as in Go's tests")
    func verifierManglings() {
        let bytes = Array(Self.goVerifierKey.utf8)
        for i in 0...bytes.count {
            for j in (i + 1)..<(bytes.count + 1) where i != 0 || j != bytes.count {
                let text = String(decoding: bytes[i..<j], as: UTF8.self)
                #expect(throws: NoteKeyError.self, "\(text)") { try NoteVerifier(parsing: text) }
            }
        }
        for i in bytes.indices {
            var changed = bytes
            changed[i] += 1
            let text = String(decoding: changed, as: UTF8.self)
            #expect(throws: NoteKeyError.self, "\(text)") { try NoteVerifier(parsing: text) }
        }
        // Go's "wrong length" case; its last group also has stray bits, which strict base64 refuses first.
        #expect(throws: NoteKeyError.malformedBase64) {
            try NoteVerifier(parsing: "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==")
        }
        #expect(throws: NoteKeyError.wrongKeySize(34)) {
            try NoteVerifier(parsing: "long+00000000+" + Base64.encode([1] + [UInt8](repeating: 0, count: 34)))
        }
        #expect(throws: NoteKeyError.unknownAlgorithm(0x65)) {
            try NoteVerifier(parsing: "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")
        }
    }

    @Test("every substring and every one-byte change of a private key is refused")
    func signerManglings() {
        let bytes = Array(Self.goSignerKey.utf8)
        for i in 0...bytes.count {
            for j in (i + 1)..<(bytes.count + 1) where i != 0 || j != bytes.count {
                let text = String(decoding: bytes[i..<j], as: UTF8.self)
                #expect(throws: NoteKeyError.self, "\(text)") { try NoteSigner(parsing: text) }
            }
        }
        for i in bytes.indices {
            var changed = bytes
            changed[i] += 1
            let text = String(decoding: changed, as: UTF8.self)
            #expect(throws: NoteKeyError.self, "\(text)") { try NoteSigner(parsing: text) }
        }
    }

    @Test("parse errors name what is wrong and never contain the private key")
    func namedErrors() throws {
        let signer = try NoteSigner(parsing: Self.goSignerKey)
        let secret = String(Self.goSignerKey.split(separator: "+", maxSplits: 4)[4])
        let cases: [(String, NoteKeyError)] = [
            ("PRIVATE+KEY+PeterNeumann+c74f20a3", .malformed("expected PRIVATE+KEY+<name>+<id>+<key>")),
            ("PRIVATE+KEY+PeterNeumann+c74f20a+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz", .malformedKeyID),
            ("PRIVATE+KEY+PeterNeumann+c74f20ag+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz", .malformedKeyID),
            ("PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDF", .malformedBase64),
            (
                "PRIVATE+KEY+PeterNeumann+c74f20a4+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz",
                .keyIDMismatch(stated: 0xC74F_20A4, computed: 0xC74F_20A3)
            ),
            (
                "PRIVATE+KEY++c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz",
                .invalidName("the key name is empty")
            ),
            (
                "PRIVATE+KEY+Peter Neumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz",
                .invalidName("the key name contains a space")
            ),
            (
                "PRIVATE+KEY+Peter\u{00A0}Neumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz",
                .invalidName("the key name contains a space")
            ),
            (signer.verifier.keyText, .notAPrivateKey)
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try NoteSigner(parsing: text) }
        }
        #expect(throws: NoteKeyError.privateKeyGiven) { try NoteVerifier(parsing: Self.goSignerKey) }
        for text in [Self.goSignerKey, Self.goSignerKey + "x", "PRIVATE+KEY+Peter Neumann+c74f20a3+" + secret] {
            for parse in [{ _ = try NoteSigner(parsing: text) }, { _ = try NoteVerifier(parsing: text) }] {
                do {
                    try parse()
                } catch {
                    #expect(!String(describing: error).contains(secret))
                }
            }
        }
        #expect(!signer.description.contains(secret))
        var dumped = ""
        dump(signer, to: &dumped)
        #expect(!dumped.contains(secret) && !String(reflecting: signer).contains(secret))
    }

    @Test("names with '+', spaces or nothing are refused when making a key")
    func nameRules() throws {
        let key = try Ed25519.PrivateKey(seed: [UInt8](repeating: 3, count: 32))
        for name in ["", "a+b", "a b", "a\tb", "a\nb", "a\u{2028}b", "a\u{3000}b"] {
            #expect(throws: NoteKeyError.self, "\(name)") { try NoteSigner(name: name, privateKey: key) }
            #expect(throws: NoteKeyError.self) { try NoteSigner.generate(name: name) }
        }
        for name in ["payments.example/journal", "ключ", "a-b_c.d/e:f"] {
            let signer = try NoteSigner(name: name, privateKey: key)
            #expect(try NoteVerifier(parsing: signer.verifier.keyText) == signer.verifier)
            #expect(try NoteSigner(parsing: signer.privateKeyText).verifier == signer.verifier)
        }
    }

    @Test("a key followed by a line feed parses; a list takes one key per line and names a bad line")
    func listsAndLineEnds() throws {
        #expect(try NoteVerifier(parsing: Self.goVerifierKey + "\n").keyText == Self.goVerifierKey)
        #expect(try NoteSigner(parsing: Self.goSignerKey + "\r\n").privateKeyText == Self.goSignerKey)
        let other = try NoteSigner.generate(name: "other")
        let list = try NoteVerifier.list(parsing: "\(Self.goVerifierKey)\n\n\(other.verifier.keyText)\n")
        #expect(list.map(\.name) == ["PeterNeumann", "other"])
        #expect(throws: NoteKeyError.inList(line: 3, .malformedKeyID)) {
            try NoteVerifier.list(parsing: "\(Self.goVerifierKey)\n\nx+y+z\n")
        }
        #expect(throws: NoteKeyError.emptyList) { try NoteVerifier.list(parsing: "\n \n") }
    }
}
