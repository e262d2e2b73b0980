/// Writes ``JSONValue``s as compact JSON text: keys in their stored order, numbers as written,
/// strings escaped minimally (quote, backslash, control characters); other characters as UTF-8.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case let .number(number): out.append(contentsOf: number.text.utf8)
        case let .string(string): writeString(string, into: &out)
        case let .array(array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(object):
            write(object, into: &out)
        }
    }

    /// Appends the compact JSON text of `object` to `out`.
    public static func write(_ object: JSONObject, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, element) in object {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            write(element, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a quoted JSON string.
    public static func writeString(_ string: String, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { writeString($0, into: &out) }
    }

    /// Appends UTF-8 text as a quoted JSON string: the bytes ``writeString(_:into:)`` writes for
    /// the same text (the export line and the tree's leaf line are rendered from either).
    public static func writeString(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        // Most strings (keys, identifiers, codes) need no escaping: copy them in one piece.
        for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return writeEscaped(bytes, into: &out)
        }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "\""))
    }

    /// The slow path of ``writeString(_:into:)``: byte by byte, escaping as needed.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
