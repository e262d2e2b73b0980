import EventStore
import Foundation
import JournalCore
import Testing

@Suite("Evidence bundles")
struct BundleVerifierTests {
    /// A made-up log of two interleaved streams, with export-like leaf lines.
    struct Log {
        let signer: NoteSigner
        var lines: [String] = []
        var tree = MerkleTree()

        init() throws {
            signer = try NoteSigner(
                name: "payments.example/journal",
                privateKey: try Ed25519.PrivateKey(seed: [UInt8](repeating: 6, count: 32)))
            var versions: [String: Int] = [:]
            for position in 1...20 {
                let stream = position % 3 == 0 ? "card-b" : "3ds-a"
                let version = versions[stream, default: 0]
                versions[stream] = version + 1
                append(Self.line(position: position, stream: stream, version: version))
            }
        }

        static func line(position: Int, stream: String, version: Int) -> String {
            #"""
            {"id":"00000000-0000-4000-8000-\#(String(repeating: "0", count: 10))\#(position < 10 ? "0" : "")\#
            \#(position)","stream":"\#(stream)","type":"ChallengeStarted","occurredAt":"2026-11-29T09:00:00.000Z",\#
            "data":{"n":\#(position)},"position":\#(position),"version":\#(version),\#
            "recordedAt":"2026-11-29T09:00:01.000Z","hash":"00"}
            """#
        }

        mutating func append(_ line: String) {
            lines.append(line)
            tree.append(leafLine: Array(line.utf8))
        }

        func checkpoint(size: Int64? = nil, by signer: NoteSigner? = nil) throws -> String {
            let size = size ?? tree.size
            let signer = signer ?? self.signer
            return try SignedCheckpoint(
                signing: Checkpoint(origin: signer.name, size: size, root: try tree.root(size: size)),
                with: signer
            ).noteText
        }

        func event(_ position: Int64, size: Int64? = nil) throws -> EvidenceBundle.Event {
            EvidenceBundle.Event(
                position: position, leaf: lines[Int(position - 1)],
                proof: try tree.inclusionProof(index: position - 1, size: size ?? tree.size))
        }

        /// The bundle of `stream`: its events in the tree, in version (here: position) order.
        func bundle(_ stream: String, size: Int64? = nil) throws -> EvidenceBundle {
            let size = size ?? tree.size
            let positions = (1...size).filter { lines[Int($0 - 1)].contains(#""stream":"\#(stream)""#) }
            return EvidenceBundle(
                stream: stream, checkpoint: try checkpoint(size: size),
                events: try positions.map { try event($0, size: size) })
        }

        var verifier: BundleVerifier { BundleVerifier(verifiers: [signer.verifier]) }
    }

    @Test("a bundle of a stream verifies and gives its events with versions 0, 1, 2, …")
    func verifies() throws {
        let log = try Log()
        let bundle = try log.bundle("card-b")
        let verified = try log.verifier.verify(bundle)
        #expect(verified.events.map(\.position) == [3, 6, 9, 12, 15, 18])
        #expect(verified.events.map(\.version) == [0, 1, 2, 3, 4, 5])
        #expect(verified.events[2].object["data"]?.objectValue?["n"]?.numberValue?.int64 == 9)
        #expect(verified.checkpoint.checkpoint.size == 20)
        // Up to an older checkpoint too: the events up to its size.
        let older = try log.bundle("3ds-a", size: 7)
        #expect(try log.verifier.verify(older).events.map(\.position) == [1, 2, 4, 5, 7])
    }

    @Test("the JSON document has the spec's keys in order and decodes to the same bundle")
    func jsonRoundTrip() throws {
        let log = try Log()
        let bundle = try log.bundle("card-b")
        let text = bundle.jsonText
        #expect(
            text.hasPrefix(
                #"{"format":"journal-bundle/1","stream":"card-b","checkpoint":"payments.example/journal\n20\n"#))
        #expect(text.contains(#""events":[{"position":3,"leaf":"{\"id\":"#))
        let decoded = try EvidenceBundle(decoding: Array(text.utf8))
        #expect(decoded == bundle)
        // Keys a later version may add are ignored.
        let extended = text.replacingOccurrences(of: #"{"format""#, with: #"{"note":"x","format""#)
            .replacingOccurrences(of: #"{"position":3,"#, with: #"{"extra":[1],"position":3,"#)
        #expect(try EvidenceBundle(decoding: Array(extended.utf8)) == bundle)
    }

    @Test("a bundle document with a bad value is refused naming its JSON path")
    func decodeErrors() throws {
        let cases: [(String, BundleError)] = [
            ("[]", .wrongType(path: "$", expected: "an object")),
            (#"{"format":"journal-bundle/2"}"#, .unknownFormat("journal-bundle/2")),
            (#"{"stream":"s"}"#, .missingKey(path: "format")),
            (#"{"format":"journal-bundle/1","stream":1}"#, .wrongType(path: "stream", expected: "a string")),
            (#"{"format":"journal-bundle/1","stream":"s"}"#, .missingKey(path: "checkpoint")),
            (#"{"format":"journal-bundle/1","stream":"s","checkpoint":"c"}"#, .missingKey(path: "events")),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","events":{}}"#,
                .wrongType(path: "events", expected: "an array")
            ),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","events":[1]}"#,
                .wrongType(path: "events[0]", expected: "an object")
            ),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","events":[{"leaf":"","proof":[]}]}"#,
                .missingKey(path: "events[0].position")
            ),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","#
                    + #""events":[{"position":1.5,"leaf":"","proof":[]}]}"#,
                .wrongType(path: "events[0].position", expected: "an integer")
            ),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","events":[{"position":1,"proof":[]}]}"#,
                .missingKey(path: "events[0].leaf")
            ),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","events":[{"position":1,"leaf":""}]}"#,
                .missingKey(path: "events[0].proof")
            ),
            (
                #"{"format":"journal-bundle/1","stream":"s","checkpoint":"c","events":[{"position":1,"#
                    + #""leaf":"","proof":["AAAA","!"]}]}"#,
                .wrongType(path: "events[0].proof[1]", expected: "a base64 string")
            )
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try EvidenceBundle(decoding: Array(text.utf8)) }
        }
        #expect(throws: BundleError.self) { try EvidenceBundle(decoding: Array("{".utf8)) }
    }

    @Test("a checkpoint signed by another key, or not a checkpoint, fails first")
    func checkpointFailures() throws {
        let log = try Log()
        var bundle = try log.bundle("card-b")
        let stranger = try NoteSigner.generate(name: log.signer.name)
        bundle.checkpoint = try log.checkpoint(by: stranger)
        #expect(
            throws: BundleVerificationError.checkpoint(
                .note(
                    .noKnownSignature(
                        signedBy: ["\(stranger.name)+\(NoteKeyID.text(stranger.keyID))"])))
        ) {
            try log.verifier.verify(bundle)
        }
        bundle.checkpoint = "not a note"
        #expect(throws: BundleVerificationError.checkpoint(.note(.missingSignatureBlock))) {
            try log.verifier.verify(bundle)
        }
        // Another tree's root under the right signature: the proofs fail.
        bundle = try log.bundle("card-b")
        bundle.checkpoint = try SignedCheckpoint(
            signing: Checkpoint(origin: log.signer.name, size: 20, root: try log.tree.root().map { $0 ^ 1 }),
            with: log.signer
        ).noteText
        #expect(throws: BundleVerificationError.inclusion(event: 0, position: 3, .rootMismatch)) {
            try log.verifier.verify(bundle)
        }
    }

    @Test("an edited leaf line, a flipped proof hash or a position outside the tree is named by event")
    func proofFailures() throws {
        let log = try Log()
        var bundle = try log.bundle("card-b")
        bundle.events[2].leaf = bundle.events[2].leaf.replacingOccurrences(of: #""n":9"#, with: #""n":10"#)
        #expect(throws: BundleVerificationError.inclusion(event: 2, position: 9, .rootMismatch)) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.events[4].proof[0][5] ^= 0x80
        #expect(throws: BundleVerificationError.inclusion(event: 4, position: 15, .rootMismatch)) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.events[1].proof.removeLast()
        #expect(throws: BundleVerificationError.self) { try log.verifier.verify(bundle) }
        bundle = try log.bundle("card-b", size: 10)
        bundle.events.append(try log.event(12))
        #expect(throws: BundleVerificationError.positionOutOfRange(event: 3, position: 12, treeSize: 10)) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.events[0].position = 0
        #expect(throws: BundleVerificationError.positionOutOfRange(event: 0, position: 0, treeSize: 20)) {
            try log.verifier.verify(bundle)
        }
        // The right leaf at another position: its proof is for another index.
        bundle = try log.bundle("card-b")
        bundle.events[1].position = 7
        #expect(throws: BundleVerificationError.inclusion(event: 1, position: 7, .rootMismatch)) {
            try log.verifier.verify(bundle)
        }
    }

    @Test("a missing event, a reordering or an event of another stream breaks versions 0, 1, 2, … and is named")
    func streamFailures() throws {
        let log = try Log()
        var bundle = try log.bundle("card-b")
        bundle.events.remove(at: 2)
        #expect(throws: BundleVerificationError.versionGap(event: 2, position: 12, expected: 2, found: 3)) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.events.swapAt(0, 1)
        #expect(throws: BundleVerificationError.versionGap(event: 0, position: 6, expected: 0, found: 1)) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.events.insert(try log.event(4), at: 1)
        #expect(throws: BundleVerificationError.wrongStream(event: 1, position: 4, found: "3ds-a")) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.stream = "card-c"
        #expect(throws: BundleVerificationError.wrongStream(event: 0, position: 3, found: "card-b")) {
            try log.verifier.verify(bundle)
        }
        bundle = try log.bundle("card-b")
        bundle.events.removeFirst()
        #expect(throws: BundleVerificationError.versionGap(event: 0, position: 6, expected: 0, found: 1)) {
            try log.verifier.verify(bundle)
        }
    }

    @Test("a signed log whose leaf lines lie about their position, or are not JSON, fails on that event")
    func hostileLeaves() throws {
        var log = try Log()
        log.append(Log.line(position: 99, stream: "card-x", version: 0))
        log.append("not json")
        log.append(#"["card-y"]"#)
        let liar = EvidenceBundle(stream: "card-x", checkpoint: try log.checkpoint(), events: [try log.event(21)])
        #expect(throws: BundleVerificationError.positionMismatch(event: 0, position: 21, leafPosition: 99)) {
            try log.verifier.verify(liar)
        }
        let garbage = EvidenceBundle(stream: "x", checkpoint: try log.checkpoint(), events: [try log.event(22)])
        #expect(throws: BundleVerificationError.self) { try log.verifier.verify(garbage) }
        do {
            _ = try log.verifier.verify(garbage)
        } catch {
            guard case let .leafNotAnObject(event, position, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(event == 0 && position == 22)
        }
        let array = EvidenceBundle(stream: "x", checkpoint: try log.checkpoint(), events: [try log.event(23)])
        #expect(throws: BundleVerificationError.leafNotAnObject(event: 0, position: 23, reason: "not a JSON object")) {
            try log.verifier.verify(array)
        }
    }

    @Test("descriptions name the event index, position and what failed")
    func descriptions() {
        #expect(
            BundleVerificationError.versionGap(event: 2, position: 12, expected: 2, found: 3).description
                == "events[2] (position 12): version 3 where 2 is next")
        #expect(
            BundleVerificationError.inclusion(event: 0, position: 3, .rootMismatch).description
                == "events[0] (position 3): the inclusion proof does not lead to the tree's root")
        #expect(
            BundleVerificationError.wrongStream(event: 1, position: 4, found: nil).description
                == "events[1] (position 4): stream is missing, not the bundle's")
    }
}
