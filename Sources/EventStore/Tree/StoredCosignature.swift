import JournalCore

/// A witness's cosignature of a checkpoint the journal kept (spec §11): the signature line,
/// for the checkpoint text of (`origin`, `size`, `root`), by the witness of verifier key
/// `witness`.
public struct StoredCosignature: Sendable, Equatable {
    public var origin: String
    public var size: Int64
    public var root: [UInt8]
    /// The witness's verifier key text (`NAME+ID+KEY`, key type 0x04).
    public var witness: String
    /// The signature line, without its line feed.
    public var line: String
    public var keptAt: Timestamp

    public init(origin: String, size: Int64, root: [UInt8], witness: String, line: String, keptAt: Timestamp) {
        self.origin = origin
        self.size = size
        self.root = root
        self.witness = witness
        self.line = line
        self.keptAt = keptAt
    }

    /// The witness's name: its key's name.
    public var witnessName: String { String(witness.prefix(while: { $0 != "+" })) }
}

/// The tree size a journal last knew a witness to hold for one of its origins.
public struct WitnessSize: Sendable, Equatable {
    /// The witness's verifier key text.
    public var witness: String
    public var origin: String
    public var size: Int64

    public init(witness: String, origin: String, size: Int64) {
        self.witness = witness
        self.origin = origin
        self.size = size
    }
}

extension StoredCheckpoint {
    /// The checkpoint's origin: the first line of its note.
    package var origin: String { String(note.prefix(while: { $0 != "\n" })) }

    /// The checkpoint with those of `cosignatures` that are for its text: the latest of each
    /// witness, their lines added to the note after its own signature lines.
    package func attaching(_ cosignatures: [StoredCosignature]) -> StoredCheckpoint {
        let origin = origin
        var latest: [StoredCosignature] = []
        for cosignature in cosignatures
        where cosignature.size == size && cosignature.root == root && cosignature.origin == origin {
            latest.removeAll { $0.witness == cosignature.witness }
            latest.append(cosignature)
        }
        guard !latest.isEmpty else { return self }
        var copy = self
        let present = Set(note.split(separator: "\n").map(String.init))
        for cosignature in latest where !present.contains(cosignature.line) {
            copy.note += cosignature.line + "\n"
        }
        copy.cosignatures = latest
        return copy
    }
}
