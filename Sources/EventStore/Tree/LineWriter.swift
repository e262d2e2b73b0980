import JournalCore

/// Writes a line into memory its caller sized for the whole line beforehand
/// (`LeafLine.maximumByteCount`): each piece is one copy or store, where appending to an array
/// checks its capacity and uniqueness for every piece and every digit. Every writer renders a
/// leaf line per event, on the thread that sets its pace.
struct LineWriter {
    private let start: UnsafeMutableRawPointer
    private(set) var count = 0

    /// A writer at `start`; the caller guarantees room for everything it will write.
    init(start: UnsafeMutableRawPointer) { self.start = start }

    mutating func write(_ literal: StaticString) {
        (start + count).copyMemory(from: literal.utf8Start, byteCount: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        (start + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// `text` as a quoted JSON string (`JSONWriter.writeString`'s bytes).
    mutating func writeJSONString(_ text: UnsafeBufferPointer<UInt8>) {
        count += JSONWriter.writeString(text, to: start + count)
    }

    /// The envelope format of `timestamp` (`Timestamp.write(into:)`'s bytes).
    mutating func write(_ timestamp: Timestamp) {
        timestamp.write(to: start + count)
        count += Timestamp.textByteCount
    }

    /// A decimal integer, as `String(value)` writes it.
    mutating func writeDecimal(_ value: Int64) {
        let out = start.assumingMemoryBound(to: UInt8.self)
        if value < 0 {
            out[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && magnitude >= scale {
            digits += 1
            scale &*= 10
        }
        for index in stride(from: count + digits - 1, through: count, by: -1) {
            out[index] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
            magnitude /= 10
        }
        count += digits
    }

    /// Two lowercase hex digits per byte (`Hex.append`'s bytes).
    mutating func writeHex(_ bytes: UnsafeRawBufferPointer) {
        let out = start + count
        let pairs = UnsafeRawPointer(Self.hexPairs.utf8Start)
        for (index, byte) in bytes.enumerated() {
            out.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 * Int(byte), as: UInt16.self),
                toByteOffset: 2 * index, as: UInt16.self)
        }
        count += 2 * bytes.count
    }

    /// "00" to "ff": the two digits of each byte value, in order.
    private static let hexPairs: StaticString = """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\
        202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
        404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
        606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
        808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f\
        a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\
        e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """
}
