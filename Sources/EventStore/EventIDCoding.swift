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
        var id = id
        return id.withUTF8 { text -> (high: UInt64, low: UInt64)? in
            guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
                  text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-") else { return nil }
            return hexValues.withUnsafeBufferPointer { table -> (high: UInt64, low: UInt64)? in
                var high: UInt64 = 0
                var low: UInt64 = 0
                var invalid: UInt8 = 0
                var nibbles = 0
                for index in 0..<36 where index != 8 && index != 13 && index != 18 && index != 23 {
                    let value = table[Int(text[index])]
                    invalid |= value
                    if nibbles < 16 { high = high << 4 | UInt64(value & 0x0F) } else { low = low << 4 | UInt64(value & 0x0F) }
                    nibbles += 1
                }
                return invalid & 0xF0 == 0 ? (high, low) : nil
            }
        }
    }

    /// Each byte's value as a lowercase hexadecimal digit; 0xFF for anything else.
    private static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x30...0x39: return UInt8(byte - 0x30)
        case 0x61...0x66: return UInt8(byte - 0x61 + 10)
        default: return 0xFF
        }
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
