import EventStore
import JournalCore

/// `POST /v1/events`: the body is validated and appended exactly as `journal import` does it
/// (the same `Importer`, line by line, inside a write transaction), all or nothing. The answer
/// is made only after the transaction's commit returned, so after the events are durable.
enum EventsAppend {
    enum Outcome {
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
    struct Request {
        var lines: [InputLine]
        /// The stream `Journal-Expected-Version` applies to, and the version (−1: must not exist).
        var check: (stream: StreamName, version: Int64)?
    }

    /// The body's lines and its check; `.badRequest` when the header is given and the body's
    /// events are not all of one stream.
    static func prepare(body: [UInt8], expectedVersion: Int64?) -> Result<Request, Refusal> {
        let lines = NDJSONLineReader.lines(of: body)
        guard let expectedVersion else { return .success(Request(lines: lines)) }
        guard let stream = onlyStream(of: lines) else {
            return .failure(Refusal(reason: "Journal-Expected-Version needs a body whose events all belong to one stream"))
        }
        return .success(Request(lines: lines, check: (stream, expectedVersion)))
    }

    struct Refusal: Error {
        var reason: String
    }

    /// Validates and appends `request` inside `transaction`. When the outcome is not
    /// `.committed`, the caller must roll the transaction back: appends of this request may
    /// be in it. As with the store's own appends, a request whose every event is already in
    /// the journal succeeds (a retry of an answer that was lost) even when the stream has moved
    /// on since.
    static func apply(_ request: Request, in transaction: any EventStoreTransaction) throws(EventStoreError) -> Outcome {
        var mismatch: String?
        if let check = request.check {
            let actual = try transaction.lastVersion(of: check.stream)
            if (actual ?? -1) != check.version {
                mismatch = "stream \(SensitiveData.maskedText(check.stream.rawValue)) is at version "
                    + (actual.map(String.init) ?? "-1 (it does not exist)") + ", not \(check.version)"
            }
        }
        var errors = ImportErrorReport()
        var appended = 0
        var duplicates = 0
        var first: Int64?
        var last: Int64?
        var importer = Importer(transaction: transaction)
        for line in request.lines where !line.isBlank {
            switch try importer.importLine(line) {
            case .appended:
                appended += 1
                if first == nil { first = importer.lastAppendedPosition }
                last = importer.lastAppendedPosition
            case .duplicate:
                duplicates += 1
            case let .rejected(rejection):
                _ = errors.record(line: line.number, rejection)
            }
        }
        if let mismatch, appended > 0 { return .versionMismatch(mismatch) }
        if errors.count > 0 { return .rejected(errors) }
        return .committed(appended: appended, duplicates: duplicates, firstPosition: first, lastPosition: last)
    }

    /// The one stream every readable line names, or nil (no line names one, or several do).
    private static func onlyStream(of lines: [InputLine]) -> StreamName? {
        let parser = JSONParser()
        var name: String?
        for line in lines where !line.isBlank && line.problem == nil {
            guard let object = try? parser.parse(line.bytes).objectValue,
                  case let .string(stream)? = object["stream"] else { continue }
            if let name, name != stream { return nil }
            name = stream
        }
        return name.flatMap { try? StreamName($0) }
    }
}
