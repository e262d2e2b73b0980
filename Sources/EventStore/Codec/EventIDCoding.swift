import JournalCore

/// How an event id is stored: a lowercase canonical UUID as 16 bytes, anything else (an upper-case
/// spelling) as its exact text. Ids compare exactly as written, so `ABC…` and `abc…` differ.
enum EventIDCoding {
    /// The 16 bytes of a lowercase canonical UUID, or nil for any other spelling.
    static func packed(_ id: String) -> [UInt8]? {
        guard let words = packedWords(id) else { return nil }
        var out = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            out[index] = UInt8(truncatingIfNeeded: words.high >> (56 - 8 * index))
            out[8 + index] = UInt8(truncatingIfNeeded: words.low >> (56 - 8 * index))
        }
        return out
    }

    /// The 16 bytes of a lowercase canonical UUID as two big-endian words, or nil for any other
    /// spelling. The same bytes as `packed`, without an allocation.
    static func packedWords(_ id: String) -> (high: UInt64, low: UInt64)? {
        UUIDText.words(id)
    }

    /// The lowercase text of a UUID stored as 16 bytes.
    static func text(packed bytes: UnsafeRawBufferPointer) -> String {
        let (high, low) = words(packed: bytes)
        return UUIDText.lowercaseText(high: high, low: low)
    }

    /// Writes the lowercase text (36 bytes) of a UUID stored as 16 bytes at `start`.
    static func writeText(packed bytes: UnsafeRawBufferPointer, to start: UnsafeMutableRawPointer) {
        let (high, low) = words(packed: bytes)
        UUIDText.write(high: high, low: low, uppercase: false, to: start)
    }

    /// The two big-endian words of a UUID stored as 16 bytes.
    private static func words(packed bytes: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64) {
        (
            UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
    }
}
