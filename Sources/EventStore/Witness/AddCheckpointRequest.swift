/// The body of a C2SP tlog-witness `add-checkpoint` request: `old <M>\n`, at most 63 lines of
/// base64 consistency-proof hashes, an empty line, and the signed checkpoint.
public struct AddCheckpointRequest: Sendable, Equatable {
    /// The size of the tree the submitter believes the witness last cosigned.
    public var oldSize: Int64
    /// The consistency proof from `oldSize` to the checkpoint's size.
    public var proof: [[UInt8]]
    /// The checkpoint, signed by the log (and perhaps cosigned).
    public var checkpoint: SignedCheckpoint

    /// The most proof lines a request may have.
    public static let maxProofLines = 63

    public init(oldSize: Int64, proof: [[UInt8]], checkpoint: SignedCheckpoint) {
        self.oldSize = oldSize
        self.proof = proof
        self.checkpoint = checkpoint
    }

    /// The body to send.
    public var body: String {
        "old \(oldSize)\n" + proof.map { Base64.encode($0) + "\n" }.joined() + "\n" + checkpoint.noteText
    }

    /// Parses a body; the error says what is malformed (a 400 answer).
    public init(parsing body: [UInt8]) throws(WitnessRefusal) {
        var lines: [ArraySlice<UInt8>] = []
        var start = body.startIndex
        var checkpointStart: Int?
        while let end = body[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = body[start..<end]
            start = end + 1
            if line.isEmpty {
                checkpointStart = start
                break
            }
            lines.append(line)
            guard lines.count <= 1 + Self.maxProofLines else {
                throw .malformed("more than \(Self.maxProofLines) consistency proof lines")
            }
        }
        guard let checkpointStart else {
            throw .malformed("no empty line between the old size and proof lines and the checkpoint")
        }
        guard let first = lines.first, first.starts(with: Array("old ".utf8)) else {
            throw .malformed("the first line is not 'old <size>'")
        }
        guard let oldSize = Self.decimal(first.dropFirst(4)) else {
            throw .malformed("the old size is not a decimal number without leading zeros")
        }
        var proof: [[UInt8]] = []
        for (offset, line) in lines.dropFirst().enumerated() {
            guard let hash = Base64.decode(String(decoding: line, as: UTF8.self)), hash.count == Merkle.hashSize else {
                throw .malformed("proof line \(offset + 1) is not the base64 of a 32-byte hash")
            }
            proof.append(hash)
        }
        guard let note = String(validating: body[checkpointStart...], as: UTF8.self) else {
            throw .malformed("the checkpoint is not UTF-8")
        }
        let checkpoint: SignedCheckpoint
        do {
            checkpoint = try SignedCheckpoint(parsing: note)
        } catch {
            throw .malformed("the checkpoint is not a signed checkpoint: \(error)")
        }
        self.init(oldSize: oldSize, proof: proof, checkpoint: checkpoint)
    }

    /// ASCII digits without a leading zero (but "0"), within Int64.
    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            bytes.count == 1 || bytes.first != UInt8(ascii: "0")
        else { return nil }
        return Int64(String(decoding: bytes, as: UTF8.self))
    }
}
