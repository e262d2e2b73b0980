import JournalCore

/// Writes a replay record (``ReplayRecordFormat``) as the log is replayed: to `<path>.partial`
/// (mode 0600), renamed to `path` by ``finish(events:streams:)``, so that a replay that fails
/// leaves no record behind, and a record that exists is whole.
final class ReplayRecordWriter {
    let path: String
    private let partialPath: String
    private let file: FileDescriptor
    private var buffer: [UInt8] = []
    private var check = FNV1a64()
    private var table = ReplayValueTable()
    private var finished = false

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

    func stream(name: String) throws(ReplayRecordError) {
        tag(.stream)
        string(Array(name.utf8))
        try flushIfFull()
    }

    func initial(prefix: String, summary: [UInt8]) throws(ReplayRecordError) {
        tag(.initial)
        string(Array(prefix.utf8))
        string(summary)
        try flushIfFull()
    }

    /// A step of stream `number`: the fields of `after` that differ from `before`.
    func step(_ number: Int, before: StateFields, after: StateFields) throws(ReplayRecordError) {
        tag(.step)
        varint(UInt64(number))
        var changed = 0
        for index in 0..<after.count where index >= before.count || before[index] != after[index] { changed += 1 }
        varint(UInt64(changed))
        for index in 0..<after.count where index >= before.count || before[index] != after[index] {
            varint(UInt64(index))
            value(after[index])
        }
        try flushIfFull()
    }

    func fails(_ number: Int, reason: String) throws(ReplayRecordError) {
        tag(.fails)
        varint(UInt64(number))
        string(Array(reason.utf8))
        try flushIfFull()
    }

    func skipped(_ number: Int) throws(ReplayRecordError) {
        tag(.skipped)
        varint(UInt64(number))
        try flushIfFull()
    }

    /// Writes the end entry, syncs the file and gives it its name.
    func finish(events: Int64, streams: Int) throws(ReplayRecordError) {
        tag(.end)
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

    private func tag(_ tag: ReplayRecordFormat.Tag) { buffer.append(tag.rawValue) }

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

    private func value(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count <= ReplayRecordFormat.internLimit,
            let (number, added) = table.number(of: bytes, limit: ReplayRecordFormat.tableLimit)
        else {
            varint(0)
            string(bytes)
            return
        }
        if added {
            varint(1)
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
