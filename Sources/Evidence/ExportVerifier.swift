import JournalCore

/// Checks an export file against a signed checkpoint with no journal at hand (spec §9,
/// `journal check EXPORT --checkpoint FILE --key VKEY`): the checkpoint's signature against
/// trusted verifier keys, then ``ExportTreeCheck`` over the file's lines, read a chunk at a
/// time. Memory is one read buffer and the longest line, whatever the file's size.
///
/// A UTF-8 byte order mark at the start of the file is skipped; a UTF-16 file is refused as a
/// whole (``ExportVerificationError/encoding(_:)``).
public struct ExportVerifier: Sendable {
    public let verifiers: [NoteVerifier]
    /// A line longer than this is not an export line (and is not held in memory to be hashed).
    public let maxLineBytes: Int

    /// The default line limit: far above any event the journal accepts (1 MiB by default).
    public static let defaultMaxLineBytes = 64 << 20

    public init(verifiers: [NoteVerifier], maxLineBytes: Int = ExportVerifier.defaultMaxLineBytes) {
        self.verifiers = verifiers
        self.maxLineBytes = maxLineBytes
    }

    /// True when `prefix`, a file's first bytes, starts as an export line does (`{"id":`, after
    /// a UTF-8 byte order mark if any): to tell an export from a bundle by content.
    public static func looksLikeExport(_ prefix: [UInt8]) -> Bool {
        let start = InputEncoding.sniff(prefix).skippedByteCount
        return prefix.dropFirst(start).starts(with: Array(#"{"id":"#.utf8))
    }

    /// Verifies the export at `path` (`-`: standard input) against `checkpoint`.
    public func verify(path: String, against checkpoint: SignedCheckpoint) throws(ExportVerificationError)
        -> VerifiedExport
    {
        try verifySignature(checkpoint)
        if path == "-" { return try verifyLines(of: .standardInput, against: checkpoint) }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw .unreadable("cannot read the export \(path): \(error)")
        }
        defer { file.close() }
        if (try? file.status())?.kind == .directory {
            throw .unreadable("cannot read the export \(path): it is a directory")
        }
        return try verifyLines(of: file, against: checkpoint)
    }

    private func verifySignature(_ checkpoint: SignedCheckpoint) throws(ExportVerificationError) {
        do {
            try checkpoint.verify(with: verifiers)
        } catch {
            throw .checkpoint(error)
        }
    }

    /// Splits the file into lines (at each line feed; a last line without one counts) and feeds
    /// them to the check.
    package func verifyLines(of file: FileDescriptor, against checkpoint: SignedCheckpoint)
        throws(ExportVerificationError) -> VerifiedExport
    {
        var check = ExportTreeCheck(size: checkpoint.checkpoint.size, root: checkpoint.checkpoint.root)
        var reader = ChunkReader(file: file)
        var skippedByteOrderMark = false
        // The first bytes decide the encoding.
        while reader.pending < InputEncoding.sniffedByteCount, try reader.fill() {}
        let encoding = InputEncoding.sniff(reader.pendingBytes)
        if let problem = encoding.problem() { throw .encoding(problem) }
        if encoding.skippedByteCount > 0 {
            reader.skip(encoding.skippedByteCount)
            skippedByteOrderMark = true
        }
        var tooLong = false
        while true {
            if let line = reader.nextLine() {
                if tooLong {
                    // The end of a line too long to keep, past the checkpoint's size: counted.
                    tooLong = false
                    try check.add(line: [UInt8]())
                    continue
                }
                try check.add(line: line)
                continue
            }
            if reader.pending > maxLineBytes {
                if check.lines < check.size {
                    throw .notAnExportLine(line: check.lines + 1, reason: "it is longer than \(maxLineBytes) bytes")
                }
                // Past the checkpoint's size a line is only counted: drop its bytes.
                reader.dropPending()
                tooLong = true
            }
            guard try reader.fill() else { break }
        }
        if reader.pending > 0 || tooLong {
            let last = reader.takePending()
            try check.add(line: last)
        }
        try check.finish()
        return VerifiedExport(
            checkpoint: checkpoint, linesAfter: check.linesAfter, skippedByteOrderMark: skippedByteOrderMark)
    }

    /// A file read in chunks of 1 MiB into one buffer, handing out whole lines. The buffer
    /// grows only while a line is longer than what it holds.
    private struct ChunkReader {
        let file: FileDescriptor
        var buffer = [UInt8](repeating: 0, count: 2 * ChunkReader.chunkSize)
        var start = 0
        var end = 0
        static let chunkSize = 1 << 20

        init(file: FileDescriptor) { self.file = file }

        var pending: Int { end - start }
        var pendingBytes: ArraySlice<UInt8> { buffer[start..<end] }

        /// Reads one more chunk; false at the end of the file.
        mutating func fill() throws(ExportVerificationError) -> Bool {
            if start > 0 {
                let remaining = end - start
                if remaining > 0 {
                    buffer.withUnsafeMutableBytes { raw in
                        // The regions may overlap: `copyMemory` moves as `memmove` does.
                        raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: remaining)
                    }
                }
                (start, end) = (0, remaining)
            }
            if buffer.count - end < Self.chunkSize {
                buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
            }
            let read: Result<Int, Errno> = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
                }
            }
            switch read {
            case let .success(count):
                end += count
                return count > 0
            case let .failure(error):
                throw .unreadable("cannot read the export: \(error)")
            }
        }

        /// The next whole line in the buffer (without its line feed), or nil.
        mutating func nextLine() -> ArraySlice<UInt8>? {
            guard start < end else { return nil }
            let found = buffer.withUnsafeBufferPointer { raw -> Int? in
                Memory.firstIndex(of: 0x0A, in: raw.baseAddress! + start, count: end - start)
            }
            guard let offset = found else { return nil }
            let line = buffer[start..<(start + offset)]
            start += offset + 1
            return line
        }

        mutating func skip(_ count: Int) { start += count }

        mutating func dropPending() { (start, end) = (0, 0) }

        mutating func takePending() -> ArraySlice<UInt8> {
            defer { dropPending() }
            return buffer[start..<end]
        }
    }
}
