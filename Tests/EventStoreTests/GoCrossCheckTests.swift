import EventStore
import Foundation
import Testing

/// Go's reference implementations (golang.org/x/mod/sumdb/note and sumdb/tlog, through
/// tools/tlog-check) accept what the journal produces, and the journal accepts what Go produces.
/// Skipped where Go is not installed, except in CI (the CI environment variable), where that fails.
@Suite(
    "Cross-check with Go's sumdb/note and sumdb/tlog", .serialized,
    .enabled(if: GoReference.available || GoReference.required, "Go and golang.org/x/mod are not installed"))
struct GoCrossCheckTests {
    private func run(_ requests: [String]) throws -> [String]? {
        guard GoReference.available else {
            Issue.record(Comment(rawValue: GoReference.whyMissing))
            return nil
        }
        return try GoReference.run(requests)
    }

    private static func signer(_ name: String, _ seedByte: UInt8) throws -> NoteSigner {
        try NoteSigner(
            name: name, privateKey: try Ed25519.PrivateKey(seed: (0..<32).map { UInt8($0) &* 7 &+ seedByte }))
    }

    @Test("Go's note.Open accepts checkpoints and notes we sign, and refuses tampered ones")
    func notes() throws {
        var requests: [String] = []
        var expectations: [(ok: Bool, what: String)] = []
        let tree = MerkleTree(leafLines: (0..<50).map(EvidenceFixture.leafLine))
        for (n, name) in ["payments.example/journal", "j", "ключ.example", "a-b_c.d/e:f"].enumerated() {
            let signer = try Self.signer(name, UInt8(n * 31))
            for size in [Int64(0), 1, 7, 50] {
                let checkpoint = try SignedCheckpoint(
                    signing: Checkpoint(origin: name, size: size, root: try tree.root(size: size)), with: signer)
                requests.append("note \(signer.verifier.keyText) \(Base64.encode(Array(checkpoint.noteText.utf8)))")
                expectations.append((true, "\(name) checkpoint \(size)"))
                let tampered = checkpoint.noteText.replacingOccurrences(of: "\n\(size)\n", with: "\n\(size + 1)\n")
                requests.append("note \(signer.verifier.keyText) \(Base64.encode(Array(tampered.utf8)))")
                expectations.append((false, "\(name) tampered checkpoint \(size)"))
            }
            let witness = try Self.signer("witness", UInt8(n * 31 + 1))
            let note = try SignedNote(signing: "multi\nline\n\ntext é\n", with: [witness, signer])
            requests.append("note \(signer.verifier.keyText) \(Base64.encode(Array(note.rendered.utf8)))")
            expectations.append((true, "\(name) cosigned note"))
            requests.append("note \(witness.verifier.keyText) \(Base64.encode(Array(note.rendered.utf8)))")
            expectations.append((true, "\(name) witness"))
        }
        guard let answers = try run(requests) else { return }
        for (answer, expected) in zip(answers, expectations) {
            #expect(answer.hasPrefix(expected.ok ? "ok" : "error"), "\(expected.what): \(answer)")
        }
    }

    @Test("Go's tlog.CheckRecord accepts our inclusion proofs and tlog.CheckTree our consistency proofs")
    func proofs() throws {
        let lines = (0..<70).map(EvidenceFixture.leafLine)
        let tree = MerkleTree(leafLines: lines)
        let roots = try (0...70).map { try tree.root(size: Int64($0)) }
        func list(_ proof: [[UInt8]]) -> String {
            proof.isEmpty ? "-" : proof.map(Base64.encode).joined(separator: ",")
        }
        var requests: [String] = []
        var expectations: [(ok: Bool, what: String)] = []
        for size in 1...70 {
            for index in 0..<size {
                let proof = try tree.inclusionProof(index: Int64(index), size: Int64(size))
                requests.append(
                    "record \(size) \(Base64.encode(roots[size])) \(index) "
                        + "\(Base64.encode(lines[index])) \(list(proof))"
                )
                expectations.append((true, "record \(index) of \(size)"))
                if index == size / 2 {
                    requests.append(
                        "record \(size) \(Base64.encode(roots[size])) \(index) "
                            + "\(Base64.encode(lines[(index + 1) % 70])) \(list(proof))"
                    )
                    expectations.append((false, "other leaf at \(index) of \(size)"))
                }
            }
        }
        for n in 1...40 {
            for m in 1...n {
                let proof = try tree.consistencyProof(oldSize: Int64(m), newSize: Int64(n))
                requests.append("tree \(m) \(Base64.encode(roots[m])) \(n) \(Base64.encode(roots[n])) \(list(proof))")
                expectations.append((true, "tree \(m) → \(n)"))
                if m < n, m % 3 == 0 {
                    requests.append(
                        "tree \(m) \(Base64.encode(roots[m - 1])) \(n) \(Base64.encode(roots[n])) \(list(proof))")
                    expectations.append((false, "tree \(m) → \(n) with another old root"))
                }
            }
        }
        for (m, n) in [(1, 70), (33, 70), (64, 70), (69, 70), (70, 70)] {
            let proof = try tree.consistencyProof(oldSize: Int64(m), newSize: Int64(n))
            requests.append("tree \(m) \(Base64.encode(roots[m])) \(n) \(Base64.encode(roots[n])) \(list(proof))")
            expectations.append((true, "tree \(m) → \(n)"))
        }
        guard let answers = try run(requests) else { return }
        for (answer, expected) in zip(answers, expectations) {
            #expect(answer.hasPrefix(expected.ok ? "ok" : "error"), "\(expected.what): \(answer)")
        }
    }

    @Test("keys Go generates from a seed are ours, and Go's signatures are byte-identical to ours")
    func keysAndSignatures() throws {
        let names = ["payments.example/journal", "PeterNeumann", "ключ"]
        let seeds = names.indices.map { n in (0..<32).map { UInt8($0) &* 13 &+ UInt8(n) } }
        let text = "payments.example/journal\n42\n\(Base64.encode(Merkle.emptyRoot))\n"
        var requests = zip(names, seeds).map { "keygen \($0) \(Base64.encode($1))" }
        let ours = try zip(names, seeds).map { try NoteSigner(name: $0, privateKey: try Ed25519.PrivateKey(seed: $1)) }
        requests += ours.map { "sign \($0.privateKeyText) \(Base64.encode(Array(text.utf8)))" }
        guard let answers = try run(requests) else { return }
        for (index, signer) in ours.enumerated() {
            let keygen = answers[index].split(separator: " ")
            try #require(keygen.count == 3 && keygen[0] == "ok", "\(answers[index])")
            #expect(String(keygen[1]) == signer.privateKeyText)
            #expect(String(keygen[2]) == signer.verifier.keyText)
            #expect(try NoteSigner(parsing: String(keygen[1])).verifier == signer.verifier)
            #expect(try NoteVerifier(parsing: String(keygen[2])) == signer.verifier)

            let signed = answers[names.count + index].split(separator: " ")
            try #require(signed.count == 2 && signed[0] == "ok", "\(answers[names.count + index])")
            let goNote = String(decoding: try #require(Base64.decode(signed[1])), as: UTF8.self)
            #expect(goNote == (try SignedNote(signing: text, with: [signer])).rendered)
            #expect(try SignedNote(parsing: goNote).verify(with: [signer.verifier]) == [signer.verifier])
        }
        // Go's note of the checkpoint above, signed by the key named as its origin, is a checkpoint we accept.
        let goCheckpoint = String(
            decoding: try #require(Base64.decode(answers[names.count].split(separator: " ")[1])),
            as: UTF8.self)
        #expect(try SignedCheckpoint(parsing: goCheckpoint).verify(with: [ours[0].verifier]) == [ours[0].verifier])
    }
}
