import EventStore
import JournalApp
import JournalCore

/// `POST /v1/events`: the body is validated and appended exactly as `journal import` does it
/// (the same `Importer`, line by line, inside a write transaction), all or nothing. The answer
/// is made only after the transaction's commit returned, so after the events are durable.
package enum EventsAppend {
    package enum Outcome {
        /// 200: positions nil when nothing was appended.
        case committed(appended: Int, duplicates: Int, firstPosition: Int64?, lastPosition: Int64?)
        /// 422: nothing was written.
        case rejected(ImportErrorReport)
        /// 409: `Journal-Expected-Version` did not hold; nothing was written.
        case versionMismatch(String)
        /// 400: the request cannot be applied as asked.
        case badRequest(String)

        var isCommitted: Bool {
            switch self {
            case .committed: return true
            case .rejected, .versionMismatch, .badRequest: return false
            }
        }
    }

    /// One request's events, split into lines, with its version check.
    package struct Request {
        /// The non-blank lines: checked already (`Importer.prepare`) for a small body, as read
        /// for a large one (checked a chunk at a time by `PreparedChunks` during the
        /// transaction, which keeps the parsed events of two chunks in memory rather than of
        /// the whole body).
        var lines: Lines
        /// The stream `Journal-Expected-Version` applies to, and the version (−1: must not exist).
        var check: (stream: StreamName, version: Int64)?

        package enum Lines {
            case checked([(number: Int, line: Importer.PreparedLine)])
            case read([InputLine])
        }

        /// A line was refused by the checks that need no journal: the request is a 422 whatever
        /// the journal holds, and is judged apart from the requests that may commit.
        var refusedEarly: Bool {
            guard case let .checked(lines) = lines else { return false }
            return lines.contains { if case .rejected = $0.line.content { return true } else { return false } }
        }
    }

    /// Bodies of at most this many lines are checked by `prepare` on the caller's thread; larger
    /// ones line by line in the transaction.
    static let maxCheckedLines = 256

    /// The body's lines and its check; `.badRequest` when the header is given and the body's
    /// events are not all of one stream.
    static func prepare(body: [UInt8], expectedVersion: Int64?) -> Result<Request, Refusal> {
        let lines = NDJSONLineReader.lines(of: body).filter { !$0.isBlank }
        var check: (stream: StreamName, version: Int64)?
        if let expectedVersion {
            guard let stream = onlyStream(of: lines) else {
                return .failure(
                    Refusal(reason: "Journal-Expected-Version needs a body whose events all belong to one stream"))
            }
            check = (stream, expectedVersion)
        }
        guard lines.count <= maxCheckedLines else { return .success(Request(lines: .read(lines), check: check)) }
        let parser = JSONParser()
        return .success(
            Request(
                lines: .checked(lines.map { ($0.number, Importer.prepare($0, parser: parser)) }),
                check: check))
    }

    package struct Refusal: Error {
        var reason: String
    }

    /// Validates and appends `request` with `importer` (inside its transaction, which it may
    /// share with the requests before it). When the outcome is not `.committed`, the caller
    /// must roll the transaction back: appends of this request may be in it. As with the
    /// store's own appends, a request whose every event is already in the journal succeeds (a
    /// retry of an answer that was lost) even when the stream has moved on since.
    static func apply(_ request: Request, with importer: inout Importer) throws(EventStoreError) -> Outcome {
        var mismatch: String?
        if let check = request.check {
            guard let transaction = importer.transaction else {
                preconditionFailure("a request is applied inside a write transaction")
            }
            let actual = try transaction.lastVersion(of: check.stream)
            if (actual ?? -1) != check.version {
                mismatch =
                    "stream \(SensitiveData.maskedText(check.stream.rawValue)) is at version "
                    + (actual.map(String.init) ?? "-1 (it does not exist)") + ", not \(check.version)"
            }
        }
        var errors = ImportErrorReport()
        var appended = 0
        var duplicates = 0
        var first: Int64?
        var last: Int64?
        func count(_ outcome: Importer.Outcome, line: Int, position: Int64?) {
            switch outcome {
            case .appended:
                appended += 1
                if first == nil { first = position }
                last = position
            case .duplicate:
                duplicates += 1
            case let .rejected(rejection):
                _ = errors.record(line: line, rejection)
            }
        }
        switch request.lines {
        case let .checked(lines):
            for (number, line) in lines {
                let outcome = try importer.importPrepared(line)
                count(outcome, line: number, position: importer.lastAppendedPosition)
            }
        case let .read(lines):
            // As `journal import` does: the next chunk's lines are prepared on another thread
            // while this one is validated against the journal and appended.
            let chunks = PreparedChunks(lines)
            defer { chunks.finish() }
            while let chunk = chunks.next() {
                for prepared in chunk {
                    let outcome = try importer.importPrepared(prepared)
                    count(outcome, line: prepared.line.number, position: importer.lastAppendedPosition)
                }
            }
        }
        if let mismatch, appended > 0 { return .versionMismatch(mismatch) }
        if errors.count > 0 { return .rejected(errors) }
        return .committed(appended: appended, duplicates: duplicates, firstPosition: first, lastPosition: last)
    }

    /// A large body's lines, prepared (`Importer.prepare`) a chunk at a time: each chunk is
    /// prepared on another thread while the writer applies the one before, so that at most two
    /// chunks of parsed events are in memory, whatever the body's size.
    package struct PreparedChunks {
        private let chunks: ChunksAhead<[Importer.PreparedLine], Never>

        init(_ lines: [InputLine]) {
            var start = 0
            chunks = ChunksAhead {
                let chunk = lines[start..<min(start + Self.chunkLines, lines.count)]
                start += chunk.count
                return .success(chunk.isEmpty ? nil : Self.prepare(chunk))
            }
        }

        /// The next chunk in order (nil after the last); starts preparing the one after it.
        func next() -> [Importer.PreparedLine]? { chunks.next() }

        /// Waits for a chunk still being prepared (an apply that ended early).
        func finish() { chunks.finish() }

        static let chunkLines = PreparedLines.chunkLines

        private static func prepare(_ lines: ArraySlice<InputLine>) -> [Importer.PreparedLine] {
            let parser = JSONParser()
            return lines.map { Importer.prepare($0, parser: parser) }
        }
    }

    /// The one stream every readable line names, or nil (no line names one, or several do).
    private static func onlyStream(of lines: [InputLine]) -> StreamName? {
        let parser = JSONParser()
        var name: String?
        for line in lines where line.problem == nil {
            guard let object = try? parser.parse(line.bytes).objectValue,
                case let .string(stream)? = object["stream"]
            else { continue }
            if let name, name != stream { return nil }
            name = stream
        }
        return name.flatMap { try? StreamName($0) }
    }
}
