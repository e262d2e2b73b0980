import JournalCore

/// What a state's summary is made of, key by key in summary order (``JourneyState/summary()``):
/// one description of the keys, built either as a ``JSONObject`` or straight into compact JSON
/// bytes (``JourneyState/writeSummary(into:)``), so both spell the same text.
package protocol SummaryBuilder {
    /// A string, `null` when nil.
    mutating func string(_ key: StaticString, _ value: String?)
    /// A whole number, `null` when nil.
    mutating func integer(_ key: StaticString, _ value: Int64?)
    /// `true` or `false`, `null` when nil.
    mutating func bool(_ key: StaticString, _ value: Bool?)
    /// An array of strings (possibly empty).
    mutating func strings<Values: Sequence<String>>(_ key: StaticString, _ values: Values)
    /// A nested object whose keys `body` adds, or `null` when `present` is false.
    mutating func object(_ key: StaticString, present: Bool, _ body: (inout Self) -> Void)
}

/// Builds the summary as a ``JSONObject`` (for `journal state` and `replay STREAM`).
package struct SummaryObjectBuilder: SummaryBuilder {
    package private(set) var object = JSONObject()

    package init() {}

    private mutating func add(_ key: StaticString, _ value: JSONValue) {
        object.appendUnchecked(key: key.description, value: value)
    }

    package mutating func string(_ key: StaticString, _ value: String?) { add(key, value.map { .string($0) } ?? .null) }

    package mutating func integer(_ key: StaticString, _ value: Int64?) {
        add(key, value.map { .number(JSONNumber($0)) } ?? .null)
    }

    package mutating func bool(_ key: StaticString, _ value: Bool?) { add(key, value.map { .bool($0) } ?? .null) }

    package mutating func strings<Values: Sequence<String>>(_ key: StaticString, _ values: Values) {
        add(key, .array(values.map { .string($0) }))
    }

    package mutating func object(_ key: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        guard present else { return add(key, .null) }
        var nested = SummaryObjectBuilder()
        body(&nested)
        add(key, .object(nested.object))
    }
}

/// Writes the summary as compact JSON text straight into bytes: the text ``JSONWriter`` writes
/// for the ``JSONObject`` that ``SummaryObjectBuilder`` builds, without the object (`replay
/// --all` renders one summary per stream: millions in a large log).
package struct SummaryBytesBuilder: SummaryBuilder {
    private var bytes: [UInt8]
    private var first = true

    /// Opens an object (`{`) at the end of `bytes`, which the builder takes over until
    /// ``close(into:)`` ends the object and hands them back.
    package init(appendingTo bytes: inout [UInt8]) {
        self.bytes = []
        swap(&self.bytes, &bytes)
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// Ends the object (`}`) and hands the bytes back to `bytes`.
    package mutating func close(into bytes: inout [UInt8]) {
        self.bytes.append(UInt8(ascii: "}"))
        swap(&self.bytes, &bytes)
    }

    /// `,"key":` (no comma before the first key). Keys are identifiers: nothing to escape.
    private mutating func key(_ key: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        // Byte by byte: an array literal here would be an allocation per key.
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func null() { bytes.append(contentsOf: "null".utf8) }

    package mutating func string(_ key: StaticString, _ value: String?) {
        self.key(key)
        guard let value else { return null() }
        JSONWriter.writeString(value, into: &bytes)
    }

    package mutating func integer(_ key: StaticString, _ value: Int64?) {
        self.key(key)
        guard let value else { return null() }
        // The text of `JSONNumber(value)`: a small string, no allocation.
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ key: StaticString, _ value: Bool?) {
        self.key(key)
        guard let value else { return null() }
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) // true
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) // false
        }
    }

    package mutating func strings<Values: Sequence<String>>(_ key: StaticString, _ values: Values) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        var firstValue = true
        for value in values {
            if !firstValue { bytes.append(UInt8(ascii: ",")) }
            firstValue = false
            JSONWriter.writeString(value, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    package mutating func object(_ key: StaticString, present: Bool, _ body: (inout Self) -> Void) {
        self.key(key)
        guard present else { return null() }
        var nested = SummaryBytesBuilder(appendingTo: &bytes)
        body(&nested)
        nested.close(into: &bytes)
    }
}
