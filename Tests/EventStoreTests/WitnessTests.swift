import EventStore
import Foundation
import JournalCore
import Testing

/// The witness's rules (C2SP tlog-witness), on a ``Witness`` over a state file in a temporary
/// folder; the HTTP server around it is tested end to end in CLITests.
@Suite("Witness")
struct WitnessTests {
    let folder: String
    let logKey: NoteSigner
    let witnessKey: NoteSigner

    init() throws {
        folder = NSTemporaryDirectory() + "witness-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        logKey = try NoteSigner(
            name: "payments.example/journal", privateKey: try Ed25519.PrivateKey(seed: [UInt8](0..<32)))
        witnessKey = try NoteSigner(
            name: "witness.example/w1", privateKey: try Ed25519.PrivateKey(seed: [UInt8](50..<82)),
            type: .cosignatureV1)
    }

    func witness(_ name: String = "state.db", time: UInt64 = 1_700_000_000) throws -> Witness {
        try Witness(signer: witnessKey, logs: [logKey.verifier], statePath: "\(folder)/\(name)", clock: { time })
    }

    /// A log of `size` leaves "<prefix> n".
    static func tree(_ size: Int, prefix: String = "leaf") -> MerkleTree {
        MerkleTree(leafLines: (0..<size).map { Array("\(prefix) \($0)".utf8) })
    }

    func checkpoint(_ tree: MerkleTree, size: Int64? = nil, signer: NoteSigner? = nil) throws -> SignedCheckpoint {
        let size = size ?? tree.size
        return try SignedCheckpoint(
            signing: Checkpoint(origin: logKey.name, size: size, root: try tree.root(size: size)),
            with: signer ?? logKey)
    }

    func request(_ tree: MerkleTree, old: Int64, size: Int64? = nil) throws -> AddCheckpointRequest {
        let size = size ?? tree.size
        let proof = old > 0 && old < size ? try tree.consistencyProof(oldSize: old, newSize: size) : []
        return AddCheckpointRequest(oldSize: old, proof: proof, checkpoint: try checkpoint(tree, size: size))
    }

    func refusal(_ witness: Witness, _ request: AddCheckpointRequest) -> WitnessRefusal? {
        if case let .failure(refusal) = witness.addCheckpoint(body: Array(request.body.utf8)) { return refusal }
        return nil
    }

    @Test("the first checkpoint from old size 0 is cosigned, the cosignature verifies, and the state is 0600")
    func firstCheckpoint() throws {
        let witness = try witness()
        let tree = Self.tree(5)
        let request = try request(tree, old: 0)
        let line = try witness.add(request)
        #expect(line.hasPrefix("— witness.example/w1 ") && line.hasSuffix("\n"))
        let signature = try NoteSignature(parsingLine: String(line.dropLast()))
        let cosigned = request.checkpoint.adding(cosignatures: [signature])
        #expect(cosigned.note.cosigners(among: [witnessKey.verifier]) == [witnessKey.verifier])
        #expect(Cosignature(signatureBytes: signature.signature)?.time == 1_700_000_000)
        let mode = try FileManager.default.attributesOfItem(atPath: "\(folder)/state.db")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("each refusal has its status: 400, 403, 404, 409 with the size held, 422")
    func statuses() throws {
        let witness = try witness()
        let tree = Self.tree(8)
        _ = try witness.add(try request(tree, old: 0, size: 3))
        // 400: malformed bodies and an old size beyond the checkpoint.
        for body in ["", "old 3\n", "old x\n\nnote\n", "old 03\n\n", "new 3\n\n", "old 3\nnot base64!\n\n"] {
            #expect(witness.addCheckpoint(body: Array(body.utf8)).failureStatus == 400, "\(body)")
        }
        let tooMany =
            "old 3\n" + String(repeating: Base64.encode([UInt8](repeating: 1, count: 32)) + "\n", count: 64)
            + "\n" + (try checkpoint(tree)).noteText
        #expect(witness.addCheckpoint(body: Array(tooMany.utf8)).failureStatus == 400)
        var big = try request(tree, old: 3)
        big.oldSize = 9
        #expect(refusal(witness, big) == .oldSizeTooLarge(old: 9, size: 8))
        // 403: signed by a key of the origin's name the witness does not know.
        let stranger = try NoteSigner(name: logKey.name, privateKey: try Ed25519.PrivateKey(seed: [UInt8](9..<41)))
        let unsigned = AddCheckpointRequest(
            oldSize: 3, proof: try tree.consistencyProof(oldSize: 3), checkpoint: try checkpoint(tree, signer: stranger)
        )
        #expect(refusal(witness, unsigned)?.status == 403)
        // 404: an origin it does not witness.
        let other = try NoteSigner(name: "other.example/log", privateKey: try Ed25519.PrivateKey(seed: [UInt8](9..<41)))
        let unknown = AddCheckpointRequest(
            oldSize: 0, proof: [],
            checkpoint: try SignedCheckpoint(
                signing: Checkpoint(origin: other.name, size: 8, root: try tree.root()), with: other))
        #expect(refusal(witness, unknown) == .unknownOrigin("other.example/log"))
        // 409: the old size is not the one cosigned.
        #expect(refusal(witness, try request(tree, old: 2)) == .staleOldSize(old: 2, cosigned: 3))
        #expect(refusal(witness, try request(tree, old: 0)) == .staleOldSize(old: 0, cosigned: 3))
        // 422: a proof that does not verify.
        var bad = try request(tree, old: 3)
        bad.proof[0][0] ^= 1
        #expect(refusal(witness, bad)?.status == 422)
        // Nothing above changed the state: the right request still goes through.
        _ = try witness.add(try request(tree, old: 3))
    }

    @Test("a fork at the size cosigned, or beyond it, is refused with 422, and the state keeps the first history")
    func forks() throws {
        let witness = try witness()
        let honest = Self.tree(10)
        _ = try witness.add(try request(honest, old: 0, size: 6))
        let fork = MerkleTree(
            leafLines: (0..<10).map { Array(($0 < 4 ? "leaf \($0)" : "forged \($0)").utf8) })
        // The same size, another root.
        #expect(refusal(witness, try request(fork, old: 6, size: 6))?.status == 422)
        // A larger size: no consistency proof from the cosigned root exists; the fork's own
        // proof (from its own size-6 tree) does not verify against it.
        #expect(refusal(witness, try request(fork, old: 6, size: 10))?.status == 422)
        // A non-empty proof from size 0 is refused too (after the 409 rule, on a fresh origin).
        let fresh = try self.witness("fresh.db")
        var fromZero = try request(honest, old: 0)
        fromZero.proof = [[UInt8](repeating: 0, count: 32)]
        #expect(refusal(fresh, fromZero)?.status == 422)
        // The honest extension is still cosigned.
        _ = try witness.add(try request(honest, old: 6, size: 10))
        #expect(refusal(witness, try request(honest, old: 6, size: 10)) == .staleOldSize(old: 6, cosigned: 10))
    }

    @Test("a stale old size gets 409 with the size held, and the request from that size succeeds")
    func resync() throws {
        let witness = try witness()
        let tree = Self.tree(20)
        _ = try witness.add(try request(tree, old: 0, size: 7))
        guard case let .staleOldSize(_, held) = refusal(witness, try request(tree, old: 0, size: 20)) else {
            Issue.record("expected 409")
            return
        }
        #expect(held == 7)
        _ = try witness.add(try request(tree, old: held, size: 20))
        // The same checkpoint again (old = size, same root) is cosigned again.
        _ = try witness.add(try request(tree, old: 20, size: 20))
    }

    @Test("a restarted witness keeps the size and root it cosigned")
    func restart() throws {
        let tree = Self.tree(12)
        do {
            let first = try witness()
            _ = try first.add(try request(tree, old: 0, size: 5))
        }
        let second = try witness(time: 1_800_000_000)
        #expect(refusal(second, try request(tree, old: 0, size: 12)) == .staleOldSize(old: 0, cosigned: 5))
        let fork = MerkleTree(leafLines: (0..<12).map { Array("other \($0)".utf8) })
        #expect(refusal(second, try request(fork, old: 5, size: 5))?.status == 422)
        _ = try second.add(try request(tree, old: 5, size: 12))
    }

    @Test("two submitters of the same origin at once: one succeeds from each size, the other gets 409")
    func concurrentSubmitters() async throws {
        let witness = try witness()
        let tree = Self.tree(40)
        _ = try witness.add(try request(tree, old: 0, size: 10))
        let requests = [try request(tree, old: 10, size: 20), try request(tree, old: 10, size: 30)]
        let results = await withTaskGroup(of: Result<String, WitnessRefusal>.self) { group in
            for request in requests {
                group.addTask { witness.addCheckpoint(body: Array(request.body.utf8)) }
            }
            var all: [Result<String, WitnessRefusal>] = []
            for await result in group { all.append(result) }
            return all
        }
        let successes = results.filter { if case .success = $0 { true } else { false } }
        #expect(successes.count == 1)
        let refusals = results.compactMap { if case let .failure(refusal) = $0 { refusal } else { nil } }
        #expect(refusals.count == 1)
        guard case let .staleOldSize(old, held)? = refusals.first else {
            Issue.record("the loser is not told the size held: \(refusals)")
            return
        }
        // The winner's size is the one held: never rolled back by the loser.
        #expect(old == 10 && (held == 20 || held == 30))
        #expect(refusal(witness, try request(tree, old: held, size: 40)) == nil)
    }
}

extension Result where Failure == WitnessRefusal {
    var failureStatus: Int? {
        if case let .failure(refusal) = self { return refusal.status }
        return nil
    }
}
