/// A C2SP tlog-checkpoint: the note text that a log signs to commit to its tree.
///
///     <origin>\n<tree size>\n<base64 root>\n[extension lines, each ending in \n]
///
/// The journal's origin is its key name; it writes no extension lines but keeps any it reads.
public struct Checkpoint: Sendable, Equatable {
    /// The log's name (the journal's key name).
    public var origin: String
    /// The number of entries in the tree.
    public var size: Int64
    /// The tree's root hash (32 bytes).
    public var root: [UInt8]
    /// Lines after the root, without their line feeds (C2SP extension lines; non-empty).
    public var extensions: [String]

    public init(origin: String, size: Int64, root: [UInt8], extensions: [String] = []) {
        self.origin = origin
        self.size = size
        self.root = root
        self.extensions = extensions
    }

    /// The note text.
    public var text: String {
        "\(origin)\n\(size)\n\(Base64.encode(root))\n" + extensions.map { $0 + "\n" }.joined()
    }

    /// Parses a checkpoint's note text (without the signatures).
    public init(parsing text: String) throws(CheckpointError) {
        guard text.hasSuffix("\n") else { throw .notEndingInNewline }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3 else { throw .missingLines(count: lines.count) }
        guard !lines[0].isEmpty else { throw .emptyOrigin }
        guard let size = Self.parseSize(lines[1]) else { throw .malformedSize(String(lines[1].prefix(40))) }
        guard let root = Base64.decode(lines[2]) else { throw .malformedRoot("not base64") }
        guard root.count == Merkle.hashSize else { throw .malformedRoot("\(root.count) bytes, not 32") }
        let extensions = lines.dropFirst(3).map(String.init)
        if let empty = extensions.firstIndex(where: \.isEmpty) { throw .invalidExtensionLine(line: empty + 1) }
        self.init(origin: String(lines[0]), size: size, root: root, extensions: extensions)
    }

    /// ASCII digits without a leading zero (but "0"), within Int64.
    private static func parseSize(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              text == "0" || text.first != "0" else { return nil }
        return Int64(text)
    }
}

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
        guard verified.contains(where: { $0.name == checkpoint.origin }) else {
            throw .originNotSigned(origin: checkpoint.origin)
        }
        return verified
    }
}

/// Why a checkpoint could not be read, made or verified.
public enum CheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The checkpoint text does not end with a line feed.
    case notEndingInNewline
    /// Fewer than the three lines origin, size, root.
    case missingLines(count: Int)
    /// The first line (the origin) is empty.
    case emptyOrigin
    /// The second line is not a tree size (decimal digits, no leading zero, within Int64).
    case malformedSize(String)
    /// The third line is not the base64 of a 32-byte root.
    case malformedRoot(String)
    /// An extension line (counted from 1 after the root line) is empty or holds a line feed.
    case invalidExtensionLine(line: Int)
    /// The signed note around it is bad, or its signatures do not verify.
    case note(NoteError)
    /// No key named as the origin signed the checkpoint (or would sign it).
    case originNotSigned(origin: String)

    public var description: String {
        switch self {
        case .notEndingInNewline: "the checkpoint text does not end with a line feed"
        case let .missingLines(count): "a checkpoint has at least 3 lines (origin, size, root), not \(count)"
        case .emptyOrigin: "line 1: the checkpoint's origin is empty"
        case let .malformedSize(text): "line 2: \"\(text)\" is not a tree size"
        case let .malformedRoot(reason): "line 3: the root is not base64 of 32 bytes (\(reason))"
        case let .invalidExtensionLine(line): "line \(line + 3): an extension line is empty or holds a line feed"
        case let .note(error): error.description
        case let .originNotSigned(origin): "the checkpoint is not signed by a key named \(origin) (its origin)"
        }
    }
}
