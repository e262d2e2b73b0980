import Evidence
import Foundation
import Testing

/// What an auditor's tool does with only `import Evidence` (this target depends on nothing else):
/// check a bundle the journal wrote (`Fixtures/README.md`) against the journal's public key.
@Suite("Evidence library alone")
struct BundleFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static func verifiers() throws -> [NoteVerifier] {
        try NoteVerifier.list(parsing: String(decoding: try fixture("journal.key.pub"), as: UTF8.self))
    }

    @Test("a bundle the journal wrote verifies with only the Evidence library")
    func journalBundleVerifies() throws {
        let bundle = try EvidenceBundle(decoding: try Self.fixture("bundle.json"))
        let verified = try BundleVerifier(verifiers: try Self.verifiers()).verify(bundle)
        #expect(verified.stream == "card-d10b9333-5c5b-4e4e-964f-4ae2d5206bea")
        #expect(verified.events.map(\.version) == Array(0...9))
        #expect(verified.events.map(\.position).first == 1)
        #expect(verified.events.first?.leaf.contains(#""type":"EligibilityChecked""#) == true)
        #expect(verified.checkpoint.checkpoint.size == 27)
        #expect(verified.checkpoint.checkpoint.origin == "fixtures.example/journal")
    }

    @Test("a copy with one event's data changed fails its inclusion proof")
    func tamperedEventFails() throws {
        let text = String(decoding: try Self.fixture("bundle.json"), as: UTF8.self)
        let original = #"inputMethod\":\"manual"#
        #expect(text.components(separatedBy: original).count == 2)
        let tampered = text.replacingOccurrences(of: original, with: #"inputMethod\":\"camera"#)
        let bundle = try EvidenceBundle(decoding: Array(tampered.utf8))
        #expect {
            try BundleVerifier(verifiers: try Self.verifiers()).verify(bundle)
        } throws: { error in
            guard case .inclusion(event: 0, position: 1, _) = error as? BundleVerificationError else { return false }
            return true
        }
    }

    @Test("the bundle does not verify with another key of the same name")
    func otherKeyFails() throws {
        let other = try NoteSigner(
            name: "fixtures.example/journal", privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))
        )
        let bundle = try EvidenceBundle(decoding: try Self.fixture("bundle.json"))
        #expect {
            try BundleVerifier(verifiers: [other.verifier]).verify(bundle)
        } throws: { error in
            guard case .checkpoint = error as? BundleVerificationError else { return false }
            return true
        }
    }
}
