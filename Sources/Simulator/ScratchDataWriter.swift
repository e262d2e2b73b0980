import Domain
import JournalCore

/// Writes an event's `data` as compact JSON straight from the payload's fields
/// (``ThreeDSEvent/writeData(to:)``) into the journey's scratch buffer: the same bytes as
/// `JSONWriter` gives for the `data` object, without building the object (checked by the tests).
struct ScratchDataWriter: EventDataWriter {
    let bytes: ByteScratch
    /// `{` before the first field, `,` before the others.
    private var separator = UInt8(ascii: "{")

    init(into bytes: ByteScratch) {
        self.bytes = bytes
    }

    /// Closes the object (`{}` when it has no field).
    func finish() {
        if separator == UInt8(ascii: "{") { bytes.append(separator) }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"key":` (or `{"key":`): a catalog field name, nothing to escape.
    @inline(__always)
    private mutating func key(_ key: String) {
        let separator = self.separator
        self.separator = UInt8(ascii: ",")
        let written: Bool? = key.utf8.withContiguousStorageIfAvailable { name in
            bytes.appendKey(name, after: separator)
            return true
        }
        if written == nil {
            bytes.append(separator)
            bytes.appendJSONString(key)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    mutating func set(_ key: String, string value: String) {
        self.key(key)
        bytes.appendJSONString(value)
    }

    mutating func set(_ key: String, int value: Int64) {
        self.key(key)
        bytes.appendDecimal(value)
    }

    mutating func set(_ key: String, bool value: Bool) {
        self.key(key)
        bytes.append(value ? "true" as StaticString : "false" as StaticString)
    }

    mutating func set(_ key: String, strings value: [String]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for index in value.indices {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.appendJSONString(value[index])
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func set(_ key: String, value: JSONValue) {
        // Any key here (a received NoFields' field): escaped.
        bytes.append(separator)
        separator = UInt8(ascii: ",")
        bytes.appendJSONString(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendJSON(value)
    }
}

extension ByteScratch {
    /// Appends `value` in decimal, as `String(value)` writes it.
    func appendDecimal(_ value: Int64) {
        // Digits from the end of a 20-byte buffer (Int64.min has 19 digits and a sign).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            append(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[index...]))
        }
    }
}

/// An event of either category, as the generator packs it.
protocol PackableEvent: Sendable, Equatable {
    var typeName: String { get }
    var type: EventType { get }
    var data: JSONObject { get }
    func writeData<W: EventDataWriter>(to writer: inout W)
}

extension ThreeDSEvent: PackableEvent {}
extension CardEvent: PackableEvent {}
