/// A UUID's text and its two 64-bit words (the 16 bytes it names, big-endian), both ways.
extension UUIDText {
    /// The two words of `text` when it is a UUID in lowercase (8-4-4-4-12 digits): the text
    /// `lowercaseText(high:low:)` gives back exactly. Nil otherwise (capitals included).
    public static func words<S: StringProtocol>(_ text: S) -> (high: UInt64, low: UInt64)? {
        UTF8Bytes.with(text, words)
    }

    /// `words(_:)` of UTF-8 bytes.
    public static func words(_ text: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
            text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
        else { return nil }
        // The digits of the high word are at 0..<8, 9..<13, 14..<18; of the low word at
        // 19..<23, 24..<36. Each byte's value comes from a table, without a branch (random hex
        // digits made a digit-or-letter branch miss half the time); an invalid byte's 0xFF sets
        // bits above the nibble in `invalid`.
        return lowercaseHexValues.withUnsafeBufferPointer { values in
            var invalid: UInt8 = 0
            var high: UInt64 = 0
            var low: UInt64 = 0
            for index in 0..<18 where index != 8 && index != 13 {
                let value = values[Int(text[index])]
                invalid |= value
                high = high << 4 | UInt64(value & 0x0F)
            }
            for index in 19..<36 where index != 23 {
                let value = values[Int(text[index])]
                invalid |= value
                low = low << 4 | UInt64(value & 0x0F)
            }
            return invalid & 0xF0 == 0 ? (high, low) : nil
        }
    }

    /// For each byte value: its value as a lowercase hex digit, 0xFF for any other byte.
    private static let lowercaseHexValues: [UInt8] = (0...255).map { value in
        switch UInt8(value) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt8(value) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt8(value) - UInt8(ascii: "a") + 10
        default: return 0xFF
        }
    }

    /// The UUID of the two words as text, in lowercase.
    public static func lowercaseText(high: UInt64, low: UInt64) -> String {
        withText(high: high, low: low) { String(decoding: $0, as: UTF8.self) }
    }

    /// The 36 bytes of the UUID's text, in lowercase, lent to `body` from the stack.
    public static func withText<R>(high: UInt64, low: UInt64, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { buffer in
            write(high: high, low: low, uppercase: false, to: buffer.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[..<36]))
        }
    }

    #if !_endian(little)
        #error("UUIDText.write stores digit words in little-endian order")
    #endif

    /// Writes the UUID's 36 bytes of text at `text`.
    @inline(__always)
    public static func write(high: UInt64, low: UInt64, uppercase: Bool, to text: UnsafeMutableRawPointer) {
        // 8-4-4-4-12 hex digits: eight digits per 32 bits, stored as they read.
        let a = hexDigits(UInt32(truncatingIfNeeded: high >> 32), uppercase: uppercase)
        let b = hexDigits(UInt32(truncatingIfNeeded: high), uppercase: uppercase)
        let c = hexDigits(UInt32(truncatingIfNeeded: low >> 32), uppercase: uppercase)
        let d = hexDigits(UInt32(truncatingIfNeeded: low), uppercase: uppercase)
        let dash = UInt8(ascii: "-")
        text.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
        text.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: b), toByteOffset: 9, as: UInt32.self)
        text.storeBytes(of: dash, toByteOffset: 13, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: b >> 32), toByteOffset: 14, as: UInt32.self)
        text.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: c), toByteOffset: 19, as: UInt32.self)
        text.storeBytes(of: dash, toByteOffset: 23, as: UInt8.self)
        text.storeBytes(of: UInt32(truncatingIfNeeded: c >> 32), toByteOffset: 24, as: UInt32.self)
        text.storeBytes(of: d, toByteOffset: 28, as: UInt64.self)
    }

    /// The eight hex digits of `value` as ASCII, first digit in the lowest byte (so that storing
    /// the word on this little-endian machine writes them in reading order): each nibble spread
    /// into a byte, then '0' added, and the distance to 'a' (or 'A') where the nibble is 10 or more.
    @inline(__always)
    static func hexDigits(_ value: UInt32, uppercase: Bool) -> UInt64 {
        var spread = UInt64(value)
        spread = ((spread & 0xFFFF_0000) << 16) | (spread & 0x0000_FFFF)
        spread = ((spread & 0x0000_FF00_0000_FF00) << 8) | (spread & 0x0000_00FF_0000_00FF)
        spread = ((spread & 0x00F0_00F0_00F0_00F0) << 4) | (spread & 0x000F_000F_000F_000F)
        // Most significant nibble in the most significant byte; 1 in each byte whose nibble is >= 10.
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = spread &+ 0x3030_3030_3030_3030 &+ letters &* (uppercase ? 7 : 39)
        return ascii.byteSwapped
    }
}
