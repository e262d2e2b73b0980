import JournalCore

/// Reads a replay record (``ReplayRecordFormat``) entry by entry, a buffer at a time (the
/// record is never held whole), checking its end entry: its counts and its FNV-1a sum.
final class ReplayRecordReader {
    enum Item {
        case stream(name: String)
        case initial(prefix: String, summary: [UInt8])
        case step(number: Int, changes: [(index: Int, value: [UInt8])])
        case fails(number: Int, reason: String)
        case skipped(number: Int)
    }

    let path: String
    /// The rules identifier the record was made with.
    private(set) var rules = ""
    private let file: FileDescriptor
    private var buffer: [UInt8] = []
    private var offset = 0
    private var atEndOfFile = false
    private var check = FNV1a64()
    private var table: [[UInt8]] = []
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
                    + "\(ReplayRecordFormat.version)")
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
        guard let tagByte = try byte() else { throw truncated() }
        guard let tag = ReplayRecordFormat.Tag(rawValue: tagByte) else {
            throw damaged("an entry of unknown kind \(tagByte)")
        }
        let item: Item?
        switch tag {
        case .stream:
            item = .stream(name: String(decoding: try string(), as: UTF8.self))
            streams += 1
        case .initial:
            item = .initial(prefix: String(decoding: try string(), as: UTF8.self), summary: try string())
        case .step:
            let number = try streamNumber()
            let count = try int()
            var changes: [(index: Int, value: [UInt8])] = []
            changes.reserveCapacity(count)
            for _ in 0..<count {
                let index = try int()
                guard changes.last.map({ $0.index < index }) ?? true else { throw damaged("fields out of order") }
                changes.append((index, try value()))
            }
            item = .step(number: number, changes: changes)
            events += 1
        case .fails:
            item = .fails(number: try streamNumber(), reason: String(decoding: try string(), as: UTF8.self))
            events += 1
        case .skipped:
            item = .skipped(number: try streamNumber())
            events += 1
        case .end:
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
            return nil
        }
        check.update(buffer[start..<offset])
        return item
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

    private func streamNumber() throws(ReplayRecordError) -> Int {
        let number = try int()
        guard number < streams else { throw damaged("a step of stream \(number) before the stream") }
        return number
    }

    private func value() throws(ReplayRecordError) -> [UInt8] {
        let code = try int()
        switch code {
        case 0: return try string()
        case 1:
            let value = try string()
            table.append(value)
            return value
        default:
            guard code - 2 < table.count else { throw damaged("a value outside its table") }
            return table[code - 2]
        }
    }

    private func byte() throws(ReplayRecordError) -> UInt8? {
        guard try fill(atLeast: 1) else { return nil }
        offset += 1
        return buffer[offset - 1]
    }

    private func int() throws(ReplayRecordError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard let byte = try byte() else { throw truncated() }
            guard shift < 63 else { throw damaged("a number too large") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
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
