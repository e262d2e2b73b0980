import JournalCore

/// The line `journal export` prints for an event (without its line feed), which is also the
/// event's entry in the journal's Merkle tree (its *leaf line*, spec §6): the import
/// envelope, then the four keys the journal assigned. `data` and `meta` are written byte for
/// byte as stored.
///
/// `{"id":…,"stream":…,"type":…,"occurredAt":…,"data":{…},"meta":{…},"position":P,"version":V,
///   "recordedAt":…,"hash":"<64 hex digits>"}`
///
/// Every writer (SQLite's appends and journal loads, PostgreSQL's appends) and the export render
/// it here, so the tree and the export cannot disagree.
enum LeafLine {
    /// The fields of an event a leaf line shows besides the numbers the journal assigned, lent
    /// by their owner: valid only while the memory they point into is.
    struct Fields {
        var id: UnsafeBufferPointer<UInt8>
        var stream: UnsafeBufferPointer<UInt8>
        var type: UnsafeBufferPointer<UInt8>
        var occurredAt: Timestamp
        var recordedAt: Timestamp
        var data: UnsafeRawBufferPointer
        var meta: UnsafeRawBufferPointer?

        init(
            id: UnsafeBufferPointer<UInt8>, stream: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>,
            occurredAt: Timestamp, recordedAt: Timestamp, data: UnsafeRawBufferPointer,
            meta: UnsafeRawBufferPointer?
        ) {
            (self.id, self.stream, self.type) = (id, stream, type)
            (self.occurredAt, self.recordedAt) = (occurredAt, recordedAt)
            (self.data, self.meta) = (data, meta)
        }

        /// The fields of a chain link body (`ChainHasher.appendBody`: stream, id, type,
        /// occurredAt, recordedAt, data, meta), which a journal load and a scan already have.
        init(body: UnsafeRawBufferPointer) {
            var reader = BodyReader(buffer: body)
            stream = reader.text()
            id = reader.text()
            type = reader.text()
            occurredAt = Timestamp(millisecondsSinceEpoch: reader.int64())
            recordedAt = Timestamp(millisecondsSinceEpoch: reader.int64())
            data = reader.bytes()
            meta = reader.flag() ? reader.bytes() : nil
        }

        /// The most bytes the line of this event can take: every text escaped at its longest,
        /// both numbers at 20 digits, `hashCount` bytes of hash in hex.
        func maximumLineByteCount(hashCount: Int) -> Int {
            let texts = JSONWriter.maximumStringByteCount(id.count + stream.count + type.count)
            return 256 + texts + data.count + (meta?.count ?? 0) + 2 * hashCount
        }
    }

    /// Appends the line of an event.
    static func render(
        _ fields: Fields, position: Int64, version: Int64, hash: UnsafeRawBufferPointer, into out: inout [UInt8]
    ) {
        let capacity = fields.maximumLineByteCount(hashCount: hash.count)
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            var writer = LineWriter(start: buffer.baseAddress!)
            write(fields, position: position, version: version, hash: hash, to: &writer)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<writer.count]))
        }
    }

    /// Writes the line of an event; `writer` has room for `fields.maximumLineByteCount` bytes.
    static func write(
        _ fields: Fields, position: Int64, version: Int64, hash: UnsafeRawBufferPointer,
        to writer: inout LineWriter
    ) {
        writer.write(#"{"id":"#)
        writer.writeJSONString(fields.id)
        writer.write(#","stream":"#)
        writer.writeJSONString(fields.stream)
        writer.write(#","type":"#)
        writer.writeJSONString(fields.type)
        writer.write(#","occurredAt":""#)
        writer.write(fields.occurredAt)
        writer.write(#"","data":"#)
        writer.write(fields.data)
        if let meta = fields.meta {
            writer.write(#","meta":"#)
            writer.write(meta)
        }
        writer.write(#","position":"#)
        writer.writeDecimal(position)
        writer.write(#","version":"#)
        writer.writeDecimal(version)
        writer.write(#","recordedAt":""#)
        writer.write(fields.recordedAt)
        writer.write(#"","hash":""#)
        writer.writeHex(hash)
        writer.write(#""}"#)
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
                                let fields = LeafLine.Fields(
                                    id: id, stream: stream, type: type, occurredAt: occurredAt,
                                    recordedAt: recordedAt, data: data, meta: meta)
                                LeafLine.render(fields, position: position, version: version, hash: hash, into: &out)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension ScannedEvent {
    /// Appends the event's export line (its leaf line, `LeafLine`), without a line feed: the bytes
    /// ``RecordedEvent/exportLine(into:)`` appends for the same stored event. `stream` and
    /// `type` are the UTF-8 names of its stream and type ids.
    public func exportLine(
        stream: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]
    ) {
        withIDText { id in
            let fields = LeafLine.Fields(
                id: id, stream: stream, type: type, occurredAt: Timestamp(millisecondsSinceEpoch: occurredAt),
                recordedAt: Timestamp(millisecondsSinceEpoch: recordedAt), data: data, meta: meta)
            LeafLine.render(fields, position: position, version: version, hash: hash, into: &out)
        }
    }
}
