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
                try Merkle.verifyInclusion(leafHash: Merkle.leafHash(leafBytes), index: position - 1, size: size,
                                           proof: event.proof, root: root)
            } catch {
                throw .inclusion(event: index, position: position, error)
            }
            let object: JSONObject
            do {
                guard let parsed = try JSONParser().parse(leafBytes).objectValue else {
                    throw BundleVerificationError.leafNotAnObject(event: index, position: position,
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
            events.append(VerifiedBundle.Event(position: position, version: Int64(index), leaf: event.leaf,
                                               object: object))
        }
        return VerifiedBundle(stream: bundle.stream, checkpoint: checkpoint, events: events)
    }
}

/// A bundle that ``BundleVerifier`` accepted: its checkpoint and its events, leaf lines parsed.
public struct VerifiedBundle: Sendable {
    public struct Event: Sendable {
        public let position: Int64
        public let version: Int64
        /// The leaf line (the export line).
        public let leaf: String
        /// The leaf line as a JSON object (the export envelope).
        public let object: JSONObject
    }

    public let stream: String
    public let checkpoint: SignedCheckpoint
    public let events: [Event]
}

/// The first thing about a bundle that does not hold. `event` is the index in `events` (from 0).
public enum BundleVerificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checkpoint note is malformed or not signed by a trusted key named as its origin.
    case checkpoint(CheckpointError)
    /// An event's position is not in the checkpoint's tree (1 … tree size).
    case positionOutOfRange(event: Int, position: Int64, treeSize: Int64)
    /// An event's inclusion proof does not verify against the checkpoint's root.
    case inclusion(event: Int, position: Int64, MerkleProofError)
    /// An event's leaf line is not a JSON object.
    case leafNotAnObject(event: Int, position: Int64, reason: String)
    /// An event's leaf line has another `stream` (nil: none) than the bundle.
    case wrongStream(event: Int, position: Int64, found: String?)
    /// An event's `version` (nil: none) is not the next one: versions are 0, 1, 2, … in order.
    case versionGap(event: Int, position: Int64, expected: Int64, found: Int64?)
    /// An event's leaf line has another `position` (nil: none) than the event entry.
    case positionMismatch(event: Int, position: Int64, leafPosition: Int64?)

    public var description: String {
        switch self {
        case let .checkpoint(error):
            "checkpoint: \(error)"
        case let .positionOutOfRange(event, position, treeSize):
            "events[\(event)] (position \(position)): not in the checkpoint's tree of size \(treeSize)"
        case let .inclusion(event, position, error):
            "events[\(event)] (position \(position)): \(error)"
        case let .leafNotAnObject(event, position, reason):
            "events[\(event)] (position \(position)): the leaf line is not a JSON object: \(reason)"
        case let .wrongStream(event, position, found):
            "events[\(event)] (position \(position)): stream is \(found.map { "\"\($0)\"" } ?? "missing"), not the bundle's"
        case let .versionGap(event, position, expected, found):
            "events[\(event)] (position \(position)): version \(found.map(String.init) ?? "missing") where \(expected) is next"
        case let .positionMismatch(event, position, leafPosition):
            "events[\(event)] (position \(position)): the leaf line's position is \(leafPosition.map(String.init) ?? "missing")"
        }
    }
}
