/// Writes ``JSONValue``s as compact JSON text: keys in their stored order, numbers as written,
/// strings escaped minimally (quote, backslash, control characters); other characters as UTF-8.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The compact JSON text of `value`, in memory sized for it beforehand (one allocation where
    /// growing from empty took one per doubling: five for an event's `data`).
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(estimatedCount(value))
        write(value, into: &out)
        return out
    }

    /// The length of the compact text of `value` when no string needs escaping (the common
    /// case); an escaped string makes the text longer.
    static func estimatedCount(_ value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case let .bool(bool): return bool ? 4 : 5
        case let .number(number): return number.text.utf8.count
        case let .string(string): return string.utf8.count + 2
        case let .array(array):
            return array.reduce(1 + max(array.count, 1)) { $0 + estimatedCount($1) }
        case let .object(object):
            return object.entries.reduce(1 + max(object.count, 1)) {
                $0 + $1.key.utf8.count + 3 + estimatedCount($1.value)
            }
        }
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
        guard needsEscaping(bytes) else {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        withUnsafeTemporaryAllocation(byteCount: maximumStringByteCount(bytes.count), alignment: 1) { buffer in
            let count = writeString(bytes, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The most bytes ``writeString(_:to:)`` writes for `count` bytes of text: quotes, and six
    /// bytes (`\u00XX`) for each control character.
    package static func maximumStringByteCount(_ count: Int) -> Int { 6 * count + 2 }

    /// Writes UTF-8 text as a quoted JSON string at `start`, which has room for
    /// ``maximumStringByteCount(_:)`` bytes, and returns how many it wrote: the bytes
    /// ``writeString(_:into:)`` appends, for writers that size their memory beforehand.
    package static func writeString(_ bytes: UnsafeBufferPointer<UInt8>, to start: UnsafeMutableRawPointer) -> Int {
        let out = start.assumingMemoryBound(to: UInt8.self)
        out[0] = UInt8(ascii: "\"")
        var count = 1
        if !needsEscaping(bytes) {
            if let base = bytes.baseAddress { (out + 1).update(from: base, count: bytes.count) }
            count += bytes.count
        } else {
            func put(_ escape: UInt8) {
                out[count] = 0x5C
                out[count + 1] = escape
                count += 2
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
                case 0x0A: put(UInt8(ascii: "n"))
                case 0x0D: put(UInt8(ascii: "r"))
                case 0x09: put(UInt8(ascii: "t"))
                case 0x00..<0x20:
                    put(UInt8(ascii: "u"))
                    out[count] = UInt8(ascii: "0")
                    out[count + 1] = UInt8(ascii: "0")
                    out[count + 2] = hexDigits[Int(byte >> 4)]
                    out[count + 3] = hexDigits[Int(byte & 0x0F)]
                    count += 4
                default:
                    out[count] = byte
                    count += 1
                }
            }
        }
        out[count] = UInt8(ascii: "\"")
        return count + 1
    }

    /// Whether `bytes` hold a quote, a backslash or a control character. Eight bytes at a time:
    /// every writer renders each event's identifiers through here (the leaf line), and few need
    /// escaping.
    private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Nonzero when some byte of `word` is zero (exact as a yes/no: a borrow only spreads
        // past a byte that was zero).
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 borrows in `word - 0x20…` and had its high bit clear.
            if (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
                || hasZeroByte(word ^ 0x2222_2222_2222_2222) || hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
            {
                return true
            }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }
}
