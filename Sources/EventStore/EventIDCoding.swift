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
        UTF8Bytes.with(id, packedWords)
    }

    private static func packedWords(_ text: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
              text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-") else { return nil }
        // The digits of the high word are at 0..<8, 9..<13, 14..<18; of the low word at
        // 19..<23, 24..<36. An invalid digit sets bits above the nibble in `invalid`.
        var invalid: UInt8 = 0
        func digits(_ range: Range<Int>, into word: inout UInt64) {
            for index in range {
                let value = hexValue(text[index])
                invalid |= value
                word = word << 4 | UInt64(value & 0x0F)
            }
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        digits(0..<8, into: &high)
        digits(9..<13, into: &high)
        digits(14..<18, into: &high)
        digits(19..<23, into: &low)
        digits(24..<36, into: &low)
        return invalid & 0xF0 == 0 ? (high, low) : nil
    }

    /// A byte's value as a lowercase hexadecimal digit; 0xFF for anything else.
    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = byte &- UInt8(ascii: "a")
        if letter < 6 { return letter + 10 }
        return 0xFF
    }

    /// The lowercase canonical text of 16 packed bytes.
    static func text(packed bytes: UnsafeRawBufferPointer) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            digits.withUTF8Buffer { hex in
                var o = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[o] = UInt8(ascii: "-")
                        o += 1
                    }
                    let byte = bytes[i]
                    out[o] = hex[Int(byte >> 4)]
                    out[o + 1] = hex[Int(byte & 0x0F)]
                    o += 2
                }
            }
            return 36
        }
    }
}
