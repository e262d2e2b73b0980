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
            guard text.count == 36 else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            var nibbles = 0
            for index in 0..<36 {
                let byte = text[index]
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt64
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
                default: return nil
                }
                if nibbles < 16 { high = high << 4 | value } else { low = low << 4 | value }
                nibbles += 1
            }
            return (high, low)
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
