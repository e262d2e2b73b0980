import JournalCore

/// The input of `journal import`, read and prepared (`Importer.prepare`: JSON, envelope, the
/// sensitive-data guard, the stream name) a chunk ahead on another thread, while the writer
/// validates the chunk before against the journal and appends it. The lines come out in input
/// order, each prepared exactly as the writer would have prepared it: only the thread differs.
package final class PreparedLines {
    /// A chunk of prepared lines, with where the reader was after it (for progress).
    package struct Chunk: Sendable {
        package var lines: [Importer.PreparedLine]
        package var bytesConsumed: Int64
    }

    /// Lines per chunk: enough to keep the writer busy while the next chunk is read, few enough
    /// that a chunk's envelopes stay small next to the journal's page cache.
    package static let chunkLines = 1_024

    private let source: Source
    private let chunks: ChunksAhead<Chunk, CLIError>

    package init(reader: NDJSONLineReader) {
        let source = Source(reader: reader)
        self.source = source
        chunks = ChunksAhead { source.read() }
    }

    /// The next chunk (nil at the end of the input); starts reading the one after it.
    package func next() throws(CLIError) -> Chunk? {
        try chunks.next()
    }

    /// The next chunk, `previous` (the chunk the caller is done with) handed over to be freed
    /// on the reading thread.
    package func next(after previous: Chunk?) throws(CLIError) -> Chunk? {
        try chunks.next(after: previous)
    }

    /// Waits for the read ahead (if any) and closes the input.
    package func close() {
        chunks.finish()
        source.reader.close()
    }

    /// The input and its parser, used by one thread at a time (`ChunksAhead` waits for each
    /// chunk before it starts the next, and `close()` waits before it closes the input).
    private final class Source {
        var reader: NDJSONLineReader
        let parser = JSONParser()

        init(reader: NDJSONLineReader) { self.reader = reader }

        func read() -> Result<Chunk?, CLIError> {
            var lines: [Importer.PreparedLine] = []
            lines.reserveCapacity(PreparedLines.chunkLines)
            do {
                while lines.count < PreparedLines.chunkLines, let line = try reader.next() {
                    if line.isBlank {
                        lines.append(Importer.PreparedLine(line: line, content: .blank))
                    } else {
                        lines.append(Importer.prepare(line, parser: parser))
                    }
                }
            } catch {
                return .failure(error)
            }
            return .success(lines.isEmpty ? nil : Chunk(lines: lines, bytesConsumed: reader.bytesConsumed))
        }
    }
}
