import JournalCore

/// A checkpoint with its signed note, kept verbatim: the bytes that were signed and shown.
public struct SignedCheckpoint: Sendable, Equatable {
    public let checkpoint: Checkpoint
    /// The whole signed note: checkpoint text, blank line, signature lines.
    public let noteText: String
    public let note: SignedNote

    /// Parses a signed checkpoint note (signatures are not checked: see ``verify(with:)``).
    public init(parsing noteText: String) throws(CheckpointError) {
        do {
            self.note = try SignedNote(parsing: noteText)
        } catch {
            throw .note(error)
        }
        self.checkpoint = try Checkpoint(parsing: note.text)
        self.noteText = noteText
    }

    /// Signs `checkpoint` with `signer`, whose name must be the checkpoint's origin.
    public init(signing checkpoint: Checkpoint, with signer: NoteSigner) throws(CheckpointError) {
        guard signer.name == checkpoint.origin else {
            throw .originNotSigned(origin: checkpoint.origin)
        }
        guard signer.type == .ed25519 else {
            throw .note(.signing("\(signer.name) is \(signer.type.summary), which cosigns but does not sign a log"))
        }
        if let bad = checkpoint.extensions.firstIndex(where: { $0.isEmpty || $0.utf8.contains(UInt8(ascii: "\n")) }) {
            throw .invalidExtensionLine(line: bad + 1)
        }
        let text = checkpoint.text
        do {
            _ = try Checkpoint(parsing: text)
            self.note = try SignedNote(signing: text, with: [signer])
        } catch let error as CheckpointError {
            throw error
        } catch let error as NoteError {
            throw .note(error)
        } catch {
            throw .note(.signing(String(describing: error)))
        }
        self.checkpoint = checkpoint
        self.noteText = note.rendered
    }

    /// The checkpoint with `cosignatures` added after its signature lines (those already there
    /// are not repeated).
    public func adding(cosignatures: [NoteSignature]) -> SignedCheckpoint {
        let note = note.adding(cosignatures)
        return SignedCheckpoint(checkpoint: checkpoint, noteText: note.rendered, note: note)
    }

    private init(checkpoint: Checkpoint, noteText: String, note: SignedNote) {
        self.checkpoint = checkpoint
        self.noteText = noteText
        self.note = note
    }

    /// Checks the note's signatures with `verifiers` (``SignedNote/verify(with:)``), and that a
    /// key named as the checkpoint's origin is among those that signed it. Returns the keys whose
    /// signatures verified.
    @discardableResult
    public func verify(with verifiers: [NoteVerifier]) throws(CheckpointError) -> [NoteVerifier] {
        let verified: [NoteVerifier]
        do {
            verified = try note.verify(with: verifiers)
        } catch {
            throw .note(error)
        }
        guard verified.contains(where: { $0.name == checkpoint.origin && $0.type == .ed25519 }) else {
            throw .originNotSigned(origin: checkpoint.origin)
        }
        return verified
    }
}

extension SignedCheckpoint {
    /// `{"origin": S, "size": N, "root": "<base64>", "note": "<the whole signed note>"}`.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("origin", .string(checkpoint.origin)),
                ("size", .number(JSONNumber(checkpoint.size))),
                ("root", .string(Base64.encode(checkpoint.root))),
                ("note", .string(noteText))
            ]))
    }
}
