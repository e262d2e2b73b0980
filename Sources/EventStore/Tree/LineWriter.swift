import JournalCore

/// Writes a line into memory its caller sized for the whole line beforehand
/// (`LeafLine.Fields.maximumLineByteCount`): each piece is one copy or store, where appending to an array
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
        Hex.write(bytes, to: start + count)
        count += 2 * bytes.count
    }
}
