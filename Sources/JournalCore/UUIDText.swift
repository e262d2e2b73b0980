/// Checks on UUID text as spec §1 writes it: 8-4-4-4-12 hexadecimal digits.
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
    ///
    /// The digits are classified through a table and the results combined without a branch per
    /// byte (random hex digits made the digit-or-letter branch miss half the time).
    public static func isUUID(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, lowercaseOnly: Bool) -> Bool {
        guard start >= 0, bytes.count == start + 36, let base = bytes.baseAddress else { return false }
        let text = base + start
        let dash = UInt8(ascii: "-")
        guard text[8] == dash, text[13] == dash, text[18] == dash, text[23] == dash else { return false }
        let wanted: UInt8 = lowercaseOnly ? lowercaseHex : anyCaseHex
        return hexClasses.withUnsafeBufferPointer { classes in
            var all = wanted
            for offset in 0..<8 { all &= classes[Int(text[offset])] }
            for offset in 9..<13 { all &= classes[Int(text[offset])] }
            for offset in 14..<18 { all &= classes[Int(text[offset])] }
            for offset in 19..<23 { all &= classes[Int(text[offset])] }
            for offset in 24..<36 { all &= classes[Int(text[offset])] }
            return all != 0
        }
    }

    private static let lowercaseHex: UInt8 = 1
    private static let anyCaseHex: UInt8 = 2

    /// For each byte value: ``lowercaseHex`` and ``anyCaseHex`` for `0-9` and `a-f`,
    /// ``anyCaseHex`` for `A-F`, nothing for the others.
    private static let hexClasses: [UInt8] = (0...255).map { value in
        switch UInt8(value) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
            return lowercaseHex | anyCaseHex
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return anyCaseHex
        default: return 0
        }
    }
}
