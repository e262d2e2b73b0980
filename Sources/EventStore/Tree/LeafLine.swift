import JournalCore

/// The line `journal export` prints for an event (without its line feed), which is also the
/// event's entry in the journal's Merkle tree (its *leaf line*, contract section 6): the import
/// envelope, then the four keys the journal assigned. `data` and `meta` are written byte for
/// byte as stored.
///
/// `{"id":…,"stream":…,"type":…,"occurredAt":…,"data":{…},"meta":{…},"position":P,"version":V,
///   "recordedAt":…,"hash":"<64 hex digits>"}`
///
/// Every writer (SQLite's appends and journal loads, PostgreSQL's appends) and the export render
/// it here, so the tree and the export cannot disagree.
enum LeafLine {
    /// Appends the line of an event given by its fields (texts as UTF-8).
    static func render(
        id: UnsafeBufferPointer<UInt8>, stream: UnsafeBufferPointer<UInt8>,
        type: UnsafeBufferPointer<UInt8>, occurredAt: Timestamp, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, position: Int64, version: Int64, recordedAt: Timestamp,
        hash: UnsafeRawBufferPointer, into out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.writeString(id, into: &out)
        out.append(contentsOf: #","stream":"#.utf8)
        JSONWriter.writeString(stream, into: &out)
        out.append(contentsOf: #","type":"#.utf8)
        JSONWriter.writeString(type, into: &out)
        out.append(contentsOf: #","occurredAt":""#.utf8)
        occurredAt.write(into: &out)
        out.append(contentsOf: #"","data":"#.utf8)
        out.append(contentsOf: data)
        if let meta {
            out.append(contentsOf: #","meta":"#.utf8)
            out.append(contentsOf: meta)
        }
        out.append(contentsOf: #","position":"#.utf8)
        appendDecimal(position, to: &out)
        out.append(contentsOf: #","version":"#.utf8)
        appendDecimal(version, to: &out)
        out.append(contentsOf: #","recordedAt":""#.utf8)
        recordedAt.write(into: &out)
        out.append(contentsOf: #"","hash":""#.utf8)
        Hex.append(hash, to: &out)
        out.append(contentsOf: #""}"#.utf8)
    }

    /// Appends the line of an event given by its chain link body (`ChainHasher.appendBody`:
    /// stream, id, type, occurredAt, recordedAt, data, meta), which a journal load already has.
    static func render(
        body: UnsafeRawBufferPointer, position: Int64, version: Int64, hash: UnsafeRawBufferPointer,
        into out: inout [UInt8]
    ) {
        var reader = BodyReader(buffer: body)
        let stream = reader.text()
        let id = reader.text()
        let type = reader.text()
        let occurredAt = Timestamp(millisecondsSinceEpoch: reader.int64())
        let recordedAt = Timestamp(millisecondsSinceEpoch: reader.int64())
        let data = reader.bytes()
        let meta = reader.flag() ? reader.bytes() : nil
        render(
            id: id, stream: stream, type: type, occurredAt: occurredAt, data: data, meta: meta, position: position,
            version: version, recordedAt: recordedAt, hash: hash, into: &out)
    }

    /// A decimal integer, as `String(value)` writes it.
    static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// Reads the fields of a link body in order (its layout: `ChainHasher.swift`).
    private struct BodyReader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        mutating func length() -> Int {
            let value =
                UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16
                | UInt32(buffer[offset + 2]) << 8 | UInt32(buffer[offset + 3])
            offset += 4
            return Int(value)
        }

        mutating func bytes() -> UnsafeRawBufferPointer {
            let count = length()
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
        }

        mutating func text() -> UnsafeBufferPointer<UInt8> {
            bytes().bindMemory(to: UInt8.self)
        }

        mutating func int64() -> Int64 {
            var value: UInt64 = 0
            for index in offset..<(offset + 8) { value = value << 8 | UInt64(buffer[index]) }
            offset += 8
            return Int64(bitPattern: value)
        }

        mutating func flag() -> Bool {
            defer { offset += 1 }
            return buffer[offset] != 0
        }
    }
}

extension RecordedEvent {
    /// Appends the event's export line, which is also its leaf line in the journal's Merkle tree
    /// (`LeafLine`), without a line feed.
    public func exportLine(into out: inout [UInt8]) {
        Self.exportLine(
            id: id, stream: stream, type: type, occurredAt: occurredAt, data: data, meta: meta,
            position: position, version: version, recordedAt: recordedAt, hash: hash, into: &out)
    }

    /// The export line of an event given by its fields, without building a `RecordedEvent`:
    /// the bytes `exportLine(into:)` appends for the same event.
    public static func exportLine(
        id: String, stream: StreamName, type: String, occurredAt: Timestamp,
        data: [UInt8], meta: [UInt8]?, position: Int64, version: Int64,
        recordedAt: Timestamp, hash: [UInt8], into out: inout [UInt8]
    ) {
        UTF8Bytes.with(id) { id in
            UTF8Bytes.with(stream.rawValue) { stream in
                UTF8Bytes.with(type) { type in
                    data.withUnsafeBytes { data in
                        OptionalBytes.with(meta) { meta in
                            hash.withUnsafeBytes { hash in
                                LeafLine.render(
                                    id: id, stream: stream, type: type, occurredAt: occurredAt, data: data,
                                    meta: meta, position: position, version: version,
                                    recordedAt: recordedAt, hash: hash, into: &out)
                            }
                        }
                    }
                }
            }
        }
    }
}
