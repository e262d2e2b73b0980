import JournalCore

/// A state summary field by field: each top-level value as compact JSON, in the order of the
/// category's keys (the keys of its initial state), in one byte array. Equal bytes, equal value:
/// the summaries are written by one writer, keys in a fixed order.
struct StateFields: Equatable {
    private(set) var bytes: [UInt8] = []
    /// Where each field's value ends in `bytes`; it begins where the previous one ends.
    private(set) var ends: [Int] = []

    var count: Int { ends.count }

    init() {}

    /// Values already laid out: `ends[i]` where value `i` ends in `bytes`.
    init(bytes: [UInt8], ends: [Int]) {
        self.bytes = bytes
        self.ends = ends
    }

    /// The fields of `summary` in the order of `keys`: when the summary has those keys in that
    /// order (always, for the domain's states), without a look-up; otherwise each key is looked
    /// up, `null` when absent, and keys outside `keys` are left out.
    init(_ summary: JSONObject, keys: [String]) {
        bytes.reserveCapacity(512)
        ends.reserveCapacity(keys.count)
        let entries = summary.entries
        var inOrder = entries.count == keys.count
        if inOrder {
            for (index, entry) in entries.enumerated() where entry.key != keys[index] {
                inOrder = false
                break
            }
        }
        if inOrder {
            for entry in entries {
                JSONWriter.write(entry.value, into: &bytes)
                ends.append(bytes.count)
            }
        } else {
            for key in keys {
                JSONWriter.write(summary[key] ?? .null, into: &bytes)
                ends.append(bytes.count)
            }
        }
    }

    /// The value of field `index`.
    subscript(index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// True when field `index` has the same bytes here as field `otherIndex` (by default the
    /// same) in `other`.
    func sameField(_ index: Int, as other: StateFields, at otherIndex: Int? = nil) -> Bool {
        let otherIndex = otherIndex ?? index
        let start = index == 0 ? 0 : ends[index - 1]
        let otherStart = otherIndex == 0 ? 0 : other.ends[otherIndex - 1]
        let count = ends[index] - start
        guard count == other.ends[otherIndex] - otherStart else { return false }
        guard count > 0 else { return true }
        return bytes.withUnsafeBytes { mine in
            other.bytes.withUnsafeBytes { theirs in
                Memory.equal(mine.baseAddress! + start, theirs.baseAddress! + otherStart, count: count)
            }
        }
    }

    /// True when field `index` has the bytes `value`.
    func sameField(_ index: Int, asBytes value: ArraySlice<UInt8>) -> Bool {
        let start = index == 0 ? 0 : ends[index - 1]
        let count = ends[index] - start
        guard count == value.count else { return false }
        guard count > 0 else { return true }
        return bytes.withUnsafeBytes { mine in
            value.withUnsafeBytes { theirs in Memory.equal(mine.baseAddress! + start, theirs.baseAddress!, count: count)
            }
        }
    }

    mutating func append<C: Collection<UInt8>>(_ value: C) {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
    }

    /// A category's keys as an object of its fields writes each before its value: `"key":`,
    /// after a comma but for the first.
    struct ObjectKeys {
        private(set) var heads: [[UInt8]] = []

        init(_ keys: [String]) {
            for (index, key) in keys.enumerated() {
                var head: [UInt8] = index > 0 ? [UInt8(ascii: ",")] : []
                JSONWriter.writeString(key, into: &head)
                head.append(UInt8(ascii: ":"))
                heads.append(head)
            }
        }

        /// Appends the object of `count` values (at most one a key), each written by `value`.
        func writeObject(count: Int, into out: inout [UInt8], value: (Int, inout [UInt8]) -> Void) {
            out.append(UInt8(ascii: "{"))
            for index in 0..<min(count, heads.count) {
                out.append(contentsOf: heads[index])
                value(index, &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the object these fields are the values of, with `keys`, as compact JSON (what
    /// ``writeObject(keys:into:)`` writes).
    func writeObject(_ keys: ObjectKeys, into out: inout [UInt8]) {
        keys.writeObject(count: count, into: &out) { index, out in out.append(contentsOf: self[index]) }
    }

    /// Appends the object these fields are the values of, `keys` their keys, as compact JSON
    /// (what `JSONWriter` writes for the summary they were taken from).
    func writeObject(keys: [String], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() where index < count {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: self[index])
        }
        out.append(UInt8(ascii: "}"))
    }

    /// These fields with the values of `changes` (field index, value) in place of theirs.
    func replacing(_ changes: [(index: Int, value: [UInt8])]) -> StateFields {
        var out = StateFields()
        out.bytes.reserveCapacity(bytes.count + 64)
        var next = 0
        for index in 0..<count {
            if next < changes.count, changes[next].index == index {
                out.append(changes[next].value)
                next += 1
            } else {
                out.append(self[index])
            }
        }
        return out
    }
}
