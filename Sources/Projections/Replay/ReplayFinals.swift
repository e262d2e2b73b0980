import EventStore
import JournalCore

/// The final outcome of each stream of a recording (``ReplayRun``) or of `replay --all`
/// (`LogReplay`), given as each stream ends, in the log's order, and given back in name order
/// at the end: what `replay --all`'s report hashes, with the streams' names in order.
///
/// A whole log's final states are too many to hold (about 500 bytes a stream, millions of
/// streams), and the log comes in position order, not in name order. So they gather in a buffer
/// of `bufferLimit` bytes, which is sorted by name and written as one run to a file without a
/// name in the temporary folder when it is full (``FileSystem/AnonymousFile``: mode 0600,
/// unlinked at once, gone when closed, even if the process is killed); the end merges the runs.
/// What is held is the buffer and, merging, a block of `readBlock` bytes per run.
///
/// In the buffer and the runs, a stream's entry is its name (a varint length, the bytes), its
/// events (varint), then 0 and the final state (a byte string), or 1 and the failure's version,
/// position (varints) and reason (a byte string); in a run, each entry is preceded by its
/// length (varint). Names are ASCII (``StreamName``), so their byte order is their order.
package final class ReplayFinals {
    /// One stream's final outcome.
    package struct Final {
        package var stream: String
        package var events: Int
        package var failure: (version: Int64, position: Int64, reason: String)?
        /// The final state as compact JSON; empty when the stream fails.
        package var state: [UInt8]
    }

    private var buffer: [UInt8] = []
    /// The buffer's entries: where each begins and ends, and its name's bytes.
    private var entries: [(start: Int, end: Int, name: Range<Int>)] = []
    private let bufferLimit: Int
    private let readBlock: Int
    private let directory: String
    private var file: FileSystem.AnonymousFile?
    private var runs: [Range<Int>] = []
    private var fileSize = 0
    /// The runs written to the file so far.
    package var spilledRuns: Int { runs.count }
    /// The most entries held at once in the buffer.
    package private(set) var peakHeld = 0

    /// - Parameters:
    ///   - bufferLimit: bytes gathered before they are sorted and written as a run.
    ///   - directory: where the runs' file is made (it has no name once made); the temporary
    ///     folder by default.
    package init(bufferLimit: Int = 8 << 20, readBlock: Int = 1 << 16, directory: String? = nil) {
        self.bufferLimit = max(1, bufferLimit)
        self.readBlock = max(16, readBlock)
        self.directory = directory ?? FileSystem.temporaryDirectory
    }

    /// Adds a stream's final outcome: `state` when it folds, else `failure`.
    package func add(
        stream: String, events: Int, failure: (version: Int64, position: Int64, reason: String)?,
        state: (inout [UInt8]) -> Void
    ) throws(ReplayRecordError) {
        let start = buffer.count
        let nameCount = stream.utf8.count
        Self.varint(UInt64(nameCount), into: &buffer)
        let nameStart = buffer.count
        buffer.append(contentsOf: stream.utf8)
        Self.varint(UInt64(events), into: &buffer)
        if let failure {
            buffer.append(1)
            Self.varint(UInt64(failure.version), into: &buffer)
            Self.varint(UInt64(failure.position), into: &buffer)
            Self.varint(UInt64(failure.reason.utf8.count), into: &buffer)
            buffer.append(contentsOf: failure.reason.utf8)
        } else {
            buffer.append(0)
            // The state is written in place after a length of three bytes (a varint with leading
            // zero groups, which reads as the same number), filled in once it is known.
            let lengthAt = buffer.count
            buffer.append(contentsOf: [0x80, 0x80, 0])
            state(&buffer)
            let length = buffer.count - lengthAt - 3
            if length < 1 << 21 {
                buffer[lengthAt] = UInt8(length & 0x7F) | 0x80
                buffer[lengthAt + 1] = UInt8((length >> 7) & 0x7F) | 0x80
                buffer[lengthAt + 2] = UInt8(length >> 14)
            } else {
                let bytes = Array(buffer[(lengthAt + 3)...])
                buffer.removeSubrange(lengthAt...)
                Self.varint(UInt64(length), into: &buffer)
                buffer.append(contentsOf: bytes)
            }
        }
        entries.append((start, buffer.count, nameStart..<(nameStart + nameCount)))
        peakHeld = max(peakHeld, entries.count)
        if buffer.count >= bufferLimit { try spill() }
    }

    /// The buffer's entries in name order.
    private func sortedEntries() -> [(start: Int, end: Int, name: Range<Int>)] {
        buffer.withUnsafeBytes { bytes in
            entries.sorted { a, b in
                UnsafeRawBufferPointer(rebasing: bytes[a.name]).lexicographicallyPrecedes(
                    UnsafeRawBufferPointer(rebasing: bytes[b.name]))
            }
        }
    }

    /// The buffer's entries in name order, each preceded by its length, as a run holds them;
    /// `write` is given them `writeBlock` bytes at a time (not a copy of the whole buffer).
    private func sortedRun(_ write: ([UInt8]) throws(ReplayRecordError) -> Void) throws(ReplayRecordError) {
        var run: [UInt8] = []
        run.reserveCapacity(Self.writeBlock + 16)
        for entry in sortedEntries() {
            Self.varint(UInt64(entry.end - entry.start), into: &run)
            run.append(contentsOf: buffer[entry.start..<entry.end])
            if run.count >= Self.writeBlock {
                try write(run)
                run.removeAll(keepingCapacity: true)
            }
        }
        if !run.isEmpty { try write(run) }
    }

    private static let writeBlock = 1 << 18

    /// Sorts the buffer and writes it as a run at the end of the file.
    private func spill() throws(ReplayRecordError) {
        guard !entries.isEmpty else { return }
        let start = fileSize
        try sortedRun { run throws(ReplayRecordError) in
            do throws(FileSystem.Failure) {
                if file == nil { file = try FileSystem.AnonymousFile(beside: directory + "/journal-replay-finals-") }
                let (file, offset) = (file!, fileSize)
                try run.withBytes { bytes throws(FileSystem.Failure) in try file.write(bytes, at: offset) }
            } catch {
                throw ReplayRecordError("cannot keep the final states for the digest in a temporary file: \(error)")
            }
            fileSize += run.count
        }
        runs.append(start..<fileSize)
        buffer.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every stream's final outcome, in name order; once, at the end.
    package func forEachInNameOrder(_ body: (Final) throws -> Void) throws {
        guard !runs.isEmpty, let file else {
            for entry in sortedEntries() { try body(Self.decode(buffer[entry.start..<entry.end])) }
            return
        }
        // The buffer's entries are merged from memory, as a run that is not written.
        var held: [UInt8] = []
        held.reserveCapacity(buffer.count + entries.count * 3)
        try sortedRun { run throws(ReplayRecordError) in held.append(contentsOf: run) }
        buffer = []
        entries = []
        var cursors = try runs.map { run throws(ReplayRecordError) in
            try RunCursor(file: file, run: run, blockSize: readBlock)
        }
        if !held.isEmpty { cursors.append(try RunCursor(file: file, held: held, blockSize: readBlock)) }
        held = []
        var merge = SortedRunMerge(cursors: cursors)
        while let first = merge.first, let current = merge.cursors[first].current {
            try body(Self.decode(merge.cursors[first].block[current.entry]))
            try merge.advanceFirst()
        }
    }

    static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Reads a varint at `offset` of `bytes`, moving `offset` past it; nil when it is cut short.
    static func varint(_ bytes: ArraySlice<UInt8>, at offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.endIndex, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// One entry (without its length), as ``add(stream:events:failure:state:)`` wrote it.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Final {
        var offset = bytes.startIndex
        func number() -> Int { Int(truncatingIfNeeded: varint(bytes, at: &offset) ?? 0) }
        func string() -> ArraySlice<UInt8> {
            let count = number()
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        let stream = String(decoding: string(), as: UTF8.self)
        let events = number()
        let kind = bytes[offset]
        offset += 1
        guard kind == 1 else { return Final(stream: stream, events: events, failure: nil, state: Array(string())) }
        let version = Int64(number())
        let position = Int64(number())
        let reason = String(decoding: string(), as: UTF8.self)
        return Final(stream: stream, events: events, failure: (version, position, reason), state: [])
    }

    /// A run read a block at a time: its current entry's bytes, and name.
    private struct RunCursor: SortedRunCursor {
        let file: FileSystem.AnonymousFile
        var next: Int
        let end: Int
        let blockSize: Int
        var block: [UInt8] = []
        var offset = 0
        /// The current entry in `block`, and its name's bytes; nil at the run's end.
        var current: (entry: Range<Int>, name: Range<Int>)?

        init(file: FileSystem.AnonymousFile, run: Range<Int>, blockSize: Int) throws(ReplayRecordError) {
            self.file = file
            next = run.lowerBound
            end = run.upperBound
            self.blockSize = blockSize
            block.reserveCapacity(blockSize)
            try advance()
        }

        /// A run held in memory, whole: nothing is read from the file.
        init(file: FileSystem.AnonymousFile, held: [UInt8], blockSize: Int) throws(ReplayRecordError) {
            self.file = file
            next = 0
            end = 0
            self.blockSize = blockSize
            block = held
            try advance()
        }

        /// Moves to the next entry, reading more of the run when the block does not hold it whole.
        mutating func advance() throws(ReplayRecordError) {
            while true {
                var at = offset
                if let length = ReplayFinals.varint(block[...], at: &at), at + Int(length) <= block.count {
                    let entry = at..<(at + Int(length))
                    var nameAt = at
                    let nameLength = Int(ReplayFinals.varint(block[...], at: &nameAt) ?? 0)
                    current = (entry, nameAt..<(nameAt + nameLength))
                    offset = entry.upperBound
                    return
                }
                guard next < end else {
                    current = nil
                    return
                }
                block.removeSubrange(..<offset)
                offset = 0
                let count = min(end - next, blockSize)
                let kept = block.count
                block.append(contentsOf: repeatElement(0, count: count))
                let (file, from) = (file, next)
                do throws(FileSystem.Failure) {
                    try block.withMutableBytes { bytes throws(FileSystem.Failure) in
                        try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[kept...]), at: from)
                    }
                } catch {
                    throw ReplayRecordError("cannot read the final states back from their temporary file: \(error)")
                }
                next += count
            }
        }

        var isAtEnd: Bool { current == nil }

        func precedes(_ other: RunCursor) -> Bool {
            guard let mine = current?.name, let theirs = other.current?.name else { return false }
            return block[mine].lexicographicallyPrecedes(other.block[theirs])
        }
    }
}
