import JournalCore

/// Checks the lines of an export, one at a time, against a checkpoint's tree size and root
/// (spec §9): line L must be an export line of the event at position L, and the RFC 6962
/// tree over lines 1 … size (each line's bytes without the line feed are its leaf, spec §6)
/// must have the checkpoint's root. Lines after the size are counted, not checked. Memory does
/// not grow with the file: one parsed line and ``IncrementalMerkleRoot``'s few hashes.
///
/// A line is an export line when it is a JSON object with the keys `journal export` writes
/// (`id`, `stream`, `type`, `occurredAt`, `data`, `position`, `version`, `recordedAt`, `hash`,
/// and `meta` when the event has one) and no other, and its `position` is its line number. A
/// line can be all that and still not be the one signed: then the root differs, which names no
/// single line (the tree's root commits to all of them; a proof per event would be needed).
public struct ExportTreeCheck {
    /// The checkpoint's tree size and root.
    public let size: Int64
    public let root: [UInt8]
    /// The lines given so far.
    public private(set) var lines: Int64 = 0
    private var tree = IncrementalMerkleRoot()
    private let parser = JSONParser()

    public init(size: Int64, root: [UInt8]) {
        self.size = size
        self.root = root
    }

    /// The keys of an export line (`meta` only when the event has one).
    static let exportKeys: Set<String> = [
        "id", "stream", "type", "occurredAt", "data", "meta", "position", "version", "recordedAt", "hash"
    ]

    /// The next line's bytes, without its line feed.
    /// - Throws: ``ExportVerificationError/notAnExportLine(line:reason:)`` or, at the line that
    ///   completes the checkpoint's size, ``ExportVerificationError/rootMismatch(line:root:expected:)``.
    public mutating func add(line bytes: some BidirectionalCollection<UInt8>) throws(ExportVerificationError) {
        lines += 1
        guard lines <= size else { return }
        if let reason = problem(bytes, line: lines) {
            throw .notAnExportLine(line: lines, reason: reason)
        }
        tree.append(leafLine: bytes)
        if tree.size == size {
            let computed = tree.root
            guard computed == root else { throw .rootMismatch(line: lines, root: computed, expected: root) }
        }
    }

    /// Ends the check once every line was given.
    /// - Throws: ``ExportVerificationError/tooFewLines(lines:size:)`` when the lines stopped
    ///   before the checkpoint's size; for a size of 0, a root other than the empty tree's.
    public func finish() throws(ExportVerificationError) {
        guard lines >= size else { throw .tooFewLines(lines: lines, size: size) }
        if size == 0, root != Merkle.emptyRoot { throw .rootMismatch(line: 0, root: Merkle.emptyRoot, expected: root) }
    }

    /// The lines given after the checkpoint's size.
    public var linesAfter: Int64 { max(0, lines - size) }

    /// Why `bytes` is not the export line of position `line`; nil when it is one.
    private func problem(_ bytes: some BidirectionalCollection<UInt8>, line: Int64) -> String? {
        if bytes.isEmpty { return "it is empty (an export has no blank lines)" }
        if bytes.last == 0x0D {
            return "it ends in a carriage return: the line ends were changed to CRLF (an export has LF only)"
        }
        let value: JSONValue
        do {
            value = try parser.parse(bytes)
        } catch {
            return "it is not JSON: \(error)"
        }
        guard let object = value.objectValue else { return "it is a JSON \(value.typeName), not an object" }
        if let unknown = object.keys.first(where: { !Self.exportKeys.contains($0) }) {
            return "it has the key \"\(Self.shown(unknown))\", which an export line does not have"
        }
        for key in ["id", "stream", "type", "occurredAt", "recordedAt", "hash"] where object[key]?.stringValue == nil {
            return "its \"\(key)\" is missing or not a string"
        }
        guard object["data"]?.objectValue != nil else { return "its \"data\" is missing or not an object" }
        guard object["version"]?.numberValue?.int64 != nil else {
            return "its \"version\" is missing or not an integer"
        }
        guard let position = object["position"]?.numberValue?.int64 else {
            return "its \"position\" is missing or not an integer"
        }
        guard position == line else {
            return "it holds position \(position), not \(line): "
                + (position > line ? "lines are missing before it" : "lines are repeated or out of order")
        }
        return nil
    }

    /// A key from the file, shortened and without control characters, to name in a message.
    private static func shown(_ key: String) -> String {
        String(String.UnicodeScalarView(key.unicodeScalars.prefix(40).filter { $0.value >= 0x20 && $0 != "\"" }))
    }
}
