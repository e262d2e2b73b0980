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
        return bytes.withUnsafeBufferPointer { mine in
            other.bytes.withUnsafeBufferPointer { theirs in
                for offset in 0..<count where mine[start + offset] != theirs[otherStart + offset] { return false }
                return true
            }
        }
    }

    mutating func append<C: Collection<UInt8>>(_ value: C) {
        bytes.append(contentsOf: value)
        ends.append(bytes.count)
    }

    /// Appends the object these fields are the values of, `keys` their keys, as compact JSON
    /// (what `JSONWriter` writes for the summary they were taken from).
    func writeObject(keys: [String], into out: inout [UInt8]) {
        writeObject(keys: Self.objectKeys(keys), into: &out)
    }

    /// Each key as ``writeObject(keys:into:)`` writes it before its value: `"key":`, after a
    /// comma but for the first. Made once per category, so that writing an object writes no key.
    static func objectKeys(_ keys: [String]) -> [[UInt8]] {
        keys.enumerated().map { index, key in
            var bytes: [UInt8] = index > 0 ? [UInt8(ascii: ",")] : []
            JSONWriter.writeString(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
    }

    /// ``writeObject(keys:into:)`` with the keys made by ``objectKeys(_:)``.
    func writeObject(keys: [[UInt8]], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() where index < count {
            out.append(contentsOf: key)
            out.append(contentsOf: self[index])
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends to `changed` the numbers of the fields of these that differ from `before` (all
    /// of them past its count), in order; returns them as a mask of the fields below 64.
    func changedFields(from before: StateFields, into changed: inout [Int]) -> UInt64 {
        var mask: UInt64 = 0
        bytes.withUnsafeBufferPointer { mine in
            before.bytes.withUnsafeBufferPointer { theirs in
                var start = 0
                var beforeStart = 0
                for index in 0..<ends.count {
                    let end = ends[index]
                    var same = index < before.ends.count
                    if same {
                        let beforeEnd = before.ends[index]
                        same = end - start == beforeEnd - beforeStart
                        var offset = 0
                        while same, offset < end - start {
                            same = mine[start + offset] == theirs[beforeStart + offset]
                            offset += 1
                        }
                        beforeStart = beforeEnd
                    }
                    if !same {
                        changed.append(index)
                        if index < 64 { mask |= 1 << UInt64(index) }
                    }
                    start = end
                }
            }
        }
        return mask
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
