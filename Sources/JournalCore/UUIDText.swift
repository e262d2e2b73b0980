/// Checks on UUID text as the contract writes it: 8-4-4-4-12 hexadecimal digits.
public enum UUIDText {
    /// True when `text` is a UUID in either letter case (`0b9e…-…`).
    public static func isUUID<S: StringProtocol>(_ text: S) -> Bool { check(text, lowercaseOnly: false) }

    /// True when `text` is a UUID written in lowercase only, as the 3DS SDK writes sdkTransID.
    public static func isLowercaseUUID<S: StringProtocol>(_ text: S) -> Bool { check(text, lowercaseOnly: true) }

    private static func check<S: StringProtocol>(_ text: S, lowercaseOnly: Bool) -> Bool {
        var count = 0
        for byte in text.utf8 {
            switch count {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: break
                default: return false
                }
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }
}
