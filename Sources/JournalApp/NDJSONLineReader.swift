import JournalCore

/// One line of an NDJSON input, numbered from 1 (blank lines count), without its line feed and
/// without a carriage return before it.
package struct InputLine: Sendable {
    package var number: Int
    package var bytes: [UInt8]
    /// Set when the line cannot be parsed as JSON at all; `bytes` is then empty for a line that
    /// was too long (it was never kept in memory).
    package var problem: InputLineProblem?

    /// An empty or whitespace-only line: skipped, but counted.
    package var isBlank: Bool {
        problem == nil && bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}

/// Why a line is unreadable before JSON parsing; each reads as a clear sentence.
package enum InputLineProblem: Sendable, Equatable, CustomStringConvertible {
    case tooLong(limit: Int)
    case byteOrderMark
    case nulByte(offset: Int)
    case invalidUTF8(offset: Int)
    /// The whole input is not UTF-8 (UTF-16): the reason names the command that converts it.
    case encoding(String)

    package var description: String {
        switch self {
        case let .encoding(reason): return reason
        case let .tooLong(limit): return "line longer than \(limit) bytes"
        case .byteOrderMark: return "starts with a UTF-8 byte order mark (save the file as UTF-8 without BOM)"
        case let .nulByte(offset): return "NUL byte at byte \(offset + 1)"
        case let .invalidUTF8(offset): return "invalid UTF-8 at byte \(offset + 1)"
        }
    }
}

/// Reads NDJSON lines from a file or stdin in bounded memory: one read buffer plus the current
/// line, never the whole input. A line over `maxLineLength` bytes is skipped (not kept) and
/// reported as `.tooLong`.
package struct NDJSONLineReader {
    package static let defaultMaxLineLength = 1 << 20

    let descriptor: Int32
    let maxLineLength: Int
    private let ownsDescriptor: Bool
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    private var lineNumber = 0
    private let chunkSize: Int
    /// Bytes read from the descriptor so far.
    private var bytesRead: Int64 = 0
    /// The input's name (`-`) when its encoding is checked at the first `next()`.
    private var encodingToCheck: String?

    /// Bytes of the input consumed by the lines returned so far (line feeds included).
    var bytesConsumed: Int64 { bytesRead - Int64(end - start) }

    /// The input's size in bytes from where reading started, when it is a regular file (a file
    /// path, or stdin redirected from a file); nil for a pipe or a terminal.
    package var size: Int64? {
        guard let status = try? FileDescriptor(rawValue: descriptor).status(), status.kind == .regular else {
            return nil
        }
        return max(0, status.size - startOffset)
    }
    /// Where the descriptor stood when the reader was made (stdin may be partly read).
    private let startOffset: Int64

    init(
        descriptor: Int32, maxLineLength: Int = NDJSONLineReader.defaultMaxLineLength,
        chunkSize: Int = 1 << 16, ownsDescriptor: Bool = false
    ) {
        self.descriptor = descriptor
        self.maxLineLength = maxLineLength
        self.chunkSize = chunkSize
        self.ownsDescriptor = ownsDescriptor
        buffer = [UInt8](repeating: 0, count: max(chunkSize, 16))
        startOffset = FileDescriptor(rawValue: descriptor).currentOffset() ?? 0
    }

    /// Opens `path` for reading; `-` is stdin.
    package static func open(path: String, maxLineLength: Int = NDJSONLineReader.defaultMaxLineLength)
        throws(CLIError) -> NDJSONLineReader
    {
        if path == "-" {
            // Stdin is judged at its first read, not here: an import from a pipe opens the
            // journal (and waits for its lock) before its input arrives.
            var reader = NDJSONLineReader(descriptor: 0, maxLineLength: maxLineLength)
            reader.encodingToCheck = path
            return reader
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw CLIError(.failure, "cannot open \(TextRendering.printable(path)): \(error)")
        }
        if (try? file.status())?.kind == .directory {
            file.close()
            throw CLIError(.failure, "cannot read \(TextRendering.printable(path)): it is a directory")
        }
        var reader = NDJSONLineReader(descriptor: file.rawValue, maxLineLength: maxLineLength, ownsDescriptor: true)
        try reader.checkEncoding(input: path)
        return reader
    }

    /// Reads the input's first bytes: a UTF-8 byte order mark there is skipped, and a UTF-16
    /// input is refused as a whole (exit 3), before any journal is opened, rather than line by
    /// line. `input` names it in the hint (`-`: stdin).
    mutating func checkEncoding(input: String) throws(CLIError) {
        encodingToCheck = nil
        while end - start < InputEncoding.sniffedByteCount && !atEOF { try fill() }
        let encoding = InputEncoding.sniff(buffer[start..<end])
        if let problem = encoding.problem(what: input == "-" ? "input" : "file") {
            let file = input == "-" ? "FILE" : TextRendering.printable(input)
            let from = encoding.iconvName ?? "UTF-16"
            throw CLIError(
                .inputRejected, [problem + "; nothing was written"],
                hints: ["iconv -f \(from) -t UTF-8 \(file) > \(file).utf8; then import \(file).utf8"])
        }
        start += encoding.skippedByteCount
    }

    func close() {
        if ownsDescriptor { FileDescriptor(rawValue: descriptor).close() }
    }

    /// The next line, or nil at the end of the input.
    /// - Throws: `CLIError` (exit 1) when reading fails.
    mutating func next() throws(CLIError) -> InputLine? {
        if let input = encodingToCheck { try checkEncoding(input: input) }
        while true {
            if let newline = findNewline() {
                let line = makeLine(from: start, to: newline)
                start = newline + 1
                return line
            }
            if end - start > maxLineLength + 1 { // + 1: a CR before the LF does not count
                return try skipLongLine()
            }
            if atEOF {
                guard start < end else { return nil }
                let line = makeLine(from: start, to: end)
                start = end
                return line
            }
            try fill()
        }
    }

    private func findNewline() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBufferPointer { raw -> Int? in
            Memory.firstIndex(of: 0x0A, in: raw.baseAddress! + start, count: end - start).map { start + $0 }
        }
    }

    private mutating func makeLine(from lineStart: Int, to lineEnd: Int) -> InputLine {
        lineNumber += 1
        var stop = lineEnd
        if stop > lineStart && buffer[stop - 1] == 0x0D { stop -= 1 }
        if stop - lineStart > maxLineLength {
            return InputLine(number: lineNumber, bytes: [], problem: .tooLong(limit: maxLineLength))
        }
        let bytes = Array(buffer[lineStart..<stop])
        return InputLine(number: lineNumber, bytes: bytes, problem: Self.problem(in: bytes))
    }

    /// Drops the rest of an over-long line, reading until its line feed (or the end).
    private mutating func skipLongLine() throws(CLIError) -> InputLine {
        lineNumber += 1
        let line = InputLine(number: lineNumber, bytes: [], problem: .tooLong(limit: maxLineLength))
        while true {
            if let newline = findNewline() {
                start = newline + 1
                return line
            }
            start = end
            if atEOF { return line }
            try fill()
        }
    }

    /// Moves the unread bytes to the front and reads one more chunk.
    private mutating func fill() throws(CLIError) {
        if start > 0 {
            let remaining = end - start
            if remaining > 0 {
                buffer.withUnsafeMutableBufferPointer { raw in
                    // The regions may overlap: `copyMemory` moves as `memmove` does.
                    UnsafeMutableRawPointer(raw.baseAddress!).copyMemory(
                        from: raw.baseAddress! + start, byteCount: remaining)
                }
            }
            start = 0
            end = remaining
        }
        if buffer.count - end < chunkSize {
            buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        }
        let read: Result<Int, Errno> = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in
                try FileDescriptor(rawValue: descriptor).read(
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
            }
        }
        let count: Int
        switch read {
        case let .success(read): count = read
        case let .failure(error): throw CLIError(.failure, "cannot read the input: \(error)")
        }
        if count == 0 { atEOF = true }
        end += count
        bytesRead += Int64(count)
    }

    /// The lines of an input already in memory (an HTTP request's body), by the same rules as
    /// ``next()``: numbered from 1, blank lines counted, a CR before the LF dropped, the last
    /// line without its LF kept, a line over `maxLineLength` bytes reported as `.tooLong`.
    package static func lines(of input: [UInt8], maxLineLength: Int = defaultMaxLineLength) -> [InputLine] {
        var lines: [InputLine] = []
        // A UTF-8 byte order mark at the start is skipped; a UTF-16 body is one bad line.
        let encoding = InputEncoding.sniff(input.prefix(InputEncoding.sniffedByteCount))
        if let problem = encoding.problem(what: "body") {
            return [InputLine(number: 1, bytes: [], problem: .encoding(problem))]
        }
        var start = encoding.skippedByteCount
        while start < input.count {
            let newline = input[start...].firstIndex(of: 0x0A) ?? input.count
            var stop = newline
            if stop > start && input[stop - 1] == 0x0D { stop -= 1 }
            let number = lines.count + 1
            if stop - start > maxLineLength {
                lines.append(InputLine(number: number, bytes: [], problem: .tooLong(limit: maxLineLength)))
            } else {
                let bytes = Array(input[start..<stop])
                lines.append(InputLine(number: number, bytes: bytes, problem: problem(in: bytes)))
            }
            start = newline + 1
        }
        return lines
    }

    /// A byte order mark, a NUL byte or invalid UTF-8, whichever comes first.
    static func problem(in bytes: [UInt8]) -> InputLineProblem? {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return .byteOrderMark }
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0 { return .nulByte(offset: index) }
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch byte {
            case 0xC2...0xDF:
                length = 2
                minimum = 0x80
                scalar = UInt32(byte & 0x1F)
            case 0xE0...0xEF:
                length = 3
                minimum = 0x800
                scalar = UInt32(byte & 0x0F)
            case 0xF0...0xF4:
                length = 4
                minimum = 0x10000
                scalar = UInt32(byte & 0x07)
            default: return .invalidUTF8(offset: index)
            }
            guard index + length <= count else { return .invalidUTF8(offset: index) }
            for next in bytes[(index + 1)..<(index + length)] {
                guard next & 0xC0 == 0x80 else { return .invalidUTF8(offset: index) }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                return .invalidUTF8(offset: index)
            }
            index += length
        }
        return nil
    }
}
