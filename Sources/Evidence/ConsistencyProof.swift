import JournalCore

/// A consistency proof between two tree sizes (RFC 6962 §2.1.2), as the journal prints it: one
/// base64 SHA-256 per line (the sizes come from the two checkpoints), or as JSON
/// `{"fromSize": M, "toSize": N, "proof": ["<base64>", …]}`.
public struct ConsistencyProof: Sendable, Equatable {
    public var fromSize: Int64
    public var toSize: Int64
    public var hashes: [[UInt8]]

    public init(fromSize: Int64, toSize: Int64, hashes: [[UInt8]]) {
        self.fromSize = fromSize
        self.toSize = toSize
        self.hashes = hashes
    }

    /// One base64 hash per line, each ending in a line feed (nothing when the sizes are equal).
    public var text: String { hashes.map { Base64.encode($0) + "\n" }.joined() }

    public var json: JSONValue {
        .object(
            JSONObject([
                ("fromSize", .number(JSONNumber(fromSize))),
                ("toSize", .number(JSONNumber(toSize))),
                ("proof", .array(hashes.map { .string(Base64.encode($0)) }))
            ]))
    }

    /// Parses the text form for the given sizes; blank lines are skipped. Errors name the line.
    public init(parsing text: String, fromSize: Int64, toSize: Int64) throws(ConsistencyProofError) {
        var hashes: [[UInt8]] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty {
            guard let hash = Base64.decode(line), hash.count == Merkle.hashSize else {
                throw .malformedLine(line: offset + 1, reason: "a proof hash is the base64 of 32 bytes")
            }
            hashes.append(hash)
        }
        self.init(fromSize: fromSize, toSize: toSize, hashes: hashes)
    }

    /// Checks that the tree of `fromSize` with `fromRoot` is a prefix of the tree of `toSize`
    /// with `toRoot` (``Merkle/verifyConsistency(oldSize:newSize:oldRoot:newRoot:proof:)``).
    public func verify(fromRoot: [UInt8], toRoot: [UInt8]) throws(MerkleProofError) {
        try Merkle.verifyConsistency(
            oldSize: fromSize, newSize: toSize, oldRoot: fromRoot, newRoot: toRoot,
            proof: hashes)
    }

    /// Checks the proof between two signed checkpoints: both signed by a trusted key named as
    /// their (common) origin, the proof's sizes theirs, and the old tree a prefix of the new.
    public func verify(
        from old: SignedCheckpoint, to new: SignedCheckpoint,
        with verifiers: [NoteVerifier]
    ) throws(ConsistencyProofError) {
        do {
            try old.verify(with: verifiers)
        } catch {
            throw .oldCheckpoint(error)
        }
        do {
            try new.verify(with: verifiers)
        } catch {
            throw .newCheckpoint(error)
        }
        guard old.checkpoint.origin == new.checkpoint.origin else {
            throw .differentOrigins(old: old.checkpoint.origin, new: new.checkpoint.origin)
        }
        guard fromSize == old.checkpoint.size, toSize == new.checkpoint.size else {
            throw .sizesDiffer(
                proofFrom: fromSize, proofTo: toSize, oldCheckpoint: old.checkpoint.size,
                newCheckpoint: new.checkpoint.size)
        }
        do {
            try verify(fromRoot: old.checkpoint.root, toRoot: new.checkpoint.root)
        } catch {
            throw .proof(error)
        }
    }
}
