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
        lineScratch.removeAll(keepingCapacity: true)
        LeafLine.render(
            id: id, stream: stream, type: type, occurredAt: occurredAt, data: data, meta: meta,
            position: position, version: version, recordedAt: recordedAt, hash: hash, into: &lineScratch)
        lineScratch.withUnsafeBytes { self.hash(prefix: 0, $0, nil, into: out) }
    }

    /// The leaf hash of an event given by its chain link body (a journal load's), into `out`.
    func leafHash(
        body: UnsafeRawBufferPointer, position: Int64, version: Int64, hash: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) {
        lineScratch.removeAll(keepingCapacity: true)
        LeafLine.render(body: body, position: position, version: version, hash: hash, into: &lineScratch)
        lineScratch.withUnsafeBytes { self.hash(prefix: 0, $0, nil, into: out) }
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
        lineScratch.removeAll(keepingCapacity: true)
        event.exportLine(into: &lineScratch)
        var out = Self.zeroHash
        lineScratch.withUnsafeBytes { line in out.withUnsafeMutableBytes { hash(prefix: 0, line, nil, into: $0) } }
        return out
    }

    /// SHA-256(0x01 ‖ left ‖ right).
    func nodeHash(
        _ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) {
        hash(prefix: 1, left, right, into: out)
    }
}
