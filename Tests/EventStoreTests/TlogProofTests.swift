import EventStore
import Testing

@Suite("tlog-proof text")
struct TlogProofTests {
    struct Log {
        let signer: NoteSigner
        let lines: [[UInt8]]
        let tree: MerkleTree
        let checkpoint: SignedCheckpoint

        init(size: Int = 11) throws {
            signer = try NoteSigner(
                name: "payments.example/journal",
                privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 4, count: 32)))
            lines = (1...size).map { Array(#"{"position":\#($0),"stream":"s","version":\#($0 - 1)}"#.utf8) }
            tree = MerkleTree(leafLines: lines)
            checkpoint = try SignedCheckpoint(
                signing: Checkpoint(origin: signer.name, size: tree.size, root: try tree.root()),
                with: signer)
        }

        func proof(position: Int64) throws -> TlogProof {
            TlogProof(
                extra: lines[Int(position - 1)], index: position - 1,
                proof: try tree.inclusionProof(index: position - 1), checkpoint: checkpoint)
        }
    }

    @Test("a proof is the header, extra, index, one hash per line, a blank line and the checkpoint verbatim")
    func layout() throws {
        let log = try Log()
        let proof = try log.proof(position: 6)
        let expected =
            "c2sp.org/tlog-proof@v1\nextra \(Base64.encode(log.lines[5]))\nindex 5\n"
            + proof.proof.map { Base64.encode($0) + "\n" }.joined() + "\n" + log.checkpoint.noteText
        #expect(proof.text == expected)
        #expect(proof.proof.count == 4)
        #expect(try TlogProof(parsing: proof.text) == proof)
    }

    @Test("every position's proof verifies with the log's key")
    func verifies() throws {
        let log = try Log()
        for position in Int64(1)...11 {
            try TlogProof(parsing: try log.proof(position: position).text).verify(with: [log.signer.verifier])
        }
    }

    @Test("an edited leaf line, another index, a flipped hash or another key fails")
    func failures() throws {
        let log = try Log()
        var proof = try log.proof(position: 3)
        proof.extra = Array(#"{"position":3,"stream":"s","version":3}"#.utf8)
        #expect(throws: TlogProofError.inclusion(.rootMismatch)) { try proof.verify(with: [log.signer.verifier]) }

        proof = try log.proof(position: 3)
        proof.index = 3
        #expect(throws: TlogProofError.self) { try proof.verify(with: [log.signer.verifier]) }
        proof.index = 11
        #expect(throws: TlogProofError.inclusion(.indexOutOfRange(index: 11, size: 11))) {
            try proof.verify(with: [log.signer.verifier])
        }

        proof = try log.proof(position: 3)
        proof.proof[1][0] ^= 1
        #expect(throws: TlogProofError.inclusion(.rootMismatch)) { try proof.verify(with: [log.signer.verifier]) }

        proof = try log.proof(position: 3)
        let stranger = try NoteSigner.generate(name: log.signer.name)
        #expect(throws: TlogProofError.self) { try proof.verify(with: [stranger.verifier]) }

        proof.extra = nil
        #expect(!proof.text.contains("extra"))
        #expect(try TlogProof(parsing: proof.text) == proof)
        #expect(throws: TlogProofError.missingExtra) { try proof.verify(with: [log.signer.verifier]) }
    }

    @Test("a malformed proof names its bad line")
    func malformed() throws {
        let log = try Log()
        let good = try log.proof(position: 6).text
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func with(_ line: Int, _ text: String) -> String {
            var copy = lines
            copy[line - 1] = text
            return copy.joined(separator: "\n")
        }
        let cases: [(String, TlogProofError)] = [
            (with(1, "c2sp.org/tlog-proof@v2"), .malformedLine(line: 1, reason: "expected c2sp.org/tlog-proof@v1")),
            (with(2, "extra !!"), .malformedLine(line: 2, reason: "the extra data is not base64")),
            (with(3, "index -1"), .malformedLine(line: 3, reason: "expected 'index <entry index>'")),
            (with(3, "index 05"), .malformedLine(line: 3, reason: "expected 'index <entry index>'")),
            (with(3, "idx 5"), .malformedLine(line: 3, reason: "expected 'index <entry index>'")),
            (with(5, "AAAA"), .malformedLine(line: 5, reason: "a proof hash is the base64 of 32 bytes")),
            (with(10, "x"), .checkpoint(firstLine: 9, .malformedSize("x"))),
            ("c2sp.org/tlog-proof@v1\nindex 1\n", .missingCheckpoint),
            (lines.prefix(7).joined(separator: "\n") + "\n", .missingCheckpoint),
            ("", .malformedLine(line: 1, reason: "expected c2sp.org/tlog-proof@v1"))
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try TlogProof(parsing: text) }
        }
        lines.removeAll()
    }
}
