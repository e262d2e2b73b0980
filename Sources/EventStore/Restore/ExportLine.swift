import JournalCore

/// Reads a line `journal export` wrote (its leaf line, `LeafLine`) back into the event it shows,
/// for a restore. Only the export's own form is taken: the keys in its order, no spaces, and the
/// line must be exactly the line the event renders to, byte for byte, so that a restored journal
/// exports the same bytes and has the same Merkle tree.
///
/// ```swift
/// let event = try ExportLine.parse(line)   // a RecordedEvent with position, version, recordedAt, hash
/// ```
package enum ExportLine {
    /// Why a line is not an export line.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    /// The event of `line` (without its line feed).
    /// - Throws: a `Failure` saying what is not as `journal export` writes it.
    package static func parse(_ line: some Collection<UInt8>) throws(Failure) -> RecordedEvent {
        let bytes = Array(line)
        var cursor = Cursor(bytes: bytes)
        try cursor.expect("{\"id\":")
        let id = try cursor.string("id")
        try cursor.expect(",\"stream\":")
        let streamText = try cursor.string("stream")
        try cursor.expect(",\"type\":")
        let type = try cursor.string("type")
        try cursor.expect(",\"occurredAt\":")
        let occurredAt = try cursor.timestamp("occurredAt")
        try cursor.expect(",\"data\":")
        let data = try cursor.object("data")
        var meta: [UInt8]?
        if cursor.take(",\"meta\":") { meta = try cursor.object("meta") }
        try cursor.expect(",\"position\":")
        let position = try cursor.integer("position")
        try cursor.expect(",\"version\":")
        let version = try cursor.integer("version")
        try cursor.expect(",\"recordedAt\":")
        let recordedAt = try cursor.timestamp("recordedAt")
        try cursor.expect(",\"hash\":")
        let hashText = try cursor.string("hash")
        try cursor.expect("}")
        guard cursor.atEnd else { throw Failure(reason: "text after the closing brace") }
        guard hashText.utf8.count == 64,
            hashText.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { throw Failure(reason: "hash: expected 64 lowercase hexadecimal digits") }
        let hash = Hex.bytes(hashText)
        let stream: StreamName
        do {
            stream = try StreamName(streamText)
        } catch {
            throw Failure(reason: "stream: \(error.message)")
        }
        let event = RecordedEvent(
            position: position, stream: stream, version: version, id: id, type: type, occurredAt: occurredAt,
            recordedAt: recordedAt, data: data, meta: meta, hash: hash)
        var rendered: [UInt8] = []
        rendered.reserveCapacity(bytes.count)
        event.exportLine(into: &rendered)
        guard rendered == bytes else {
            throw Failure(
                reason: "not written as 'journal export' writes this event (spacing, escapes or numbers differ)")
        }
        return event
    }

    /// A reader over one line's bytes.
    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard offset + count <= bytes.count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[offset + $0] == expected[$0] }
            }
            if matches { offset += count }
            return matches
        }

        mutating func expect(_ literal: StaticString) throws(Failure) {
            guard take(literal) else {
                let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
                throw Failure(reason: "expected \(text) at byte \(offset + 1) (an export line's keys, in its order)")
            }
        }

        /// A JSON string, unescaped.
        mutating func string(_ key: String) throws(Failure) -> String {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw Failure(reason: "\(key): expected a string")
            }
            let start = offset
            var escaped = false
            offset += 1
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    offset += 2
                    continue
                }
                offset += 1
                if byte == UInt8(ascii: "\"") {
                    guard escaped else { return String(decoding: bytes[(start + 1)..<(offset - 1)], as: UTF8.self) }
                    guard case let .string(text)? = try? JSONParser().parse(bytes[start..<offset]) else {
                        throw Failure(reason: "\(key): not a JSON string")
                    }
                    return text
                }
            }
            throw Failure(reason: "\(key): the string does not end")
        }

        mutating func timestamp(_ key: String) throws(Failure) -> Timestamp {
            guard let value = Timestamp(try string(key)) else {
                throw Failure(reason: "\(key): expected YYYY-MM-DDTHH:MM:SS.sssZ")
            }
            return value
        }

        mutating func integer(_ key: String) throws(Failure) -> Int64 {
            let start = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            guard offset > start, offset - start <= 18,
                let value = Int64(String(decoding: bytes[start..<offset], as: UTF8.self))
            else { throw Failure(reason: "\(key): expected a whole number") }
            return value
        }

        /// A JSON object's bytes as written, checked to be one.
        mutating func object(_ key: String) throws(Failure) -> [UInt8] {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else {
                throw Failure(reason: "\(key): expected a JSON object")
            }
            let start = offset
            var depth = 0
            var inString = false
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        offset += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        let object = Array(bytes[start..<offset])
                        guard case .object? = try? JSONParser().parse(object) else {
                            throw Failure(reason: "\(key): not a JSON object")
                        }
                        return object
                    }
                default: break
                }
            }
            throw Failure(reason: "\(key): the object does not end")
        }
    }
}
