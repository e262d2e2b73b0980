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
            text == "0" || text.first != "0"
        else { return nil }
        return Int64(text)
    }
}
