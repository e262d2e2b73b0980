/// Checks on UUID text as the contract writes it: 8-4-4-4-12 hexadecimal digits.
public enum UUIDText {
    /// True when `text` is a UUID in either letter case (`0b9e…-…`).
    public static func isUUID<S: StringProtocol>(_ text: S) -> Bool { check(text, lowercaseOnly: false) }

    /// True when `text` is a UUID written in lowercase only, as the 3DS SDK writes sdkTransID.
    public static func isLowercaseUUID<S: StringProtocol>(_ text: S) -> Bool { check(text, lowercaseOnly: true) }

    private static func check<S: StringProtocol>(_ text: S, lowercaseOnly: Bool) -> Bool {
        // One pass over the UTF-8 bytes in place (native strings lend them), no iterator.
        if let checked = text.utf8.withContiguousStorageIfAvailable({ check(bytes: $0, lowercaseOnly: lowercaseOnly) }) {
            return checked
        }
        var copy = String(text)
        return copy.withUTF8 { check(bytes: $0, lowercaseOnly: lowercaseOnly) }
    }

    private static func check(bytes: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) -> Bool {
        guard bytes.count == 36 else { return false }
        for index in 0..<36 {
            let byte = bytes[index]
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: break
                default: return false
                }
            }
        }
        return true
    }
}
