import JournalCore

/// How an event id is stored: a lowercase canonical UUID as 16 bytes, anything else (an upper-case
/// spelling) as its exact text. Ids compare exactly as written, so `ABC…` and `abc…` differ.
enum EventIDCoding {
    /// The 16 bytes of a lowercase canonical UUID, or nil for any other spelling.
    static func packed(_ id: String) -> [UInt8]? {
        var id = id
        return id.withUTF8 { text -> [UInt8]? in
            guard text.count == 36 else { return nil }
            var out = [UInt8](repeating: 0, count: 16)
            var nibble = 0
            for (index, byte) in text.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                out[nibble / 2] |= nibble % 2 == 0 ? value << 4 : value
                nibble += 1
            }
            return out
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
