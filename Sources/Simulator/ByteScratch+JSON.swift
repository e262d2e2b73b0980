import JournalCore

extension ByteScratch {
    /// Appends the compact JSON text of `object`: the same bytes as `JSONWriter.write` (keys in
    /// their stored order, numbers as written, strings escaped minimally), checked against it by
    /// the tests.
    func appendJSON(_ object: JSONObject) {
        append(UInt8(ascii: "{"))
        // Read in place: no copy (and no reference counting) of each key and value.
        object.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendJSONString(entries[index].key)
                append(UInt8(ascii: ":"))
                appendJSON(entries[index].value)
            }
        }
        append(UInt8(ascii: "}"))
    }

    /// Appends the compact JSON text of `value` (see ``appendJSON(_:)-(JSONObject)``).
    func appendJSON(_ value: JSONValue) {
        switch value {
        case .null: append("null" as StaticString)
        case let .bool(bool): append(bool ? "true" as StaticString : "false" as StaticString)
        case let .number(number): append(number.text)
        case let .string(string): appendJSONString(string)
        case let .array(array):
            append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendJSON(element)
            }
            append(UInt8(ascii: "]"))
        case let .object(object):
            appendJSON(object)
        }
    }

    /// Appends `string` as a quoted JSON string, escaped as `JSONWriter.writeString` does.
    func appendJSONString(_ string: String) {
        let copied: Bool? = string.utf8.withContiguousStorageIfAvailable { bytes in
            if Self.needsEscaping(bytes) { return false }
            reserve(bytes.count + 2)
            append(UInt8(ascii: "\""))
            append(bytes)
            append(UInt8(ascii: "\""))
            return true
        }
        if copied == true { return }
        // Something to escape (or a string without contiguous UTF-8): the writer's own slow path.
        var escaped: [UInt8] = []
        JSONWriter.writeString(string, into: &escaped)
        escaped.withUnsafeBufferPointer { append($0) }
    }

    /// True when `bytes` hold a quote, a backslash or a control character (eight bytes at a time;
    /// a false alarm would only send the string to the byte-by-byte path, which gives the same
    /// text).
    @inline(__always)
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always)
        func found(_ word: UInt64) -> Bool {
            let control = (word &- ones &* 0x20) & ~word & highs
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let quoteFound = (quote &- ones) & ~quote & highs
            let backslashFound = (backslash &- ones) & ~backslash & highs
            return control | quoteFound | backslashFound != 0
        }
        let count = bytes.count
        if count < 8 {
            // The bytes in a word of spaces (nothing to escape).
            var word: UInt64 = ones &* 0x20
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: base, byteCount: count) }
            return found(word)
        }
        var index = 0
        while index + 8 <= count {
            if found(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { return true }
            index += 8
        }
        // The last eight bytes (overlapping those already seen).
        return index < count && found(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self))
    }
}
