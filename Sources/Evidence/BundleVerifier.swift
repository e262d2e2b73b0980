import JournalCore

/// Checks an ``EvidenceBundle`` without a journal: the checkpoint's signature against trusted
/// verifier keys, each event's inclusion proof against the checkpoint's root, and that the
/// events are the bundle's stream's versions 0, 1, 2, … without a gap, at the positions given.
///
/// A bundle that verifies proves that its events are in the signed log. It does not prove that
/// the stream has no later events (nor that none were left out after the last one given).
public struct BundleVerifier: Sendable {
    public let verifiers: [NoteVerifier]

    public init(verifiers: [NoteVerifier]) {
        self.verifiers = verifiers
    }

    /// Verifies `bundle`, reporting the first failure. Returns the checked checkpoint and events.
    public func verify(_ bundle: EvidenceBundle) throws(BundleVerificationError) -> VerifiedBundle {
        let checkpoint: SignedCheckpoint
        do {
            checkpoint = try SignedCheckpoint(parsing: bundle.checkpoint)
            try checkpoint.verify(with: verifiers)
        } catch {
            throw .checkpoint(error)
        }
        let size = checkpoint.checkpoint.size
        let root = checkpoint.checkpoint.root
        var events: [VerifiedBundle.Event] = []
        events.reserveCapacity(bundle.events.count)
        for (index, event) in bundle.events.enumerated() {
            let position = event.position
            guard position >= 1, position <= size else {
                throw .positionOutOfRange(event: index, position: position, treeSize: size)
            }
            let leafBytes = Array(event.leaf.utf8)
            do {
                try Merkle.verifyInclusion(
                    leafHash: Merkle.leafHash(leafBytes), index: position - 1, size: size,
                    proof: event.proof, root: root)
            } catch {
                throw .inclusion(event: index, position: position, error)
            }
            let object: JSONObject
            do {
                guard let parsed = try JSONParser().parse(leafBytes).objectValue else {
                    throw BundleVerificationError.leafNotAnObject(
                        event: index, position: position,
                        reason: "not a JSON object")
                }
                object = parsed
            } catch let error as BundleVerificationError {
                throw error
            } catch {
                throw .leafNotAnObject(event: index, position: position, reason: String(describing: error))
            }
            let stream = object["stream"]?.stringValue
            guard stream == bundle.stream else { throw .wrongStream(event: index, position: position, found: stream) }
            let version = object["version"]?.numberValue?.int64
            guard version == Int64(index) else {
                throw .versionGap(event: index, position: position, expected: Int64(index), found: version)
            }
            let leafPosition = object["position"]?.numberValue?.int64
            guard leafPosition == position else {
                throw .positionMismatch(event: index, position: position, leafPosition: leafPosition)
            }
            events.append(
                VerifiedBundle.Event(
                    position: position, version: Int64(index), leaf: event.leaf,
                    object: object))
        }
        return VerifiedBundle(stream: bundle.stream, checkpoint: checkpoint, events: events)
    }
}
