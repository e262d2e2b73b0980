/// Standard base64 (RFC 4648 §4, with `=` padding), the encoding of every hash, key and
/// signature in the evidence formats.
///
/// Decoding is strict: no whitespace, padding required, and the unused bits of the last
/// character must be zero, so that each byte string has exactly one text.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(alphabet[Int(group >> 6 & 63)])
            out.append(alphabet[Int(group & 63)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(contentsOf: "==".utf8)
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(alphabet[Int(group >> 6 & 63)])
            out.append(UInt8(ascii: "="))
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it is not canonical standard base64.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            let isLast = index + 4 == chars.count
            let padding =
                isLast
                ? (chars[index + 3] == UInt8(ascii: "=") ? (chars[index + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var group: UInt32 = 0
            for offset in 0..<(4 - padding) {
                let value = values[Int(chars[index + offset])]
                guard value != 0xFF else { return nil }
                group |= UInt32(value) << (18 - 6 * UInt32(offset))
            }
            switch padding {
            case 0:
                out.append(UInt8(group >> 16 & 0xFF))
                out.append(UInt8(group >> 8 & 0xFF))
                out.append(UInt8(group & 0xFF))
            case 1:
                guard group & 0xFF == 0 else { return nil }
                out.append(UInt8(group >> 16 & 0xFF))
                out.append(UInt8(group >> 8 & 0xFF))
            default:
                guard group & 0xFFFF == 0 else { return nil }
                out.append(UInt8(group >> 16 & 0xFF))
            }
            index += 4
        }
        return out
    }
}
