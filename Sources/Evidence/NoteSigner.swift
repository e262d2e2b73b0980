/// A signer (private) key of C2SP signed-note (Go's `sumdb/note`):
/// `PRIVATE+KEY+<name>+<id>+<base64(type ‖ 32-byte seed)>`, where `<id>` is the id of the
/// matching ``NoteVerifier`` and type its ``NoteKeyType`` (0x01 for a log, 0x04 for a witness).
/// Keys made by Go's `note.GenerateKey` work here and the other way.
///
/// The description shows only the verifier key; the private text is ``privateKeyText``, to be
/// written to a file of mode 0600 and never to a screen or log.
public struct NoteSigner: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let name: String
    public let privateKey: Ed25519.PrivateKey
    public let verifier: NoteVerifier

    public var keyID: UInt32 { verifier.keyID }
    public var type: NoteKeyType { verifier.type }

    /// The signer of `privateKey` under `name`.
    public init(name: String, privateKey: Ed25519.PrivateKey, type: NoteKeyType = .ed25519) throws(NoteKeyError) {
        self.verifier = try NoteVerifier(name: name, publicKey: privateKey.publicKey, type: type)
        self.name = name
        self.privateKey = privateKey
    }

    /// A new key named `name`, with a seed from OpenSSL's CSPRNG.
    public static func generate(name: String, type: NoteKeyType = .ed25519) throws(NoteKeyError) -> NoteSigner {
        if let problem = NoteKeyName.problem(name) { throw .invalidName(problem) }
        do {
            return try NoteSigner(name: name, privateKey: try Ed25519.PrivateKey.generate(), type: type)
        } catch let error as NoteKeyError {
            throw error
        } catch {
            throw .crypto(String(describing: error))
        }
    }

    /// Parses a private key's text. Trailing line-end characters (`\n`, `\r`) are ignored.
    public init(parsing text: String) throws(NoteKeyError) {
        let text = NoteVerifier.trimmingLineEnd(text)
        guard text.hasPrefix("PRIVATE+KEY+") else { throw .notAPrivateKey }
        let fields = text.dropFirst("PRIVATE+KEY+".count).split(
            separator: "+", maxSplits: 2,
            omittingEmptySubsequences: false)
        guard fields.count == 3 else { throw .malformed("expected PRIVATE+KEY+<name>+<id>+<key>") }
        if let problem = NoteKeyName.problem(fields[0]) { throw .invalidName(problem) }
        guard let stated = NoteKeyID.parse(fields[1]) else { throw .malformedKeyID }
        let (type, seed) = try NoteVerifier.decodeKey(fields[2])
        let privateKey: Ed25519.PrivateKey
        do {
            privateKey = try Ed25519.PrivateKey(seed: seed)
        } catch {
            throw .crypto(error.description)
        }
        try self.init(name: String(fields[0]), privateKey: privateKey, type: type)
        guard keyID == stated else { throw .keyIDMismatch(stated: stated, computed: keyID) }
    }

    /// The private key's text: the secret.
    public var privateKeyText: String {
        "PRIVATE+KEY+\(name)+\(NoteKeyID.text(keyID))+\(Base64.encode([type.rawValue] + privateKey.seed))"
    }

    /// The 64-byte Ed25519 signature of `message`.
    public func sign(_ message: some Collection<UInt8>) throws(NoteKeyError) -> [UInt8] {
        do {
            return try privateKey.sign(message)
        } catch {
            throw .crypto(error.description)
        }
    }

    public var description: String { "signer for \(verifier.keyText)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["verifier": verifier]) }
}
