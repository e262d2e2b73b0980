import Evidence
import JournalCore

// The hashes of the journal's Merkle tree (RFC 6962 §2.1): leaf = SHA-256(0x00 ‖ leaf line),
// node = SHA-256(0x01 ‖ left ‖ right). Each writer computes an event's leaf hash right after its
// chain hash, which the leaf line contains.
extension ChainHasher {
    /// The leaf hash of an event given by its fields, into `out` (32 bytes).
    func leafHash(
        id: UnsafeBufferPointer<UInt8>, stream: UnsafeBufferPointer<UInt8>, type: UnsafeBufferPointer<UInt8>,
        occurredAt: Timestamp, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?, position: Int64,
        version: Int64, recordedAt: Timestamp, hash: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) {
        let fields = LeafLine.Fields(
            id: id, stream: stream, type: type, occurredAt: occurredAt, recordedAt: recordedAt, data: data,
            meta: meta)
        leafHash(fields, position: position, version: version, hash: hash, into: out)
    }

    /// The leaf hash of an event given by its chain link body (a journal load's), into `out`.
    func leafHash(
        body: UnsafeRawBufferPointer, position: Int64, version: Int64, hash: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) {
        leafHash(LeafLine.Fields(body: body), position: position, version: version, hash: hash, into: out)
    }

    /// The leaf line rendered into `lineScratch`, grown to the line's largest possible size
    /// first, then hashed.
    private func leafHash(
        _ fields: LeafLine.Fields, position: Int64, version: Int64, hash: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) {
        let capacity = fields.maximumLineByteCount(hashCount: hash.count)
        if lineScratch.count < capacity {
            lineScratch = [UInt8](repeating: 0, count: max(capacity, 2 * lineScratch.count, 1024))
        }
        lineScratch.withUnsafeMutableBytes { line in
            var writer = LineWriter(start: line.baseAddress!)
            LeafLine.write(fields, position: position, version: version, hash: hash, to: &writer)
            self.hash(prefix: 0, UnsafeRawBufferPointer(rebasing: line[..<writer.count]), nil, into: out)
        }
    }

    /// The leaf hash of a proposed event about to be written with these numbers (the usual write
    /// paths of both backends), appended to `out`.
    func appendLeafHash(
        of event: ProposedEvent, stream: StreamName, position: Int64, version: Int64,
        recordedAt: Timestamp, hash: [UInt8], to out: inout [UInt8]
    ) {
        let start = out.count
        out.append(contentsOf: Self.zeroHash)
        UTF8Bytes.with(event.id) { id in
            UTF8Bytes.with(stream.rawValue) { streamText in
                UTF8Bytes.with(event.type) { type in
                    event.data.withUnsafeBytes { data in
                        OptionalBytes.with(event.meta) { meta in
                            hash.withUnsafeBytes { hash in
                                out.withUnsafeMutableBytes { all in
                                    leafHash(
                                        id: id, stream: streamText, type: type, occurredAt: event.occurredAt,
                                        data: data, meta: meta, position: position, version: version,
                                        recordedAt: recordedAt, hash: hash,
                                        into: UnsafeMutableRawBufferPointer(rebasing: all[start..<(start + 32)]))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The leaf hash of a stored event.
    func leafHash(of event: RecordedEvent) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(512 + event.data.count + (event.meta?.count ?? 0))
        event.exportLine(into: &line)
        var out = Self.zeroHash
        line.withUnsafeBytes { line in out.withUnsafeMutableBytes { hash(prefix: 0, line, nil, into: $0) } }
        return out
    }
}
