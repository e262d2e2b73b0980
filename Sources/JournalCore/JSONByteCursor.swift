/// A cursor over the bytes of one JSON text, for the readers that judge the common, simple
/// shapes in place and leave everything else to `JSONParser`: every read stops at the end.
package struct JSONByteCursor {
    package let bytes: UnsafeRawBufferPointer
    package var index = 0

    package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    package mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// The contents of a string of printable ASCII without escapes, after its quotes; nil for
    /// anything else.
    package mutating func plainString() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            // Escapes, control characters and non-ASCII bytes are the parser's to judge.
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }
}
