import COpenSSL
import JournalCore

// The integrity chain.
//
// Every event stores `hash = SHA-256(link)`, where `link` is the previous event's hash followed by
// a canonical encoding of everything the journal stores for the event. The encoding is defined
// over the *logical* event (the bytes a reader gets back, before compression and interning), so
// anyone can recompute the chain from an export that carries the fields below, with any SHA-256.
//
// Byte layout of `link` for the event at position p (integers big-endian, lengths unsigned):
//
//   offset  size  field
//   0       8     magic "JRNLEV01" (layout version 1)
//   8       32    hash of the event at position p-1; 32 zero bytes when p = 1
//   40      8     position p (Int64)
//   48      8     version in its stream (Int64)
//   56      4+n   stream name: UInt32 byte count, then the UTF-8 bytes
//   ..      4+n   event id as written (UTF-8), same length prefix
//   ..      4+n   type (UTF-8), same length prefix
//   ..      8     occurredAt, milliseconds since 1970-01-01T00:00:00Z (Int64, two's complement)
//   ..      8     recordedAt, same encoding
//   ..      4+n   data bytes, same length prefix
//   ..      1     meta flag: 0 = no meta, 1 = meta present
//   ..      4+n   meta bytes, same length prefix (only when the flag is 1)
//
// Validity rule: position 1 links to 32 zero bytes, positions are 1, 2, 3, … without gaps, each
// stream's versions are 0, 1, 2, … without gaps in position order, every stored hash equals the
// recomputed one, and the journal's recorded head (position, hash) equals the last event's.

/// SHA-256 over the canonical link encoding, and the tree's leaf and node hashes, through the
/// COpenSSL shim (`journal_sha256_parts`: a context on the stack; EVP allocated on every call).
/// Not thread-safe (its scratch buffers): each writer or verifier owns one.
package final class ChainHasher {
    package static let magic: [UInt8] = Array("JRNLEV01".utf8)
    package static let zeroHash = [UInt8](repeating: 0, count: 32)

    private var scratch: [UInt8] = []
    /// A leaf line being rendered (`ChainHasher+Tree.swift`).
    package var lineScratch: [UInt8] = []

    package init() {
        scratch.reserveCapacity(1024)
    }

    /// The hash of one event, given the previous event's hash.
    package func hash(
        previous: [UInt8], position: Int64, version: Int64, stream: String, id: String, type: String,
        occurredAt: Timestamp, recordedAt: Timestamp, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes {
            hash(
                previous: previous, position: position, version: version, stream: stream, id: id, type: type,
                occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta, into: $0)
        }
        return out
    }

    /// True when the link of one event hashes to `expected`: a read's check, which needs no
    /// array for the hash it recomputes.
    package func link(
        previous: [UInt8], position: Int64, version: Int64, stream: String, id: String, type: String,
        occurredAt: Timestamp, recordedAt: Timestamp, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, matches expected: [UInt8]
    ) -> Bool {
        var out: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &out) { out in
            hash(
                previous: previous, position: position, version: version, stream: stream, id: id, type: type,
                occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta, into: out)
            // A stored hash of another length (a damaged row) matches nothing.
            return expected.count == 32
                && expected.withUnsafeBytes { Self.isSameHash($0.baseAddress!, UnsafeRawPointer(out.baseAddress!)) }
        }
    }

    /// Whether the 32 bytes at `first` and at `second` are the same, compared as four words.
    @inline(__always)
    package static func isSameHash(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer) -> Bool {
        var difference: UInt64 = 0
        for offset in stride(from: 0, to: 32, by: 8) {
            difference |=
                first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                ^ second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        return difference == 0
    }

    private func hash(
        previous: [UInt8], position: Int64, version: Int64, stream: String, id: String, type: String,
        occurredAt: Timestamp, recordedAt: Timestamp, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, into out: UnsafeMutableRawBufferPointer
    ) {
        scratch.removeAll(keepingCapacity: true)
        _ = UTF8Bytes.with(id) { id in
            Self.appendBody(
                stream: stream, id: id, type: type, occurredAt: occurredAt, recordedAt: recordedAt,
                data: data, meta: meta, to: &scratch)
        }
        previous.withUnsafeBytes { previous in
            scratch.withUnsafeBytes { body in
                hash(previous: previous, position: position, version: version, body: body, into: out)
            }
        }
    }

    /// The part of an event's link after its version (stream name to meta), which does not
    /// depend on where the event lands: a journal load encodes it off the writer's thread
    /// (`LoadPreparer`). `id` is the id's UTF-8 text. Returns where the data and meta bytes are
    /// in `out`.
    @discardableResult
    package static func appendBody(
        stream: String, id: UnsafeBufferPointer<UInt8>, type: String, occurredAt: Timestamp,
        recordedAt: Timestamp, data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?,
        to out: inout [UInt8]
    ) -> (data: Range<Int>, meta: Range<Int>?) {
        appendString(stream, to: &out)
        appendLengthPrefixed(id, to: &out)
        appendString(type, to: &out)
        append64(occurredAt.millisecondsSinceEpoch, to: &out)
        append64(recordedAt.millisecondsSinceEpoch, to: &out)
        append32(data.count, to: &out)
        let dataStart = out.count
        out.append(contentsOf: data)
        let dataRange = dataStart..<out.count
        guard let meta else {
            out.append(0)
            return (dataRange, nil)
        }
        out.append(1)
        append32(meta.count, to: &out)
        let metaStart = out.count
        out.append(contentsOf: meta)
        return (dataRange, metaStart..<out.count)
    }

    /// The hash of one event from its encoded body (`appendBody`), written into `out` (32 bytes):
    /// the link's first 56 bytes (magic, previous hash, position, version) then the body.
    package func hash(
        previous: UnsafeRawBufferPointer, position: Int64, version: Int64, body: UnsafeRawBufferPointer,
        into out: UnsafeMutableRawBufferPointer
    ) {
        var prefix = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &prefix) { bytes in
            ChainHasher.magic.withUnsafeBytes { bytes.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: 8) }
            (bytes.baseAddress! + 8).copyMemory(from: previous.baseAddress!, byteCount: 32)
            bytes.storeBytes(of: UInt64(bitPattern: position).bigEndian, toByteOffset: 40, as: UInt64.self)
            bytes.storeBytes(of: UInt64(bitPattern: version).bigEndian, toByteOffset: 48, as: UInt64.self)
            // A failure leaves zeros, which never verify.
            if journal_sha256_parts(bytes.baseAddress, 56, body.baseAddress, body.count, nil, 0, out.baseAddress) != 1 {
                out.initializeMemory(as: UInt8.self, repeating: 0)
            }
        }
    }

    /// SHA-256(`prefix` ‖ `first` ‖ `second`) into `out` (32 bytes): the Merkle tree's leaf
    /// (prefix 0) and node (prefix 1) hashes.
    package func hash(
        prefix: UInt8, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?,
        into out: UnsafeMutableRawBufferPointer
    ) {
        var prefix = prefix
        // A failure leaves zeros, which never verify.
        let done = journal_sha256_parts(
            &prefix, 1, first.baseAddress, first.count, second?.baseAddress, second?.count ?? 0, out.baseAddress)
        if done != 1 { out.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// SHA-256(0x01 ‖ left ‖ right).
    package func nodeHash(
        _ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) {
        hash(prefix: 1, left, right, into: out)
    }

    /// SHA-256 of `bytes` (also used for dictionary checksums).
    package func digest(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        // A failure leaves all zeros, which can never verify, so it is loud rather than silent.
        let done = bytes.withUnsafeBytes { bytes in
            out.withUnsafeMutableBytes { journal_sha256(bytes.baseAddress, bytes.count, $0.baseAddress) }
        }
        if done != 1 { out = ChainHasher.zeroHash }
        return out
    }

    // Big-endian integers appended as one block of bytes: a byte at a time was a visible share of
    // every append (BENCHMARKS.md, "Append path").
    private static func append64(_ value: Int64, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(bitPattern: value).bigEndian) { out.append(contentsOf: $0) }
    }

    private static func append32(_ value: Int, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian) { out.append(contentsOf: $0) }
    }

    private static func appendString(_ value: String, to out: inout [UInt8]) {
        UTF8Bytes.with(value) { bytes in appendLengthPrefixed(bytes, to: &out) }
    }

    /// A text field of the link: its byte count (32 bits, big-endian), then its bytes.
    private static func appendLengthPrefixed(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        append32(bytes.count, to: &out)
        out.append(contentsOf: bytes)
    }
}

extension Array where Element == UInt8 {
    /// Lowercase hexadecimal.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
