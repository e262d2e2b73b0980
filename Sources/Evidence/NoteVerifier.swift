/// A verifier key of C2SP signed-note (Go's `sumdb/note`): `<name>+<id>+<base64(type ‖ public key)>`,
/// where `<id>` is 8 lowercase hex digits (``NoteKeyID``) and type 0x01 for a log's key, 0x04
/// for a witness's cosignature/v1 key (``NoteKeyType``). Anyone may hold it; it checks the
/// signatures of the matching ``NoteSigner``.
public struct NoteVerifier: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    public let keyID: UInt32
    public let publicKey: Ed25519.PublicKey
    public let type: NoteKeyType

    /// The verifier of `publicKey` under `name`.
    public init(name: String, publicKey: Ed25519.PublicKey, type: NoteKeyType = .ed25519) throws(NoteKeyError) {
        if let problem = NoteKeyName.problem(name) { throw .invalidName(problem) }
        self.name = name
        self.publicKey = publicKey
        self.type = type
        self.keyID = NoteKeyID.compute(name: name, type: type, publicKey: publicKey.bytes)
    }

    /// Parses a verifier key's text. Trailing line-end characters (`\n`, `\r`) are ignored.
    public init(parsing text: String) throws(NoteKeyError) {
        let text = NoteVerifier.trimmingLineEnd(text)
        if text.hasPrefix("PRIVATE+KEY+") { throw .privateKeyGiven }
        let fields = text.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { throw .malformed("expected <name>+<id>+<key>") }
        if let problem = NoteKeyName.problem(fields[0]) { throw .invalidName(problem) }
        guard let stated = NoteKeyID.parse(fields[1]) else { throw .malformedKeyID }
        let (type, key) = try NoteVerifier.decodeKey(fields[2])
        let publicKey: Ed25519.PublicKey
        do {
            publicKey = try Ed25519.PublicKey(bytes: key)
        } catch {
            throw .wrongKeySize(key.count)
        }
        try self.init(name: String(fields[0]), publicKey: publicKey, type: type)
        guard keyID == stated else { throw .keyIDMismatch(stated: stated, computed: keyID) }
    }

    /// Parses a list of verifier keys, one per line; blank lines are skipped. Errors name the line.
    public static func list(parsing text: String) throws(NoteKeyError) -> [NoteVerifier] {
        var verifiers: [NoteVerifier] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = trimmingLineEnd(String(line))
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            do {
                verifiers.append(try NoteVerifier(parsing: line))
            } catch {
                throw .inList(line: offset + 1, error)
            }
        }
        guard !verifiers.isEmpty else { throw .emptyList }
        return verifiers
    }

    /// The key's text, `<name>+<id>+<base64(0x01 ‖ public key)>`.
    public var keyText: String {
        "\(name)+\(NoteKeyID.text(keyID))+\(Base64.encode([type.rawValue] + publicKey.bytes))"
    }

    public var description: String { keyText }

    /// True when `signature` (64 bytes, without the key id) is this key's signature of `message`.
    public func isValidSignature(_ signature: [UInt8], of message: some Collection<UInt8>) -> Bool {
        publicKey.isValidSignature(signature, of: message)
    }

    /// True when `signature` (the bytes after the key id of a signature line) is this key's
    /// signature of a note with `text`: for a log's key, the Ed25519 signature of the text; for
    /// a cosignature/v1 key, an 8-byte timestamp and the signature of
    /// ``Cosignature/message(time:text:)``.
    public func isValidNoteSignature(_ signature: [UInt8], text: [UInt8]) -> Bool {
        switch type {
        case .ed25519:
            return publicKey.isValidSignature(signature, of: text)
        case .cosignatureV1:
            guard let cosignature = Cosignature(signatureBytes: signature) else { return false }
            return publicKey.isValidSignature(
                cosignature.signature, of: Cosignature.message(time: cosignature.time, text: text))
        }
    }

    /// The key type and the 32 key bytes after it of a base64 key field.
    package static func decodeKey(_ field: some StringProtocol) throws(NoteKeyError) -> (NoteKeyType, [UInt8]) {
        guard let bytes = Base64.decode(field), !bytes.isEmpty else { throw .malformedBase64 }
        guard let type = NoteKeyType(rawValue: bytes[0]) else { throw .unknownAlgorithm(bytes[0]) }
        guard bytes.count == 1 + Ed25519.keySize else { throw .wrongKeySize(bytes.count - 1) }
        return (type, Array(bytes.dropFirst()))
    }

    package static func trimmingLineEnd(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" {
            text = Substring(text.unicodeScalars.dropLast())
        }
        return String(text)
    }
}
