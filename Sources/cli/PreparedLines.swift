import JournalCore

/// The input of `journal import`, read and prepared (`Importer.prepare`: JSON, envelope, the
/// sensitive-data guard, the stream name) a chunk ahead on another thread, while the writer
/// validates the chunk before against the journal and appends it. The lines come out in input
/// order, each prepared exactly as the writer would have prepared it: only the thread differs.
///
/// `@unchecked Sendable`: the reader and the parser are used by one thread at a time; each
/// chunk's `BackgroundTask` is waited for before the next one starts, and before `close()`.
final class PreparedLines: @unchecked Sendable {
    /// A chunk of prepared lines, with where the reader was after it (for progress).
    struct Chunk: Sendable {
        var lines: [Importer.PreparedLine]
        var bytesConsumed: Int64
    }

    /// Lines per chunk: enough to keep the writer busy while the next chunk is read, few enough
    /// that a chunk's envelopes stay small next to the journal's page cache.
    static let chunkLines = 1_024

    private var reader: NDJSONLineReader
    private let parser = JSONParser()
    private var ahead: BackgroundTask<Result<Chunk?, CLIError>>?
    /// A chunk the caller is done with, freed by the next read ahead.
    private var retired: Chunk?

    init(reader: NDJSONLineReader) {
        self.reader = reader
    }

    /// The next chunk (nil at the end of the input); starts reading the one after it.
    func next() throws(CLIError) -> Chunk? {
        try next(after: nil)
    }

    /// The next chunk, `previous` (the chunk the caller is done with) handed over to be freed
    /// on the reading thread: dropping a chunk's envelopes (a JSON tree each) would take time
    /// from the writer, which sets the pace.
    func next(after previous: Chunk?) throws(CLIError) -> Chunk? {
        let result = ahead?.wait() ?? read()
        ahead = nil
        retired = previous
        let chunk = try result.get()
        if chunk != nil {
            ahead = BackgroundTask { [self] in
                let next = read()
                // After the read: by then the caller has let go of its reference too.
                retired = nil
                return next
            }
        }
        return chunk
    }

    /// Waits for the read ahead (if any) and closes the input.
    func close() {
        _ = ahead?.wait()
        ahead = nil
        reader.close()
    }

    private func read() -> Result<Chunk?, CLIError> {
        var lines: [Importer.PreparedLine] = []
        lines.reserveCapacity(Self.chunkLines)
        do {
            while lines.count < Self.chunkLines, let line = try reader.next() {
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
