import JournalCore
import Synchronization

/// A witness (C2SP tlog-witness): it cosigns a log's checkpoint only after checking that it is
/// signed by the log and extends the checkpoint it last cosigned for that log, and it records
/// the new one durably before it answers. One request at a time, in this process; an immediate
/// SQLite transaction also keeps another process on the same state file out.
public final class Witness: Sendable {
    private let signer: NoteSigner
    /// The logs' verifier keys by origin (a log's origin is its key's name).
    private let logs: [String: [NoteVerifier]]
    private let clock: @Sendable () -> UInt64
    private let state: Mutex<WitnessState>

    /// The witness's verifier key (cosignature/v1).
    public var verifier: NoteVerifier { signer.verifier }

    /// - Parameters:
    ///   - signer: the witness's cosignature/v1 key.
    ///   - logs: the verifier keys of the logs it witnesses (Ed25519 log keys).
    ///   - statePath: the SQLite file of its state (created 0600 when missing).
    ///   - clock: seconds since the Unix epoch, the time of each cosignature.
    public init(
        signer: NoteSigner, logs: [NoteVerifier], statePath: String,
        clock: @escaping @Sendable () -> UInt64
    ) throws(WitnessRefusal) {
        guard signer.type == .cosignatureV1 else {
            throw .malformed("\(signer.name) is \(signer.type.summary), not a witness key ('journal keygen --witness')")
        }
        if let key = logs.first(where: { $0.type != .ed25519 }) {
            throw .malformed("\(key.name) is \(key.type.summary), not a log's key")
        }
        self.signer = signer
        self.logs = Dictionary(grouping: logs, by: \.name)
        self.clock = clock
        self.state = Mutex(try WitnessState(path: statePath))
    }

    /// Answers an `add-checkpoint` body: the cosignature line on success (with its line feed).
    public func addCheckpoint(body: [UInt8]) -> Result<String, WitnessRefusal> {
        do throws(WitnessRefusal) {
            return .success(try add(try AddCheckpointRequest(parsing: body)))
        } catch {
            return .failure(error)
        }
    }

    /// Checks `request` and cosigns its checkpoint; the line ends in a line feed.
    public func add(_ request: AddCheckpointRequest) throws(WitnessRefusal) -> String {
        let signed = request.checkpoint
        let checkpoint = signed.checkpoint
        guard let keys = logs[checkpoint.origin] else { throw .unknownOrigin(checkpoint.origin) }
        do {
            try signed.verify(with: keys)
        } catch {
            throw .notSigned(origin: checkpoint.origin, reason: "\(error)")
        }
        guard request.oldSize <= checkpoint.size else {
            throw .oldSizeTooLarge(old: request.oldSize, size: checkpoint.size)
        }
        return try state.withLock { db throws(WitnessRefusal) -> String in
            try db.transaction { () throws(WitnessRefusal) -> String in
                let known = try db.entry(origin: checkpoint.origin)
                let cosigned = known?.size ?? 0
                guard request.oldSize == cosigned else {
                    throw .staleOldSize(old: request.oldSize, cosigned: cosigned)
                }
                try Self.checkExtension(request, from: known)
                let time = max(1, clock())
                let line: NoteSignature
                do {
                    line = try Cosignature.sign(text: signed.note.text, time: time, with: signer)
                } catch {
                    throw .stateFailure("cannot cosign: \(error)")
                }
                try db.record(signed, at: time)
                return line.line + "\n"
            }
        }
    }

    /// The checks of tlog-witness once the old size is the one cosigned: a checkpoint of size 0
    /// has the empty tree's root; from size 0 no proof; the same size, the same root; else the
    /// consistency proof from the cosigned tree.
    private static func checkExtension(
        _ request: AddCheckpointRequest, from known: WitnessState.Entry?
    ) throws(WitnessRefusal) {
        let checkpoint = request.checkpoint.checkpoint
        if checkpoint.size == 0 && checkpoint.root != Merkle.emptyRoot {
            throw .notConsistent("a checkpoint of size 0 has the empty tree's root")
        }
        guard let known, request.oldSize > 0 else {
            guard request.proof.isEmpty else {
                throw .notConsistent("a proof from size 0 is empty: the empty tree is a prefix of every tree")
            }
            return
        }
        if request.oldSize == checkpoint.size {
            guard request.proof.isEmpty, checkpoint.root == known.root else {
                throw .notConsistent(
                    "the checkpoint of size \(checkpoint.size) has another root than the one cosigned at that size")
            }
            return
        }
        do {
            try Merkle.verifyConsistency(
                oldSize: request.oldSize, newSize: checkpoint.size, oldRoot: known.root, newRoot: checkpoint.root,
                proof: request.proof)
        } catch {
            throw .notConsistent("the consistency proof from size \(request.oldSize) does not verify: \(error)")
        }
    }
}
