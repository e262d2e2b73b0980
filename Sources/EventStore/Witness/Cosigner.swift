import JournalCore

/// The log's side of C2SP tlog-witness (spec §11): sends a kept checkpoint to witnesses with
/// the consistency proof from the size each was last known to hold, retries once from the size
/// a witness answers with 409, checks each cosignature against the witness's key, and keeps
/// those that verify (with the sizes learnt) in the journal.
public struct Cosigner: Sendable {
    public var witnesses: [WitnessEndpoint]
    /// Seconds allowed for each exchange with a witness.
    public var timeoutSeconds: Double = 10

    public init(witnesses: [WitnessEndpoint]) {
        self.witnesses = witnesses
    }

    /// What one collection got.
    public struct Outcome: Sendable {
        /// The checkpoint with every cosignature the journal keeps for it.
        public var checkpoint: SignedCheckpoint
        /// The witnesses that cosigned this time.
        public var cosigned: [WitnessEndpoint]
        /// The witnesses that did not, and why.
        public var failures: [(witness: WitnessEndpoint, reason: String)]
    }

    /// Collects cosignatures of `checkpoint` (kept in `store`, whose tree it signs) from every
    /// witness, keeps them, and returns the checkpoint with them.
    /// - Throws: what the store throws while reading its tree or keeping the cosignatures.
    public func collect(
        _ checkpoint: SignedCheckpoint, store: any EventStore, now: () -> Timestamp
    ) throws(EventStoreError) -> Outcome {
        let origin = checkpoint.checkpoint.origin
        let known = try store.witnessSizes(origin: origin)
        var kept: [StoredCosignature] = []
        var sizes: [WitnessSize] = []
        var cosigned: [WitnessEndpoint] = []
        var failures: [(witness: WitnessEndpoint, reason: String)] = []
        for witness in witnesses {
            var old = known[witness.key.keyText] ?? 0
            var attempt = 0
            while true {
                attempt += 1
                switch try submit(checkpoint, old: old, to: witness, store: store) {
                case let .cosigned(line):
                    kept.append(
                        StoredCosignature(
                            origin: origin, size: checkpoint.checkpoint.size, root: checkpoint.checkpoint.root,
                            witness: witness.key.keyText, line: line.line, keptAt: now()))
                    sizes.append(
                        WitnessSize(witness: witness.key.keyText, origin: origin, size: checkpoint.checkpoint.size))
                    cosigned.append(witness)
                case let .holds(size) where attempt == 1:
                    old = size
                    continue
                case let .holds(size):
                    sizes.append(WitnessSize(witness: witness.key.keyText, origin: origin, size: size))
                    failures.append(
                        (witness, "it still holds another size (\(size)) after a retry from the size it named"))
                case let .failed(reason):
                    failures.append((witness, reason))
                }
                break
            }
        }
        if !kept.isEmpty || !sizes.isEmpty { try store.storeCosignatures(kept, witnessSizes: sizes) }
        var result = checkpoint.adding(cosignatures: [])
        if let latest = try store.latestCheckpoint(), latest.size == checkpoint.checkpoint.size,
            latest.root == checkpoint.checkpoint.root, let parsed = try? SignedCheckpoint(parsing: latest.note),
            parsed.note.text == checkpoint.note.text
        {
            result = parsed
        } else {
            let lines = kept.compactMap { try? NoteSignature(parsingLine: $0.line) }
            result = checkpoint.adding(cosignatures: lines)
        }
        return Outcome(checkpoint: result, cosigned: cosigned, failures: failures)
    }

    private enum Answer {
        case cosigned(NoteSignature)
        /// 409: the witness holds this size.
        case holds(Int64)
        case failed(String)
    }

    private func submit(
        _ checkpoint: SignedCheckpoint, old: Int64, to witness: WitnessEndpoint, store: any EventStore
    ) throws(EventStoreError) -> Answer {
        let size = checkpoint.checkpoint.size
        var proof: [[UInt8]] = []
        if old > 0 && old < size {
            do {
                proof = try store.consistencyProof(from: old, to: size)
            } catch {
                return .failed("no consistency proof from the size it holds (\(old)) to \(size): \(error.message)")
            }
        } else if old > size {
            return .failed("it holds a larger tree (\(old)) than this checkpoint's (\(size))")
        }
        let request = AddCheckpointRequest(oldSize: old, proof: proof, checkpoint: checkpoint)
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.exchange(
                method: "POST", url: witness.addCheckpointURL, headers: [("Content-Type", "text/plain")],
                body: Array(request.body.utf8), timeoutSeconds: timeoutSeconds, maxResponseBytes: 64 * 1024)
        } catch {
            return .failed("\(error)")
        }
        let text = String(decoding: response.body, as: UTF8.self)
        switch response.status {
        case 200:
            let lines = text.split(separator: "\n").map(String.init)
            for line in lines {
                guard let parsed = try? NoteSignature(parsingLine: line),
                    parsed.name == witness.key.name, parsed.keyID == witness.key.keyID
                else { continue }
                let note = checkpoint.note.adding([parsed])
                if note.cosigners(among: [witness.key]) == [witness.key] { return .cosigned(parsed) }
                return .failed("its cosignature does not verify with its key \(witness.key.keyText)")
            }
            return .failed("its answer holds no cosignature by its key \(witness.key.keyText)")
        case 409:
            let mediaType = (response.headers["content-type"] ?? "").split(separator: ";").first.map(String.init)
            guard mediaType?.trimmingCharacters() == "text/x.tlog.size",
                let held = Int64(text.trimmingCharacters()), held >= 0
            else {
                return .failed("HTTP 409 without a size (text/x.tlog.size)")
            }
            return .holds(held)
        default:
            let reason = text.split(separator: "\n").first.map { String($0.prefix(300)) } ?? ""
            return .failed("HTTP \(response.status)\(reason.isEmpty ? "" : ": " + reason)")
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        let skip: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        return String(drop(while: skip).reversed().drop(while: skip).reversed())
    }
}
