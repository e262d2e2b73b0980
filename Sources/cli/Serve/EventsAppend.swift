import EventStore
import JournalCore

/// `POST /v1/events`: the body is validated and appended exactly as `journal import` does it
/// (the same `Importer`, line by line, in one write transaction), all or nothing. The answer is
/// made only after `write` returned, so after the commit is durable.
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
    }

    /// Thrown inside the transaction to roll it back.
    private struct RollBack: Error {}

    /// `expectedVersion`: the `Journal-Expected-Version` header (−1: the stream must not exist).
    /// As with the store's own appends, a request whose every event is already in the journal
    /// succeeds (a retry of an answer that was lost) even when the stream has moved on since.
    static func run(body: [UInt8], expectedVersion: Int64?, store: any TransactionalEventStore) throws -> Outcome {
        let lines = NDJSONLineReader.lines(of: body)
        var checkedStream: StreamName?
        if expectedVersion != nil {
            guard let stream = onlyStream(of: lines) else {
                return .badRequest("Journal-Expected-Version needs a body whose events all belong to one stream")
            }
            checkedStream = stream
        }
        var errors = ImportErrorReport()
        var appended = 0
        var duplicates = 0
        var first: Int64?
        var last: Int64?
        var mismatch: String?
        do {
            try store.write { transaction in
                if let stream = checkedStream, let expected = expectedVersion {
                    let actual = try transaction.lastVersion(of: stream)
                    if (actual ?? -1) != expected {
                        mismatch = "stream \(SensitiveData.maskedText(stream.rawValue)) is at version "
                            + (actual.map(String.init) ?? "-1 (it does not exist)") + ", not \(expected)"
                    }
                }
                var importer = Importer(transaction: transaction)
                for line in lines where !line.isBlank {
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
                if errors.count > 0 || (mismatch != nil && appended > 0) { throw RollBack() }
            }
        } catch is RollBack {
            if let mismatch, appended > 0 || errors.count == 0 { return .versionMismatch(mismatch) }
            return .rejected(errors)
        }
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
