import JournalCore

/// Writes a replay record (``ReplayRecordFormat``) as the log is replayed: to `<path>.partial`
/// (mode 0600), renamed to `path` by ``finish(events:streams:)``, so that a replay that fails
/// leaves no record behind, and a record that exists is whole.
final class ReplayRecordWriter {
    /// What the writer keeps of a category: its shapes, and its fields' value tables and last
    /// timestamps.
    private struct Category {
        let prefix: String
        /// Shapes by the mask of their fields (categories of at most 64 fields), else by their list.
        var shapes: [UInt64: Int] = [:]
        var wideShapes: [[Int]: Int] = [:]
        var shapeCount = 0
        var tables: [ReplayValueTable]
        var lastTimestamps: [Int64]

        init(prefix: String, fields: Int) {
            self.prefix = prefix
            tables = Array(repeating: ReplayValueTable(), count: fields)
            lastTimestamps = Array(repeating: 0, count: fields)
        }
    }

    let path: String
    private let partialPath: String
    private let file: FileDescriptor
    // Used by the run's thread alone, one access at a time: no run-time exclusivity checks on
    // what each entry appends to. They pay: `--record` 23.02 → 21.22 s CPU over 5 alternating
    // runs of 1 M events (docs/benchmarks-history.md, "Exclusivity checks").
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var check = FNV1a64()
    @exclusivity(unchecked) private var categories: [Category] = []
    @exclusivity(unchecked) private var categoryOf: [String: Int] = [:]
    @exclusivity(unchecked) private var slots = ReplayRecordSlots()
    @exclusivity(unchecked) private var changed: [Int] = []
    @exclusivity(unchecked) private var finished = false

    init(path: String, rules: String) throws(ReplayRecordError) {
        self.path = path
        partialPath = path + ".partial"
        do {
            file = try FileDescriptor.open(partialPath, .writeOnly, options: [.create, .truncate], permissions: 0o600)
            if let status = try? file.status(), status.permissions != 0o600 { try file.setPermissions(0o600) }
        } catch {
            throw ReplayRecordError("cannot create \(partialPath): \(error)")
        }
        buffer.reserveCapacity(1 << 17)
        buffer.append(contentsOf: "\(ReplayRecordFormat.magic) \(ReplayRecordFormat.version) \(rules)\n".utf8)
    }

    deinit {
        if !finished { abandon() }
    }

    /// The number of the category of streams named with `prefix`, whose states have the fields
    /// of `initial`; its initial entry is written the first time.
    func category(prefix: String, initial: () -> (fields: Int, summary: [UInt8])) throws(ReplayRecordError) -> Int {
        if let known = categoryOf[prefix] { return known }
        let (fields, summary) = initial()
        buffer.append(ReplayRecordFormat.initialTag)
        string(Array(prefix.utf8))
        string(summary)
        categories.append(Category(prefix: prefix, fields: fields))
        categoryOf[prefix] = categories.count - 1
        try flushIfFull()
        return categories.count - 1
    }

    /// A step of a stream (`slot` -1 for its first entry, then the slot it was given; `category`
    /// its category's number): the fields of `after` that changed since the stream's state before.
    func step(slot: inout Int, name: String, category: Int, ends: Bool, after: ReplayLaneState)
        throws(ReplayRecordError)
    {
        changed.removeAll(keepingCapacity: true)
        var mask: UInt64 = 0
        let changes = after.changedFields
        for field in changes {
            let index = Int(field)
            changed.append(index)
            if index < 64 { mask |= 1 << UInt64(index) }
        }
        let known: Int? =
            after.count <= 64 ? categories[category].shapes[mask] : categories[category].wideShapes[changed]
        if let known, known < ReplayRecordFormat.inlineShapes {
            head(
                code: ReplayRecordFormat.firstShapeCode + UInt8(known), slot: &slot, name: name, category: category,
                ends: ends)
        } else {
            head(
                code: ReplayRecordFormat.Code.shapedStep.rawValue, slot: &slot, name: name, category: category,
                ends: ends)
            if let known {
                varint(UInt64(known) + 1)
            } else {
                varint(0)
                varint(UInt64(changed.count))
                for index in changed { varint(UInt64(index)) }
                let number = categories[category].shapeCount
                categories[category].shapeCount += 1
                if after.count <= 64 {
                    categories[category].shapes[mask] = number
                } else {
                    categories[category].wideShapes[changed] = number
                }
            }
        }
        for (change, index) in zip(changes.indices, changed) {
            value(after.changedValue(change), field: index, category: category)
        }
        try flushIfFull()
    }

    func fails(slot: inout Int, name: String, category: Int?, ends: Bool, reason: String) throws(ReplayRecordError) {
        head(code: ReplayRecordFormat.Code.fails.rawValue, slot: &slot, name: name, category: category, ends: ends)
        string(Array(reason.utf8))
        try flushIfFull()
    }

    func skipped(slot: inout Int, name: String, category: Int?, ends: Bool) throws(ReplayRecordError) {
        head(code: ReplayRecordFormat.Code.skipped.rawValue, slot: &slot, name: name, category: category, ends: ends)
        try flushIfFull()
    }

    /// Writes the end entry, syncs the file and gives it its name.
    func finish(events: Int64, streams: Int) throws(ReplayRecordError) {
        buffer.append(ReplayRecordFormat.endTag)
        varint(UInt64(events))
        varint(UInt64(streams))
        check.update(buffer)
        var sum = check.value.littleEndian
        withUnsafeBytes(of: &sum) { buffer.append(contentsOf: $0) }
        do {
            try file.writeAll(buffer)
            buffer.removeAll()
            try file.sync()
        } catch {
            throw ReplayRecordError("cannot write \(partialPath): \(error)")
        }
        file.close()
        finished = true
        do {
            try FileNames.rename(partialPath, to: path)
        } catch {
            FileNames.remove(partialPath)
            throw ReplayRecordError("cannot rename \(partialPath) to \(path): \(error)")
        }
    }

    /// Removes what was written (a replay that stopped).
    func abandon() {
        guard !finished else { return }
        finished = true
        file.close()
        FileNames.remove(partialPath)
    }

    /// An event entry's tag and stream: its name and a new slot for its first entry, else its
    /// slot; a stream's last entry frees its slot.
    private func head(code: UInt8, slot: inout Int, name: String, category: Int?, ends: Bool) {
        let flags = (slot < 0 ? ReplayRecordFormat.newStream : 0) | (ends ? ReplayRecordFormat.endsStream : 0)
        buffer.append(code << 2 | flags)
        if slot < 0 {
            slot = slots.take()
            if let category, let (uuid, upper) = ReplayRecordName.uuid(of: name, prefix: categories[category].prefix) {
                varint(UInt64(1 + 2 * category + (upper ? 1 : 0)))
                buffer.append(contentsOf: uuid)
            } else {
                varint(UInt64(ReplayRecordFormat.NameForm.raw))
                string(Array(name.utf8))
            }
        } else {
            varint(UInt64(slot))
        }
        if ends { slots.release(slot) }
    }

    private func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    private func string<C: Collection<UInt8>>(_ bytes: C) {
        varint(UInt64(bytes.count))
        buffer.append(contentsOf: bytes)
    }

    private func value(_ bytes: ArraySlice<UInt8>, field: Int, category: Int) {
        if let millis = ReplayRecordTimestamp.milliseconds(of: bytes) {
            varint(1)
            varint(ReplayRecordFormat.zigzag(millis &- categories[category].lastTimestamps[field]))
            categories[category].lastTimestamps[field] = millis
            return
        }
        guard bytes.count <= ReplayRecordFormat.internLimit,
            let (number, added) = categories[category].tables[field].number(
                of: bytes, limit: ReplayRecordFormat.tableLimit)
        else {
            varint(0)
            string(bytes)
            return
        }
        if added {
            varint(0)
            string(bytes)
        } else {
            varint(UInt64(number) + 2)
        }
    }

    private func flushIfFull() throws(ReplayRecordError) {
        guard buffer.count >= 1 << 16 else { return }
        check.update(buffer)
        do {
            try file.writeAll(buffer)
        } catch {
            throw ReplayRecordError("cannot write \(partialPath): \(error)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A state's timestamp field (`"YYYY-MM-DDTHH:MM:SS.sssZ"`, with its quotes) as milliseconds, for
/// the record's timestamp code, when it is written back byte for byte the same.
enum ReplayRecordTimestamp {
    static func milliseconds(of bytes: ArraySlice<UInt8>) -> Int64? {
        let start = bytes.startIndex
        guard bytes.count == 2 + Timestamp.textByteCount, bytes[start] == UInt8(ascii: "\""),
            bytes[start + 11] == UInt8(ascii: "T"), bytes[bytes.endIndex - 1] == UInt8(ascii: "\""),
            let time = Timestamp(String(decoding: bytes[(start + 1)..<(bytes.endIndex - 1)], as: UTF8.self))
        else { return nil }
        var written: [UInt8] = []
        write(time.millisecondsSinceEpoch, into: &written)
        return written.elementsEqual(bytes) ? time.millisecondsSinceEpoch : nil
    }

    /// The field's bytes for `milliseconds`.
    static func write(_ milliseconds: Int64, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        Timestamp(millisecondsSinceEpoch: milliseconds).write(into: &out)
        out.append(UInt8(ascii: "\""))
    }
}

/// A record that cannot be written or read, with the reason.
public struct ReplayRecordError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// For an event after its stream's recorded end: the stream's key when its name was not at
    /// hand (``ReplayLogScan`` reads it for the message).
    let unnamedStreamKey: Int64?

    init(_ description: String, unnamedStreamKey: Int64? = nil) {
        self.description = description
        self.unnamedStreamKey = unnamedStreamKey
    }

    /// An event of a stream after the stream's last event as the store records it.
    static func eventAfterEnd(position: Int64, stream: String, key: Int64) -> ReplayRecordError {
        ReplayRecordError(
            "position \(position): the stream \(stream.isEmpty ? "of id \(key)" : stream) has an event after "
                + "its recorded last event; 'journal verify' checks the journal",
            unnamedStreamKey: stream.isEmpty ? key : nil)
    }
}
