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
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[8 + index])
        }
        return UUIDText.lowercaseText(high: high, low: low)
    }
}
