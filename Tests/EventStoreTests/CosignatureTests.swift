import EventStore
import Foundation
import JournalCore
import Testing

@Suite("Witness keys and cosignature/v1")
struct CosignatureTests {
    static let seed = [UInt8](100..<132)
    static let name = "witness.example/w1"

    static func witnessKey() throws -> NoteSigner {
        try NoteSigner(name: name, privateKey: try Ed25519.PrivateKey(seed: seed), type: .cosignatureV1)
    }

    static func checkpointText() -> String {
        Checkpoint(origin: "payments.example/journal", size: 20_852_163, root: [UInt8](repeating: 7, count: 32)).text
    }

    @Test("a witness key's id is the first 4 bytes of SHA-256(name, line feed, 0x04, public key)")
    func witnessKeyID() throws {
        let signer = try Self.witnessKey()
        let hash = LibCrypto.sha256(Array("\(Self.name)\n".utf8) + [4] + signer.privateKey.publicKey.bytes)
        let id = EvidenceFixture.hexString(Array(hash.prefix(4)))
        #expect(
            signer.verifier.keyText == "\(Self.name)+\(id)+\(Base64.encode([4] + signer.privateKey.publicKey.bytes))")
        #expect(signer.privateKeyText == "PRIVATE+KEY+\(Self.name)+\(id)+\(Base64.encode([4] + Self.seed))")
        // The same key as a log key has another id: the type byte is in it.
        let logKey = try NoteSigner(name: Self.name, privateKey: signer.privateKey)
        #expect(logKey.keyID != signer.keyID)
        // Both texts parse back to the same key, type included.
        #expect(try NoteSigner(parsing: signer.privateKeyText).verifier == signer.verifier)
        let parsed = try NoteVerifier(parsing: signer.verifier.keyText)
        #expect(parsed.type == .cosignatureV1 && parsed == signer.verifier)
        #expect(throws: NoteKeyError.unknownAlgorithm(2)) {
            try NoteVerifier(parsing: "\(Self.name)+\(id)+\(Base64.encode([2] + signer.privateKey.publicKey.bytes))")
        }
    }

    @Test("a cosignature is the line of id, 8-byte big-endian time and the signature of the cosignature/v1 message")
    func cosignatureBytes() throws {
        let signer = try Self.witnessKey()
        let text = Self.checkpointText()
        let line = try Cosignature.sign(text: text, time: 1_679_315_147, with: signer)
        #expect(line.name == Self.name && line.keyID == signer.keyID)
        let bytes = line.signature
        #expect(bytes.count == 72)
        #expect(Array(bytes.prefix(8)) == [0, 0, 0, 0, 0x64, 0x18, 0x50, 0xCB])
        let message = Array("cosignature/v1\ntime 1679315147\n".utf8) + Array(text.utf8)
        #expect(signer.privateKey.publicKey.isValidSignature(Array(bytes.dropFirst(8)), of: message))
        #expect(Cosignature.message(time: 1_679_315_147, text: Array(text.utf8)) == message)
        // It verifies as a note signature with the witness key, and only on that text.
        #expect(signer.verifier.isValidNoteSignature(bytes, text: Array(text.utf8)))
        #expect(!signer.verifier.isValidNoteSignature(bytes, text: Array(text.utf8) + [0x41, 0x0A]))
        var later = bytes
        later[7] ^= 1
        #expect(!signer.verifier.isValidNoteSignature(later, text: Array(text.utf8)))
        // A log key does not sign a checkpoint with cosignature semantics, nor the reverse.
        #expect(throws: NoteKeyError.self) {
            try Cosignature.sign(text: text, time: 1, with: try NoteSigner(name: "log", privateKey: signer.privateKey))
        }
        #expect(throws: NoteKeyError.self) { try Cosignature.sign(text: text, time: 0, with: signer) }
    }

    @Test("the cosignature line is byte for byte the one Python's cryptography makes, and it verifies ours")
    func matchesAnIndependentImplementation() throws {
        guard PythonEd25519.available else {
            #expect(!PythonEd25519.required, "CI and python3 with the cryptography package is missing")
            return
        }
        let signer = try Self.witnessKey()
        let text = Self.checkpointText()
        for time: UInt64 in [1, 1_679_315_147, UInt64(Int64.max)] {
            let input = "\(EvidenceFixture.hexString(Self.seed)) \(Self.name) \(time)\n" + text
            let output = try #require(PythonEd25519.run(script: PythonEd25519.cosignScript, input: input))
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines[0] == NoteKeyIDText.of(signer))
            #expect(lines[1] == signer.verifier.keyText)
            let ours = try Cosignature.sign(text: text, time: time, with: signer)
            #expect(lines[2] == ours.line, "time \(time)")
            let base64 = String(ours.line.split(separator: " ")[2])
            let verdict = PythonEd25519.run(
                script: PythonEd25519.verifyScript, input: "\(signer.verifier.keyText) \(base64)\n" + text)
            #expect(verdict == "ok\n")
        }
    }

    @Test("the session of docs/witnesses.md: its cosignatures verify with the witness keys it shows")
    func documentedSession() throws {
        let doc = try String(
            contentsOf: EvidenceFixture.packageRoot.appendingPathComponent("docs/witnesses.md"), encoding: .utf8)
        let keys = try doc.split(separator: "\n").filter { $0.hasPrefix("witness-") && $0.contains("+B") }
            .map { try NoteVerifier(parsing: String($0)) }
        #expect(keys.count == 2 && keys.allSatisfy { $0.type == .cosignatureV1 })
        let start = try #require(doc.range(of: "--witness http://127.0.0.1:8082 --witness-key w2.vkey\n"))
        let end = try #require(doc.range(of: "$ journal checkpoint --list", range: start.upperBound..<doc.endIndex))
        let note = try SignedCheckpoint(parsing: String(doc[start.upperBound..<end.lowerBound]))
        #expect(note.note.cosigners(among: keys) == keys)
        #expect(note.checkpoint.size == 2496)
    }

    @Test("a note's cosigners are the given witnesses whose cosignature verifies, each once")
    func cosigners() throws {
        let logKey = try NoteSigner(
            name: "payments.example/journal", privateKey: try Ed25519.PrivateKey(seed: [UInt8](0..<32)))
        let w1 = try Self.witnessKey()
        let w2 = try NoteSigner(
            name: "witness.example/w2", privateKey: try Ed25519.PrivateKey(seed: [UInt8](1..<33)), type: .cosignatureV1)
        let signed = try SignedCheckpoint(
            signing: Checkpoint(origin: logKey.name, size: 20_852_163, root: [UInt8](repeating: 7, count: 32)),
            with: logKey)
        let text = signed.note.text
        let c1 = try Cosignature.sign(text: text, time: 5, with: w1)
        var forged = try Cosignature.sign(text: text, time: 6, with: w2)
        forged = NoteSignature(
            name: forged.name, keyID: forged.keyID, signature: Array(forged.signature.dropLast()) + [0])
        let cosigned = signed.adding(cosignatures: [c1, forged, c1])
        #expect(cosigned.note.signatures.count == 3)
        #expect(cosigned.note.cosigners(among: [w1.verifier, w2.verifier]) == [w1.verifier])
        // The log's signature still checks, the cosignatures being unknown to its key; parsed
        // back from text, the note is the same.
        #expect(try cosigned.verify(with: [logKey.verifier]) == [logKey.verifier])
        let reparsed = try SignedCheckpoint(parsing: cosigned.noteText)
        #expect(reparsed.note.cosigners(among: [w1.verifier, w2.verifier]) == [w1.verifier])
        // A witness key is not a log key: a checkpoint "signed" by a witness of the origin's
        // name does not verify as the log's.
        let impostor = try NoteSigner(name: logKey.name, privateKey: w1.privateKey, type: .cosignatureV1)
        let impostorLine = try Cosignature.sign(text: text, time: 9, with: impostor)
        let onlyCosigned = try SignedCheckpoint(parsing: text + "\n" + impostorLine.line + "\n")
        #expect(throws: CheckpointError.self) { try onlyCosigned.verify(with: [impostor.verifier]) }
    }
}

/// The key id of a signer as 8 lowercase hex digits (from its verifier key text).
enum NoteKeyIDText {
    static func of(_ signer: NoteSigner) -> String { String(signer.verifier.keyText.split(separator: "+")[1]) }
}
