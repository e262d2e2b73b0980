/// A C2SP signed note (Go's `sumdb/note`): text ending in a line feed, a blank line, and one
/// signature line per signer. Each signature is the Ed25519 signature of the text's bytes.
public struct SignedNote: Sendable, Equatable {
    /// The signed text, ending in a line feed.
    public let text: String
    public let signatures: [NoteSignature]

    /// The most signature lines a note may have (as in Go's `note.Open`).
    public static let maxSignatures = 100

    /// The signature lines start with this: an em dash (U+2014) and a space.
    static let signaturePrefix = Array("— ".utf8)

    public init(text: String, signatures: [NoteSignature]) throws(NoteError) {
        try Self.checkText(Array(text.utf8))
        self.text = text
        self.signatures = signatures
    }

    /// A note whose text was already checked (one that was parsed or signed).
    init(checkedText text: String, signatures: [NoteSignature]) {
        self.text = text
        self.signatures = signatures
    }

    /// Signs `text` (non-empty, ending in a line feed, no control characters but line feeds).
    public init(signing text: String, with signers: [NoteSigner]) throws(NoteError) {
        let bytes = Array(text.utf8)
        try Self.checkText(bytes)
        var signatures: [NoteSignature] = []
        for signer in signers {
            do {
                signatures.append(
                    NoteSignature(name: signer.name, keyID: signer.keyID, signature: try signer.sign(bytes)))
            } catch {
                throw .signing(error.description)
            }
        }
        self.text = text
        self.signatures = signatures
    }

    /// The whole note: the text, a blank line, then the signature lines, each ending in a line feed.
    public var rendered: String {
        text + "\n" + signatures.map { $0.line + "\n" }.joined()
    }

    /// Parses a whole note (signatures are not checked: see ``verify(with:)``).
    public init(parsing note: String) throws(NoteError) {
        try self.init(parsing: Array(note.utf8))
    }

    /// Parses a whole note from its bytes, which must be valid UTF-8.
    public init(parsing note: [UInt8]) throws(NoteError) {
        try Self.checkCharacters(note)
        guard let split = Self.lastBlankLine(note) else { throw .missingSignatureBlock }
        let textBytes = Array(note[..<(split + 1)])
        let block = note[(split + 2)...]
        guard block.last == UInt8(ascii: "\n") else { throw .missingSignatureBlock }
        let firstLine = textBytes.count(where: { $0 == UInt8(ascii: "\n") }) + 2
        var signatures: [NoteSignature] = []
        for (offset, line) in block.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            guard signatures.count < Self.maxSignatures else { throw .tooManySignatures }
            signatures.append(try Self.parseSignature(Array(line), line: firstLine + offset))
        }
        self.text = String(decoding: textBytes, as: UTF8.self)
        self.signatures = signatures
    }

    /// Checks the signatures against `verifiers` as Go's `note.Open` does: signatures by unknown
    /// keys are ignored, a known key's signature that does not verify is an error, and at least
    /// one known key must have signed. Returns the keys whose signatures verified, in note order.
    @discardableResult
    public func verify(with verifiers: [NoteVerifier]) throws(NoteError) -> [NoteVerifier] {
        let textBytes = Array(text.utf8)
        var verified: [NoteVerifier] = []
        for signature in signatures {
            let matching = verifiers.filter { $0.name == signature.name && $0.keyID == signature.keyID }
            guard let verifier = matching.first else { continue }
            guard matching.allSatisfy({ $0 == verifier }) else {
                throw .ambiguousKey(name: signature.name, keyID: signature.keyID)
            }
            if verified.contains(verifier) { continue }
            guard verifier.isValidNoteSignature(signature.signature, text: textBytes) else {
                throw .invalidSignature(name: signature.name, keyID: signature.keyID)
            }
            verified.append(verifier)
        }
        guard !verified.isEmpty else {
            throw .noKnownSignature(signedBy: signatures.map { "\($0.name)+\(NoteKeyID.text($0.keyID))" })
        }
        return verified
    }

    private static func checkText(_ bytes: [UInt8]) throws(NoteError) {
        guard bytes.last == UInt8(ascii: "\n") else { throw .textNotEndingInNewline }
        try checkCharacters(bytes)
    }

    /// Valid UTF-8 without ASCII control characters other than line feed.
    private static func checkCharacters(_ bytes: [UInt8]) throws(NoteError) {
        if let offset = bytes.firstIndex(where: { $0 < 0x20 && $0 != UInt8(ascii: "\n") }) {
            throw .invalidCharacter(byteOffset: offset)
        }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return
            case .error:
                throw .invalidCharacter(byteOffset: offset)
            }
        }
    }

    /// Index of the first line feed of the last "\n\n" in `bytes`.
    private static func lastBlankLine(_ bytes: [UInt8]) -> Int? {
        var index = bytes.count - 2
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "\n") && bytes[index + 1] == UInt8(ascii: "\n") { return index }
            index -= 1
        }
        return nil
    }

    static func parseSignature(_ line: [UInt8], line number: Int) throws(NoteError) -> NoteSignature {
        guard line.starts(with: signaturePrefix) else {
            throw .malformedSignatureLine(line: number, reason: "a signature line starts with '— ' (U+2014, space)")
        }
        let rest = line.dropFirst(signaturePrefix.count)
        guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else {
            throw .malformedSignatureLine(line: number, reason: "expected '— <name> <base64 signature>'")
        }
        let name: String
        switch NoteKeyName.validated(rest[..<space]) {
        case let .success(valid): name = valid
        case let .failure(error): throw .malformedSignatureLine(line: number, reason: error.description)
        }
        guard let bytes = Base64.decode(String(decoding: rest[(space + 1)...], as: UTF8.self)), bytes.count >= 5 else {
            throw .malformedSignatureLine(line: number, reason: "the signature is not base64 of a key id and signature")
        }
        let keyID = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return NoteSignature(name: name, keyID: keyID, signature: Array(bytes.dropFirst(4)))
    }
}

extension NoteSignature {
    /// Parses one signature line (`— <name> <base64>`, without its line feed).
    public init(parsingLine line: String) throws(NoteError) {
        self = try SignedNote.parseSignature(Array(line.utf8), line: 1)
    }
}
