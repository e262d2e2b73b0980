import Glibc
import Testing

@testable import JournalApp

@Suite("NDJSON line reader")
struct NDJSONLineReaderTests {
    /// Reads `bytes` through a pipe, with a small chunk size so lines straddle reads.
    func lines(_ bytes: [UInt8], maxLineLength: Int = 64, chunkSize: Int = 7) throws -> [InputLine] {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = fds[1]
        // Small inputs fit in the pipe buffer, so writing before reading cannot block.
        bytes.withUnsafeBytes { raw in _ = write(writer, raw.baseAddress, raw.count) }
        close(writer)
        var reader = NDJSONLineReader(
            descriptor: fds[0], maxLineLength: maxLineLength, chunkSize: chunkSize,
            ownsDescriptor: true)
        defer { reader.close() }
        var result: [InputLine] = []
        while let line = try reader.next() { result.append(line) }
        return result
    }

    func texts(_ lines: [InputLine]) -> [String] { lines.map { String(decoding: $0.bytes, as: UTF8.self) } }

    @Test func numbersLinesCountingBlankOnesAndDropsCROnlyBeforeLF() throws {
        let read = try lines(Array("{\"a\":1}\r\n\n  \t\n{\"b\":2}\n\r{\"c\":3}".utf8))
        #expect(read.map(\.number) == [1, 2, 3, 4, 5])
        #expect(texts(read) == ["{\"a\":1}", "", "  \t", "{\"b\":2}", "\r{\"c\":3}"])
        #expect(read.map(\.isBlank) == [false, true, true, false, false])
    }

    @Test func aFinalLineWithoutLineFeedIsRead() throws {
        #expect(texts(try lines(Array("x\ny".utf8))) == ["x", "y"])
        #expect(try lines([]).isEmpty)
        #expect(try lines(Array("\n".utf8)).count == 1)
    }

    @Test func anOverlongLineIsReportedAndSkippedWithoutLosingTheNext() throws {
        let long = String(repeating: "x", count: 200)
        let read = try lines(Array("ok\n\(long)\nafter\n\(long)".utf8), maxLineLength: 64)
        #expect(read.map(\.number) == [1, 2, 3, 4])
        #expect(read[1].problem == .tooLong(limit: 64))
        #expect(read[1].bytes.isEmpty)
        #expect(texts([read[2]]) == ["after"])
        #expect(read[3].problem == .tooLong(limit: 64))
        #expect(read[1].problem?.description == "line longer than 64 bytes")
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() throws {
        let exact = String(repeating: "y", count: 64)
        let read = try lines(Array("\(exact)\r\n".utf8), maxLineLength: 64)
        #expect(read.first?.problem == nil)
        #expect(read.first?.bytes.count == 64)
    }

    @Test(arguments: [
        ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D] as [UInt8], InputLineProblem.byteOrderMark),
        ([0x7B, 0x00, 0x7D], .nulByte(offset: 1)),
        ([0x7B, 0x22, 0xC3, 0x28, 0x22], .invalidUTF8(offset: 2)),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8(offset: 1)), // a surrogate
        ([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8(offset: 1)), // overlong
        ([0x22, 0xE2, 0x82], .invalidUTF8(offset: 1)) // truncated
    ])
    func unreadableBytesAreAClearPerLineProblem(bytes: [UInt8], problem: InputLineProblem) throws {
        let read = try lines(bytes + [0x0A] + Array("{}".utf8))
        #expect(read.first?.problem == problem)
        #expect(read.last?.problem == nil)
    }

    @Test func validMultiByteUTF8IsAccepted() {
        #expect(NDJSONLineReader.problem(in: Array("{\"x\":\"é€😀\"}".utf8)) == nil)
    }

    @Test func aMissingFileIsAFailureNotAUsageError() {
        #expect {
            _ = try NDJSONLineReader.open(path: "/nonexistent/events.ndjson")
        } throws: { error in
            (error as? CLIError)?.status == .failure
                && (error as? CLIError)?.messages.first?.contains("No such file") == true
        }
    }
}
