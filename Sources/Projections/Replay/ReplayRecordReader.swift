import JournalCore

/// Reads a replay record (``ReplayRecordFormat``) entry by entry, a buffer at a time (the
/// record is never held whole), checking its end entry: its counts and its FNV-1a sum.
final class ReplayRecordReader {
    enum Item {
        /// A category's initial state.
        case initial(prefix: String, summary: JSONObject)
        /// An event of the stream in `slot`: `name` at the stream's first, `ends` at its last.
        case event(slot: Int, name: String?, ends: Bool, ReplayThenSide)
    }

    /// What the reader keeps of a category: its shapes, and its fields' value tables and last
    /// timestamps.
    private struct Category {
        let prefix: String
        let fields: Int
        var shapes: [[Int]] = []
        var tables: [[[UInt8]]]
        var lastTimestamps: [Int64]

        init(prefix: String, fields: Int) {
            self.prefix = prefix
            self.fields = fields
            tables = Array(repeating: [], count: fields)
            lastTimestamps = Array(repeating: 0, count: fields)
        }
    }

    let path: String
    /// The rules identifier the record was made with.
    private(set) var rules = ""
    private let file: FileDescriptor
    // Used by the comparing run's thread alone, one access at a time: no run-time exclusivity
    // checks on what each entry reads (docs/benchmarks-history.md, "Exclusivity checks").
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var offset = 0
    @exclusivity(unchecked) private var atEndOfFile = false
    @exclusivity(unchecked) private var check = FNV1a64()
    @exclusivity(unchecked) private var categories: [Category] = []
    @exclusivity(unchecked) private var categoryOf: [String: Int] = [:]
    @exclusivity(unchecked) private var slots = ReplayRecordSlots()
    /// Per slot: the category of its stream (-1 for a name of none), or -2 when the slot is free.
    @exclusivity(unchecked) private var slotCategories: [Int32] = []
    /// A timestamp value's bytes, made again for each (reused).
    @exclusivity(unchecked) private var timestamp: [UInt8] = []
    private let parser = JSONParser()
    private(set) var streams = 0
    private(set) var events: Int64 = 0
    private(set) var ended = false

    init(path: String) throws(ReplayRecordError) {
        self.path = path
        do {
            file = try FileDescriptor.open(path, .readOnly, options: [])
        } catch {
            throw ReplayRecordError("cannot open the record \(path): \(error)")
        }
        try fill(atLeast: 1)
        guard let newline = buffer.prefix(512).firstIndex(of: 0x0A) else { throw notARecord("no header line") }
        let header = String(decoding: buffer[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 3, header[0] == ReplayRecordFormat.magic else { throw notARecord("no header line") }
        guard header[1] == String(ReplayRecordFormat.version) else {
            throw ReplayRecordError(
                "\(path) is a replay record of format \(header[1]); this journal reads format "
                    + "\(ReplayRecordFormat.version) only: record it again with 'journal replay --all --record FILE' "
                    + "(the rules it was made with: \(header[2]))")
        }
        rules = String(header[2])
        check.update(buffer[...newline])
        offset = newline + 1
    }

    deinit { file.close() }

    /// The next entry; nil after the end entry, which is checked.
    func next() throws(ReplayRecordError) -> Item? {
        guard !ended else { return nil }
        compact()
        let start = offset
        guard let tag = try byte() else { throw truncated() }
        let code = tag >> 2
        let item: Item
        if code == ReplayRecordFormat.Code.control.rawValue {
            switch tag {
            case ReplayRecordFormat.initialTag: item = try initial()
            case ReplayRecordFormat.endTag:
                try end(start: start)
                return nil
            default: throw damaged("an entry of unknown kind \(tag)")
            }
        } else {
            let (slot, name, category) = try stream(new: tag & ReplayRecordFormat.newStream != 0)
            let ends = tag & ReplayRecordFormat.endsStream != 0
            let side: ReplayThenSide
            switch code {
            case ReplayRecordFormat.Code.fails.rawValue: side = .fails(String(decoding: try string(), as: UTF8.self))
            case ReplayRecordFormat.Code.skipped.rawValue: side = .skipped
            default: side = .state(try step(code: code, category: category))
            }
            if ends {
                slots.release(slot)
                slotCategories[slot] = -2
            }
            events += 1
            item = .event(slot: slot, name: name, ends: ends, side)
        }
        check.update(buffer[start..<offset])
        return item
    }

    private func initial() throws(ReplayRecordError) -> Item {
        let prefix = String(decoding: try string(), as: UTF8.self)
        guard let summary = try? parser.parse(try string()).objectValue else {
            throw damaged("an initial state is not an object")
        }
        guard categoryOf[prefix] == nil else { throw damaged("two initial states of \(prefix)") }
        categories.append(Category(prefix: prefix, fields: summary.count))
        categoryOf[prefix] = categories.count - 1
        return .initial(prefix: prefix, summary: summary)
    }

    /// An event entry's stream: its slot, its name when new, its category.
    private func stream(new: Bool) throws(ReplayRecordError) -> (slot: Int, name: String?, category: Int) {
        guard new else {
            let slot = try int()
            guard slot < slotCategories.count, slotCategories[slot] != -2 else {
                throw damaged("an event of slot \(slot), which holds no stream")
            }
            return (slot, nil, Int(slotCategories[slot]))
        }
        let form = try int()
        let name: String
        if form == ReplayRecordFormat.NameForm.raw {
            name = String(decoding: try string(), as: UTF8.self)
        } else {
            let category = (form - 1) / 2
            guard category < categories.count else { throw damaged("a stream of category \(category) before it") }
            guard try fill(atLeast: 16) else { throw truncated() }
            offset += 16
            name = ReplayRecordName.name(
                prefix: categories[category].prefix, uuid: buffer[(offset - 16)..<offset], upper: (form - 1) % 2 == 1)
        }
        let slot = slots.take()
        if slot >= slotCategories.count {
            slotCategories.append(contentsOf: repeatElement(-2, count: 1 + slot - slotCategories.count))
        }
        let category = categoryOf[ReplayRecordFormat.prefix(of: name)] ?? -1
        slotCategories[slot] = Int32(category)
        streams += 1
        return (slot, name, category)
    }

    private func step(code: UInt8, category: Int) throws(ReplayRecordError) -> ReplayChanges {
        guard category >= 0 else { throw damaged("a step of a stream of no category") }
        let shape: Int
        if code == ReplayRecordFormat.Code.shapedStep.rawValue {
            let number = try int()
            if number == 0 {
                let count = try int()
                guard count <= categories[category].fields else { throw damaged("a shape of \(count) fields") }
                var indices: [Int] = []
                indices.reserveCapacity(count)
                for _ in 0..<count {
                    let index = try int()
                    guard index < categories[category].fields, indices.last.map({ $0 < index }) ?? true else {
                        throw damaged("a shape's fields out of order")
                    }
                    indices.append(index)
                }
                categories[category].shapes.append(indices)
                shape = categories[category].shapes.count - 1
            } else {
                shape = number - 1
            }
        } else {
            shape = Int(code - ReplayRecordFormat.firstShapeCode)
        }
        guard shape < categories[category].shapes.count else { throw damaged("a step of an unknown shape") }
        let indices = categories[category].shapes[shape]
        var values = StateFields()
        for index in indices { try value(field: index, category: category, into: &values) }
        return ReplayChanges(indices: indices, values: values)
    }

    private func value(field: Int, category: Int, into values: inout StateFields) throws(ReplayRecordError) {
        let code = try int()
        switch code {
        case 0:
            let value = try string()
            if value.count <= ReplayRecordFormat.internLimit,
                categories[category].tables[field].count < ReplayRecordFormat.tableLimit
            {
                categories[category].tables[field].append(value)
            }
            values.append(value)
        case 1:
            let millis = categories[category].lastTimestamps[field] &+ ReplayRecordFormat.unzigzag(try uint())
            categories[category].lastTimestamps[field] = millis
            timestamp.removeAll(keepingCapacity: true)
            ReplayRecordTimestamp.write(millis, into: &timestamp)
            values.append(timestamp)
        default:
            guard code - 2 < categories[category].tables[field].count else {
                throw damaged("a value outside its table")
            }
            // Read where the table holds it: no reference taken to the value's array.
            categories[category].tables[field][code - 2].withUnsafeBufferPointer { values.append($0) }
        }
    }

    private func end(start: Int) throws(ReplayRecordError) {
        let events = try int()
        let streams = try int()
        check.update(buffer[start..<offset])
        guard try fill(atLeast: 8) else { throw truncated() }
        var sum: UInt64 = 0
        for index in 0..<8 { sum |= UInt64(buffer[offset + index]) << (8 * index) }
        offset += 8
        guard sum == check.value, events == self.events, streams == self.streams else {
            throw damaged("its end entry does not match what it holds")
        }
        ended = true
    }

    private func notARecord(_ detail: String) -> ReplayRecordError {
        ReplayRecordError(
            "\(path) is not a replay record (\(detail)); make one with 'journal replay --all --record FILE'")
    }

    private func truncated() -> ReplayRecordError {
        ReplayRecordError("the record \(path) is cut short: it has no end entry (was its replay interrupted?)")
    }

    private func damaged(_ detail: String) -> ReplayRecordError {
        ReplayRecordError("the record \(path) is damaged: \(detail)")
    }

    private func byte() throws(ReplayRecordError) -> UInt8? {
        guard try fill(atLeast: 1) else { return nil }
        offset += 1
        return buffer[offset - 1]
    }

    private func uint() throws(ReplayRecordError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard let byte = try byte() else { throw truncated() }
            guard shift < 64 else { throw damaged("a number too large") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private func int() throws(ReplayRecordError) -> Int {
        let value = try uint()
        guard value <= UInt64(Int.max) else { throw damaged("a number too large") }
        return Int(value)
    }

    private func string() throws(ReplayRecordError) -> [UInt8] {
        let count = try int()
        guard count <= 1 << 26 else { throw damaged("a string of \(count) bytes") }
        guard try fill(atLeast: count) else { throw truncated() }
        offset += count
        return Array(buffer[(offset - count)..<offset])
    }

    /// Makes at least `count` unread bytes available; false at the end of the file before that.
    /// Bytes already read stay in the buffer until the entry they belong to is checked.
    @discardableResult
    private func fill(atLeast count: Int) throws(ReplayRecordError) -> Bool {
        while buffer.count - offset < count {
            if atEndOfFile { return false }
            var chunk = [UInt8](repeating: 0, count: max(1 << 16, count))
            let read: Int
            do {
                read = try chunk.withUnsafeMutableBytes { raw throws(Errno) in try file.read(into: raw) }
            } catch {
                throw ReplayRecordError("cannot read the record \(path): \(error)")
            }
            if read == 0 {
                atEndOfFile = true
            } else {
                buffer.append(contentsOf: chunk[..<read])
            }
        }
        return true
    }

    /// Drops the bytes of the entries already checked (between entries, never inside one).
    private func compact() {
        guard offset >= 1 << 16 else { return }
        buffer.removeFirst(offset)
        offset = 0
    }
}

/// A step as a record holds it: the fields that changed (their numbers, in order) and their
/// values, in the same order.
struct ReplayChanges {
    var indices: [Int]
    var values: StateFields
}
