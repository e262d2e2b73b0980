/// A witness's cosignature of a checkpoint (C2SP tlog-cosignature, `cosignature/v1`): the note
/// signature line `— <witness name> <base64(key id ‖ time ‖ signature)>`, where time is the time of
/// cosigning in seconds since the Unix epoch (8 bytes, big-endian) and signature the 64-byte
/// Ed25519 signature of ``message(time:text:)``. A cosignature states that, at that time, the
/// checkpoint was the largest append-only extension the witness had seen of the log.
public struct Cosignature: Sendable, Equatable {
    /// Seconds since the Unix epoch, at most 2^63 − 1.
    public let time: UInt64
    /// The 64-byte Ed25519 signature.
    public let signature: [UInt8]

    /// The size of a cosignature after the key id: the time and the signature.
    public static let byteCount = 8 + Ed25519.signatureSize

    public init?(time: UInt64, signature: [UInt8]) {
        guard time <= UInt64(Int64.max), signature.count == Ed25519.signatureSize else { return nil }
        self.time = time
        self.signature = signature
    }

    /// Reads the bytes after the key id of a signature line: 8 bytes of time, 64 of signature.
    public init?(signatureBytes bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        let time = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(time: time, signature: Array(bytes.dropFirst(8)))
    }

    /// The time, then the signature: what follows the key id in the signature line.
    public var signatureBytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: time >> (56 - 8 * UInt64($0))) } + signature
    }

    /// The signed message: `cosignature/v1\ntime <time>\n`, then the checkpoint's note text (its
    /// lines before the blank line, each with its line feed).
    public static func message(time: UInt64, text: some Collection<UInt8>) -> [UInt8] {
        Array("cosignature/v1\ntime \(time)\n".utf8) + text
    }

    /// The cosignature line of `signer` (a ``NoteKeyType/cosignatureV1`` key) on a note with
    /// `text`, at `time` (seconds since the Unix epoch, 1 … 2^63 − 1).
    public static func sign(text: String, time: UInt64, with signer: NoteSigner) throws(NoteKeyError) -> NoteSignature {
        guard signer.type == .cosignatureV1 else {
            throw .malformed("\(signer.name) is \(signer.type.summary), not a witness key")
        }
        guard time >= 1 && time <= UInt64(Int64.max) else {
            throw .malformed("a cosignature's time is 1 … 2^63 − 1 seconds, not \(time)")
        }
        let signature = try signer.sign(message(time: time, text: Array(text.utf8)))
        let cosignature = Cosignature(time: time, signature: signature)
        return NoteSignature(name: signer.name, keyID: signer.keyID, signature: cosignature?.signatureBytes ?? [])
    }
}

extension SignedNote {
    /// The witnesses among `witnesses` (cosignature/v1 keys) whose cosignature on this note
    /// verifies, each once, in the order given. A cosignature that does not verify, or by a key
    /// not given, counts for nothing.
    public func cosigners(among witnesses: [NoteVerifier]) -> [NoteVerifier] {
        let textBytes = Array(text.utf8)
        return witnesses.filter { witness in
            witness.type == .cosignatureV1
                && signatures.contains { signature in
                    signature.name == witness.name && signature.keyID == witness.keyID
                        && witness.isValidNoteSignature(signature.signature, text: textBytes)
                }
        }
    }

    /// The note with `extra` signature lines added after its own (a line already there is not
    /// repeated).
    public func adding(_ extra: [NoteSignature]) -> SignedNote {
        var all = signatures
        for signature in extra where !all.contains(signature) { all.append(signature) }
        return SignedNote(checkedText: text, signatures: all)
    }
}
