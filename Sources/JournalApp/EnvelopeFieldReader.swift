import JournalCore

/// An import line's envelope read field by field from its bytes, without a JSON tree: the typed
/// reading of the common line, which `Importer.prepare` tries before the tree.
///
/// It accepts only a line it can judge exactly as the tree path does and that the tree path
/// would accept: a top-level object of distinct known keys (ASCII keys and strings without
/// escapes, integers, `null`), a valid id, stream name, type and `occurredAt`, `data` (and any
/// `meta`) a flat object (``JSONFlatObject``) written compactly, so its bytes are the compact
/// JSON the store keeps, and no value the sensitive-data guard refuses. Any other line, valid
/// or not, is declined (nil), and the tree path reads it and gives its error, if any: so every
/// error text, rule and line number stays the tree path's.
enum EnvelopeFieldReader {
    /// The envelope and its payload bytes, or nil when the typed reading does not cover the line.
    static func read(_ line: [UInt8]) -> (Importer.CheckedEnvelope, Importer.Payload)? {
        line.withUnsafeBytes { bytes in read(bytes) }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) -> (Importer.CheckedEnvelope, Importer.Payload)? {
        var scanner = Scanner(bytes: bytes)
        var id: Range<Int>?
        var stream: Range<Int>?
        var type: Range<Int>?
        var occurredAt: Range<Int>?
        var data: Range<Int>?
        var meta: Range<Int>?
        var seen: UInt16 = 0
        scanner.skipWhitespace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipWhitespace()
        guard !scanner.take(UInt8(ascii: "}")) else { return nil }
        while true {
            guard let keyRange = scanner.plainString(), let key = Key(bytes, keyRange) else { return nil }
            // A repeated key is the tree parser's to refuse.
            guard seen & key.bit == 0 else { return nil }
            seen |= key.bit
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            switch key {
            case .id, .stream, .type, .occurredAt:
                guard let text = scanner.plainStringValue() else { return nil }
                switch key {
                case .id: id = text
                case .stream: stream = text
                case .type: type = text
                default: occurredAt = text
                }
            case .data:
                guard let object = scanner.flatObject() else { return nil }
                data = object
            case .meta:
                if scanner.literalNull() {
                    meta = nil
                } else {
                    guard let object = scanner.flatObject() else { return nil }
                    meta = object
                }
            case .position, .version, .recordedAt, .hash:
                // Accepted and ignored, as the tree path does; only scalars are read here.
                guard scanner.skipScalar() else { return nil }
            }
            scanner.skipWhitespace()
            if scanner.take(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                continue
            }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count, let id, let stream, let type, let occurredAt, let data else { return nil }

        let idText = text(bytes, id)
        guard UUIDText.isUUID(idText) else { return nil }
        let streamText = text(bytes, stream)
        guard Envelope.streamNameProblem(streamText) == nil else { return nil }
        guard !type.isEmpty else { return nil }
        guard let time = Timestamp(text(bytes, occurredAt)) else { return nil }

        guard let dataBytes = payloadBytes(bytes, data) else { return nil }
        var metaBytes: [UInt8]?
        if let meta {
            guard let checked = payloadBytes(bytes, meta) else { return nil }
            // `"meta": {}` is no meta.
            metaBytes = checked.count == 2 ? nil : checked
        }
        let envelope = Importer.CheckedEnvelope(
            id: idText, stream: streamText, type: text(bytes, type), occurredAt: time)
        return (envelope, Importer.Payload(data: dataBytes, meta: metaBytes))
    }

    /// The object's bytes when it is flat, compact and passes the sensitive-data guard, else nil.
    private static func payloadBytes(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [UInt8]? {
        let object = UnsafeRawBufferPointer(rebasing: bytes[range])
        let accepted: Bool? = JSONFlatObject.withMembers(of: object) { flat in
            SensitiveData.passes(flat)
        }
        guard accepted == true else { return nil }
        return Array(object)
    }

    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        // ASCII by the scan.
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The top-level keys of an envelope (``Envelope/importedKeys`` and
    /// ``Envelope/journalAssignedKeys``).
    private enum Key: UInt16 {
        case id = 1
        case stream = 2
        case type = 4
        case occurredAt = 8
        case data = 16
        case meta = 32
        case position = 64
        case version = 128
        case recordedAt = 256
        case hash = 512

        var bit: UInt16 { rawValue }

        init?(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
            let key = UnsafeRawBufferPointer(rebasing: bytes[range])
            for candidate in Self.names where candidate.name.count == key.count {
                if candidate.name.elementsEqual(key) {
                    self = candidate.key
                    return
                }
            }
            return nil
        }

        private static let names: [(name: [UInt8], key: Key)] = [
            (Array("id".utf8), .id), (Array("stream".utf8), .stream), (Array("type".utf8), .type),
            (Array("occurredAt".utf8), .occurredAt), (Array("data".utf8), .data), (Array("meta".utf8), .meta),
            (Array("position".utf8), .position), (Array("version".utf8), .version),
            (Array("recordedAt".utf8), .recordedAt), (Array("hash".utf8), .hash)
        ]
    }

    private typealias Scanner = JSONByteCursor
}

extension JSONByteCursor {
    fileprivate mutating func plainStringValue() -> Range<Int>? { plainString() }

    fileprivate mutating func literalNull() -> Bool {
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// A plain string, an integer the flat reading takes, or `null`.
    fileprivate mutating func skipScalar() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""): return plainString() != nil
        case UInt8(ascii: "n"): return literalNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = take(UInt8(ascii: "-"))
            let digits = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            let length = index - digits
            guard length > 0, length <= 40, bytes[digits] != UInt8(ascii: "0") || length == 1 else { return false }
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return false
                default: break
                }
            }
            return true
        default:
            return false
        }
    }

    /// An object written compactly (no whitespace outside its strings), with no nested object
    /// or array and no escape: its range, braces included. Whether its members are well
    /// formed is ``JSONFlatObject``'s to judge; being compact, its bytes are what
    /// ``JSONWriter`` writes for it.
    fileprivate mutating func flatObject() -> Range<Int>? {
        let start = index
        guard take(UInt8(ascii: "{")) else { return nil }
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if byte == UInt8(ascii: "\"") { inString = false }
                if byte == UInt8(ascii: "\\") { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "}"): return start..<index
            case UInt8(ascii: "{"), UInt8(ascii: "["), 0x20, 0x09, 0x0A, 0x0D: return nil
            default: continue
            }
        }
        return nil
    }
}
