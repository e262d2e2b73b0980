import EventStore
import JournalCore
import Testing

@Suite("Consistency proofs between checkpoints")
struct ConsistencyProofTests {
    private struct Log {
        let signer: NoteSigner
        let tree: MerkleTree

        init() throws {
            signer = try NoteSigner(
                name: "payments.example/journal",
                privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 8, count: 32)))
            tree = MerkleTree(leafLines: (0..<30).map(EvidenceFixture.leafLine))
        }

        func checkpoint(_ size: Int64, root: [UInt8]? = nil, signer: NoteSigner? = nil) throws -> SignedCheckpoint {
            let signer = signer ?? self.signer
            return try SignedCheckpoint(
                signing: Checkpoint(
                    origin: signer.name, size: size,
                    root: try root ?? tree.root(size: size)), with: signer)
        }

        func proof(_ from: Int64, _ to: Int64) throws -> ConsistencyProof {
            ConsistencyProof(fromSize: from, toSize: to, hashes: try tree.consistencyProof(oldSize: from, newSize: to))
        }
    }

    @Test("the text is one base64 hash per line, the JSON has fromSize, toSize and proof, and both read back")
    func formats() throws {
        let log = try Log()
        let proof = try log.proof(7, 30)
        #expect(proof.text == proof.hashes.map { Base64.encode($0) + "\n" }.joined())
        #expect(try ConsistencyProof(parsing: proof.text, fromSize: 7, toSize: 30) == proof)
        #expect(JSONWriter.string(proof.json).hasPrefix(#"{"fromSize":7,"toSize":30,"proof":[""#))
        #expect(try log.proof(30, 30).text == "")
        #expect(throws: ConsistencyProofError.malformedLine(line: 2, reason: "a proof hash is the base64 of 32 bytes"))
        {
            try ConsistencyProof(parsing: Base64.encode(Merkle.emptyRoot) + "\nAAAA\n", fromSize: 1, toSize: 2)
        }
    }

    @Test("a proof between two signed checkpoints of one log verifies; a rewritten log, other sizes or keys fail")
    func betweenCheckpoints() throws {
        let log = try Log()
        let verifiers = [log.signer.verifier]
        try log.proof(7, 30).verify(from: try log.checkpoint(7), to: try log.checkpoint(30), with: verifiers)
        try log.proof(30, 30).verify(from: try log.checkpoint(30), to: try log.checkpoint(30), with: verifiers)

        // A log rewritten after position 3: its tree at 7 is not the signed one.
        let rewritten = MerkleTree(
            leafLines: (0..<30).map { $0 == 3 ? Array("edited".utf8) : EvidenceFixture.leafLine($0) })
        let forged = ConsistencyProof(
            fromSize: 7, toSize: 30, hashes: try rewritten.consistencyProof(oldSize: 7, newSize: 30))
        #expect(throws: ConsistencyProofError.proof(.oldRootMismatch)) {
            try forged.verify(
                from: try log.checkpoint(7), to: try log.checkpoint(30, root: try rewritten.root()),
                with: verifiers)
        }
        #expect(
            throws: ConsistencyProofError.sizesDiffer(proofFrom: 7, proofTo: 30, oldCheckpoint: 8, newCheckpoint: 30)
        ) {
            try log.proof(7, 30).verify(from: try log.checkpoint(8), to: try log.checkpoint(30), with: verifiers)
        }
        let stranger = try NoteSigner.generate(name: log.signer.name)
        #expect(throws: ConsistencyProofError.self) {
            try log.proof(7, 30).verify(
                from: try log.checkpoint(7), to: try log.checkpoint(30, signer: stranger),
                with: verifiers)
        }
        let other = try NoteSigner.generate(name: "other.example/journal")
        #expect(throws: ConsistencyProofError.differentOrigins(old: log.signer.name, new: other.name)) {
            try log.proof(7, 30).verify(
                from: try log.checkpoint(7), to: try log.checkpoint(30, signer: other),
                with: verifiers + [other.verifier])
        }
    }

    @Test("a signed checkpoint's JSON has origin, size, base64 root and the whole note")
    func checkpointJSON() throws {
        let log = try Log()
        let checkpoint = try log.checkpoint(7)
        let object = try #require(checkpoint.json.objectValue)
        #expect(object.keys == ["origin", "size", "root", "note"])
        #expect(object["origin"]?.stringValue == log.signer.name)
        #expect(object["size"]?.numberValue?.int64 == 7)
        #expect(object["root"]?.stringValue == Base64.encode(try log.tree.root(size: 7)))
        #expect(object["note"]?.stringValue == checkpoint.noteText)
    }
}
