import EventStore
import Testing

@Suite("Signed notes and checkpoints")
struct SignedNoteTests {
    static let text =
        "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
    static let peterSig =
        "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
    static let enochKey = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
    static let enochSig =
        "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n"

    private var peter: NoteVerifier { get throws { try NoteVerifier(parsing: NoteKeyTests.goVerifierKey) } }
    private var enoch: NoteVerifier { get throws { try NoteVerifier(parsing: Self.enochKey) } }

    @Test("signing Go's example text with Go's example key gives Go's note byte for byte")
    func goExampleSignature() throws {
        let signer = try NoteSigner(parsing: NoteKeyTests.goSignerKey)
        let note = try SignedNote(signing: Self.text, with: [signer])
        #expect(note.rendered == Self.text + "\n" + Self.peterSig)
        #expect(try SignedNote(parsing: note.rendered) == note)
        #expect(try note.verify(with: [try peter]) == [try peter])
    }

    @Test("unknown keys are ignored, one known valid signature is required, a failing known key is an error")
    func verificationRules() throws {
        let both = try SignedNote(parsing: Self.text + "\n" + Self.peterSig + Self.enochSig)
        #expect(both.signatures.map(\.name) == ["PeterNeumann", "EnochRoot"])
        #expect(try both.verify(with: [try peter]) == [try peter])
        #expect(try both.verify(with: [try enoch]) == [try enoch])
        #expect(try both.verify(with: [try enoch, try peter]) == [try peter, try enoch])
        #expect(throws: NoteError.noKnownSignature(signedBy: ["PeterNeumann+c74f20a3", "EnochRoot+af0cfe78"])) {
            try both.verify(with: [])
        }
        let stranger = try NoteSigner.generate(name: "stranger").verifier
        #expect(throws: NoteError.self) { try both.verify(with: [stranger]) }

        let sig = Self.peterSig
        let index = sig.index(sig.startIndex, offsetBy: 60)
        let tampered = try SignedNote(parsing: Self.text + "\n" + sig[..<index] + "ABCD" + sig[index...])
        #expect(throws: NoteError.invalidSignature(name: "PeterNeumann", keyID: 0xC74F_20A3)) {
            try tampered.verify(with: [try peter])
        }
        // A signature by the right key over other text fails too.
        let otherText = try SignedNote(parsing: "Other text.\n\n" + Self.peterSig)
        #expect(throws: NoteError.invalidSignature(name: "PeterNeumann", keyID: 0xC74F_20A3)) {
            try otherText.verify(with: [try peter])
        }
        // A known key that fails is an error even when another known key verifies.
        let mixed = try SignedNote(parsing: Self.text + "\n" + Self.enochSig + sig[..<index] + "ABCD" + sig[index...])
        #expect(throws: NoteError.invalidSignature(name: "PeterNeumann", keyID: 0xC74F_20A3)) {
            try mixed.verify(with: [try enoch, try peter])
        }
    }

    @Test("a key given twice, or a signature repeated, counts once; a same-named key with another id is not used")
    func repeats() throws {
        let note = try SignedNote(parsing: Self.text + "\n" + Self.peterSig + Self.peterSig)
        #expect(try note.verify(with: [try peter, try peter]) == [try peter])
        let namesake = try NoteVerifier(
            name: "PeterNeumann",
            publicKey: try Ed25519.PublicKey(bytes: [UInt8](repeating: 9, count: 32)))
        #expect(namesake.keyID != 0xC74F_20A3)
        #expect(try note.verify(with: [namesake, try peter]) == [try peter])
        #expect(throws: NoteError.self) { try note.verify(with: [namesake]) }
    }

    @Test("malformed notes are refused with the reason and line, as Go's note.Open refuses them")
    func malformedNotes() throws {
        let sig = Self.peterSig
        let cases: [([UInt8], NoteError)] = [
            (Array(Self.text.utf8), .missingSignatureBlock),
            (Array((Self.text + "\n").utf8), .missingSignatureBlock),
            (Array((Self.text + "\n" + sig.dropLast()).utf8), .missingSignatureBlock),
            ([0x01] + Array((Self.text + "\n" + sig).utf8), .invalidCharacter(byteOffset: 0)),
            ([0xFF] + Array((Self.text + "\n" + sig).utf8), .invalidCharacter(byteOffset: 0)),
            (
                Array(
                    (Self.text + "\n"
                        + "— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXg"
                        + "KvqfqdngotpRZb6KE6RyyBwJnAM=\n")
                        .utf8),
                .malformedSignatureLine(line: 4, reason: "the signature is not base64 of a key id and signature")
            ),
            (
                Array((Self.text + "\n" + "— PeterNeumann\n").utf8),
                .malformedSignatureLine(line: 4, reason: "expected '— <name> <base64 signature>'")
            ),
            (
                Array((Self.text + "\n" + sig + "Unexpected line.\n").utf8),
                .malformedSignatureLine(line: 5, reason: "a signature line starts with '— ' (U+2014, space)")
            ),
            (
                Array(
                    (Self.text + "\n"
                        + "- PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXg"
                        + "KvqfqdngotpRZb6KE6RyyBwJnAM=\n")
                        .utf8),
                .malformedSignatureLine(line: 4, reason: "a signature line starts with '— ' (U+2014, space)")
            ),
            (
                Array((Self.text + "\n" + "— PeterNeumann x08go/ZJkuBS9UG\n").utf8),
                .malformedSignatureLine(line: 4, reason: "the signature is not base64 of a key id and signature")
            ),
            (
                Array((Self.text + "\n" + "— PeterNeumann AAAA\n").utf8),
                .malformedSignatureLine(line: 4, reason: "the signature is not base64 of a key id and signature")
            ),
            (Array((Self.text + "\n" + String(repeating: sig, count: 101)).utf8), .tooManySignatures),
            (Array(("a\tb\n\n" + sig).utf8), .invalidCharacter(byteOffset: 1))
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected, "\(String(decoding: bytes, as: UTF8.self))") { try SignedNote(parsing: bytes) }
        }
        #expect(try SignedNote(parsing: Self.text + "\n" + String(repeating: sig, count: 100)).signatures.count == 100)
    }

    @Test("only text that ends with a line feed and has no control characters is signed")
    func signingRules() throws {
        let signer = try NoteSigner.generate(name: "journal")
        #expect(throws: NoteError.textNotEndingInNewline) { try SignedNote(signing: "abc", with: [signer]) }
        #expect(throws: NoteError.textNotEndingInNewline) { try SignedNote(signing: "", with: [signer]) }
        #expect(throws: NoteError.invalidCharacter(byteOffset: 1)) { try SignedNote(signing: "a\rb\n", with: [signer]) }
        // Blank lines inside the text are kept: the signatures start after the last blank line.
        let note = try SignedNote(signing: "a\n\nb\n", with: [signer])
        #expect(note.rendered == "a\n\nb\n\n" + note.signatures[0].line + "\n")
        #expect(try SignedNote(parsing: note.rendered).text == "a\n\nb\n")
        #expect(try SignedNote(parsing: note.rendered).verify(with: [signer.verifier]) == [signer.verifier])
    }

    @Test("a note signed by two keys renders one em-dash line per signer and verifies with either")
    func twoSigners() throws {
        let first = try NoteSigner(
            name: "first", privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: 32)))
        let second = try NoteSigner(
            name: "second", privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 2, count: 32)))
        let note = try SignedNote(signing: "hello\n", with: [first, second])
        let lines = note.rendered.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[1].isEmpty && lines[4].isEmpty)
        #expect(lines[2].hasPrefix("\u{2014} first ") && lines[3].hasPrefix("\u{2014} second "))
        #expect(try note.verify(with: [second.verifier]) == [second.verifier])
        // Deterministic: the same key signs the same text the same way.
        #expect(try SignedNote(signing: "hello\n", with: [first, second]) == note)
    }

    // MARK: Checkpoints

    private static let root = [UInt8](repeating: 0xAB, count: 32)

    @Test("a checkpoint is origin, size and base64 root, one per line, and parses back")
    func checkpointFormat() throws {
        let checkpoint = Checkpoint(origin: "payments.example/journal", size: 42, root: Self.root)
        #expect(checkpoint.text == "payments.example/journal\n42\n\(Base64.encode(Self.root))\n")
        #expect(try Checkpoint(parsing: checkpoint.text) == checkpoint)
        let withExtensions = Checkpoint(origin: "o", size: 0, root: Merkle.emptyRoot, extensions: ["x y", "z"])
        #expect(withExtensions.text.hasSuffix("\nx y\nz\n"))
        #expect(try Checkpoint(parsing: withExtensions.text) == withExtensions)
    }

    @Test("a bad checkpoint text is refused naming the bad line")
    func checkpointErrors() {
        let root = Base64.encode(Self.root)
        let cases: [(String, CheckpointError)] = [
            ("o\n1\n\(root)", .notEndingInNewline),
            ("o\n1\n", .missingLines(count: 2)),
            ("\n1\n\(root)\n", .emptyOrigin),
            ("o\n01\n\(root)\n", .malformedSize("01")),
            ("o\n+1\n\(root)\n", .malformedSize("+1")),
            ("o\n-1\n\(root)\n", .malformedSize("-1")),
            ("o\n 1\n\(root)\n", .malformedSize(" 1")),
            ("o\n9223372036854775808\n\(root)\n", .malformedSize("9223372036854775808")),
            ("o\n1\nnot base64\n", .malformedRoot("not base64")),
            ("o\n1\n\(Base64.encode([1, 2, 3]))\n", .malformedRoot("3 bytes, not 32")),
            ("o\n1\n\(root)\n\n", .invalidExtensionLine(line: 1))
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try Checkpoint(parsing: text) }
        }
    }

    @Test("a signed checkpoint keeps its note verbatim and verifies only with a key named as its origin")
    func signedCheckpoints() throws {
        let signer = try NoteSigner(
            name: "payments.example/journal",
            privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 5, count: 32)))
        let checkpoint = Checkpoint(origin: signer.name, size: 7, root: Self.root)
        let signed = try SignedCheckpoint(signing: checkpoint, with: signer)
        #expect(signed.noteText == checkpoint.text + "\n" + signed.note.signatures[0].line + "\n")
        #expect(signed.noteText.contains("\n\n\u{2014} payments.example/journal "))
        let parsed = try SignedCheckpoint(parsing: signed.noteText)
        #expect(parsed == signed)
        #expect(try parsed.verify(with: [signer.verifier]) == [signer.verifier])

        let witness = try NoteSigner.generate(name: "witness")
        let cosigned = try SignedCheckpoint(
            parsing: try SignedNote(signing: checkpoint.text, with: [witness, signer]).rendered)
        #expect(try cosigned.verify(with: [witness.verifier, signer.verifier]).count == 2)
        #expect(throws: CheckpointError.originNotSigned(origin: signer.name)) {
            try cosigned.verify(with: [witness.verifier])
        }
        #expect(throws: CheckpointError.originNotSigned(origin: "other")) {
            try SignedCheckpoint(signing: Checkpoint(origin: "other", size: 1, root: Self.root), with: signer)
        }
        let other = try NoteSigner.generate(name: signer.name)
        #expect(
            throws: CheckpointError.note(
                .noKnownSignature(signedBy: ["\(signer.name)+\(NoteKeyID.text(signer.keyID))"]))
        ) {
            try parsed.verify(with: [other.verifier])
        }
        #expect(throws: CheckpointError.malformedSize("x")) {
            try SignedCheckpoint(parsing: try SignedNote(signing: "o\nx\ny\n", with: [signer]).rendered)
        }
        #expect(throws: CheckpointError.note(.missingSignatureBlock)) { try SignedCheckpoint(parsing: checkpoint.text) }
    }
}
