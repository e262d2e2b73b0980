/// A C2SP tlog-proof: an offline-checkable proof that one entry is in a signed tree.
///
///     c2sp.org/tlog-proof@v1
///     extra <base64 of the entry's leaf line>
///     index <entry index = position − 1>
///     <inclusion proof: one base64 SHA-256 per line, the leaf's sibling first>
///
///     <the signed checkpoint, verbatim>
///
/// C2SP makes the `extra` line optional; the journal always writes it (the leaf line), and
/// ``verify(with:)`` needs it.
public struct TlogProof: Sendable, Equatable {
    /// The first line.
    public static let header = "c2sp.org/tlog-proof@v1"

    /// The `extra` data: for the journal, the leaf line of the event.
    public var extra: [UInt8]?
    /// The entry's index in the tree (the event's position − 1).
    public var index: Int64
    /// The inclusion proof (RFC 6962 §2.1.1), the leaf's sibling first.
    public var proof: [[UInt8]]
    public var checkpoint: SignedCheckpoint

    public init(extra: [UInt8]?, index: Int64, proof: [[UInt8]], checkpoint: SignedCheckpoint) {
        self.extra = extra
        self.index = index
        self.proof = proof
        self.checkpoint = checkpoint
    }

    /// The proof's text.
    public var text: String {
        var out = Self.header + "\n"
        if let extra { out += "extra \(Base64.encode(extra))\n" }
        out += "index \(index)\n"
        for hash in proof { out += Base64.encode(hash) + "\n" }
        return out + "\n" + checkpoint.noteText
    }

    /// Parses a proof's text. Errors name the 1-based line.
    public init(parsing text: String) throws(TlogProofError) {
        var lines = text.split(separator: "\n", maxSplits: Int.max, omittingEmptySubsequences: false)[...]
        var number = 0
        func next() -> Substring? {
            guard let line = lines.popFirst() else { return nil }
            number += 1
            return line
        }
        guard next() == Substring(Self.header) else {
            throw .malformedLine(line: 1, reason: "expected \(Self.header)")
        }
        var line = next()
        var extra: [UInt8]?
        if let current = line, current.hasPrefix("extra ") {
            guard let bytes = Base64.decode(current.dropFirst("extra ".count)) else {
                throw .malformedLine(line: number, reason: "the extra data is not base64")
            }
            extra = bytes
            line = next()
        }
        guard let indexLine = line, indexLine.hasPrefix("index "),
            let index = Self.parseIndex(indexLine.dropFirst("index ".count))
        else {
            throw .malformedLine(line: number, reason: "expected 'index <entry index>'")
        }
        var proof: [[UInt8]] = []
        while true {
            guard let hashLine = next() else { throw .missingCheckpoint }
            if hashLine.isEmpty { break }
            guard let hash = Base64.decode(hashLine), hash.count == Merkle.hashSize else {
                throw .malformedLine(line: number, reason: "a proof hash is the base64 of 32 bytes")
            }
            proof.append(hash)
        }
        let checkpointText = lines.joined(separator: "\n")
        guard !checkpointText.isEmpty else { throw .missingCheckpoint }
        do {
            self.checkpoint = try SignedCheckpoint(parsing: checkpointText)
        } catch {
            throw .checkpoint(firstLine: number + 1, error)
        }
        self.extra = extra
        self.index = index
        self.proof = proof
    }

    /// Checks the checkpoint's signature with `verifiers` (``SignedCheckpoint/verify(with:)``)
    /// and that the proof puts the leaf line `extra` at `index` in the checkpoint's tree.
    public func verify(with verifiers: [NoteVerifier]) throws(TlogProofError) {
        do {
            try checkpoint.verify(with: verifiers)
        } catch {
            throw .checkpoint(firstLine: nil, error)
        }
        guard let extra else { throw .missingExtra }
        do {
            try Merkle.verifyInclusion(
                leafHash: Merkle.leafHash(extra), index: index, size: checkpoint.checkpoint.size,
                proof: proof, root: checkpoint.checkpoint.root)
        } catch {
            throw .inclusion(error)
        }
    }

    private static func parseIndex(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            text == "0" || text.first != "0"
        else { return nil }
        return Int64(text)
    }
}
