/// Checks on UUID text as the contract writes it: 8-4-4-4-12 hexadecimal digits.
public enum UUIDText {
    /// True when `text` is a UUID in either letter case (`0b9e…-…`).
    public static func isUUID<S: StringProtocol>(_ text: S) -> Bool {
        UTF8Bytes.with(text) { isUUID($0, from: 0, lowercaseOnly: false) }
    }

    /// True when `text` is a UUID written in lowercase only, as the 3DS SDK writes sdkTransID.
    public static func isLowercaseUUID<S: StringProtocol>(_ text: S) -> Bool {
        UTF8Bytes.with(text) { isUUID($0, from: 0, lowercaseOnly: true) }
    }

    /// True when `bytes[start...]` is exactly a UUID (8-4-4-4-12 hexadecimal digits), in
    /// lowercase only when `lowercaseOnly`.
    public static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, lowercaseOnly: Bool) -> Bool {
        guard bytes.count == start + 36 else { return false }
        for offset in 0..<36 {
            let byte = bytes[start + offset]
            switch offset {
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
