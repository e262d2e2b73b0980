import EventStore
import Foundation
import Testing

/// The examples of docs/evidence.md work as shown.
@Suite("docs/evidence.md examples")
struct EvidenceDocTests {
    private static func doc() throws -> String {
        try String(contentsOf: EvidenceFixture.packageRoot.appendingPathComponent("docs/evidence.md"), encoding: .utf8)
    }

    /// The text of the first fenced block after `marker`.
    private static func block(after marker: String, in doc: String) throws -> String {
        let start = try #require(doc.range(of: marker)).upperBound
        let open = try #require(doc.range(of: "```\n", range: start..<doc.endIndex)).upperBound
        let close = try #require(doc.range(of: "```\n", range: open..<doc.endIndex)).lowerBound
        return String(doc[open..<close])
    }

    @Test("the checkpoint shown verifies with the key shown, and its root is that of the 8 test-vector leaves")
    func checkpointExample() throws {
        let doc = try Self.doc()
        let note = try Self.block(after: "signed by the key", in: doc)
        let key = try NoteVerifier(
            parsing: "payments.example/journal+781ce509+ARrkdzarsq0nJ496oSaurdhzdFs7vt9sbedtoqq7uIKo")
        #expect(doc.contains("`\(key.keyText)`"))
        let checkpoint = try SignedCheckpoint(parsing: note)
        #expect(try checkpoint.verify(with: [key]) == [key])
        let leaves = [
            "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"
        ]
        #expect(checkpoint.checkpoint.root == (try MerkleTree(leafLines: leaves.map(EvidenceFixture.hex)).root()))
    }

    @Test("the key example of the docs parses into the verifier key shown beside it")
    func keyExample() throws {
        let lines = try Self.block(after: "Example (Go's documentation key):", in: try Self.doc())
            .split(separator: "\n").map(String.init)
        #expect(try NoteSigner(parsing: lines[0]).verifier == (try NoteVerifier(parsing: lines[1])))
    }

    @Test("the library example runs as written")
    func libraryExample() throws {
        // Kept in step with the Swift block of docs/evidence.md, "The library".
        let signer = try NoteSigner.generate(name: "payments.example/journal")
        let lines = [#"{"stream":"s","position":1,"version":0}"#, #"{"stream":"s","position":2,"version":1}"#]
        let tree = MerkleTree(leafLines: lines.map { Array($0.utf8) })
        let checkpoint = try SignedCheckpoint(
            signing: Checkpoint(origin: signer.name, size: tree.size, root: try tree.root()), with: signer)
        let proof = TlogProof(
            extra: Array(lines[1].utf8), index: 1, proof: try tree.inclusionProof(index: 1),
            checkpoint: checkpoint)
        let verifier = try NoteVerifier(parsing: signer.verifier.keyText)
        try TlogProof(parsing: proof.text).verify(with: [verifier])
        let bundle = EvidenceBundle(
            stream: "s", checkpoint: checkpoint.noteText,
            events: try (1...2).map {
                EvidenceBundle.Event(
                    position: Int64($0), leaf: lines[$0 - 1], proof: try tree.inclusionProof(index: Int64($0 - 1)))
            })
        let decoded = try EvidenceBundle(decoding: Array(bundle.jsonText.utf8))
        let verified = try BundleVerifier(verifiers: [verifier]).verify(decoded)
        #expect(verified.events.map(\.version) == [0, 1])
        let doc = try Self.doc()
        for line in [
            "let verified = try BundleVerifier(verifiers: [verifier]).verify(decoded)",
            "let tree = MerkleTree(leafLines: lines.map { Array($0.utf8) })",
            "try TlogProof(parsing: proof.text).verify(with: [verifier])"
        ] {
            #expect(doc.contains(line), "\(line)")
        }
    }
}
