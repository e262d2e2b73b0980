import Domain
import EventStore
import JournalApp
import JournalCore

extension Journal {
    /// What an append did, as `journal import --format json` counts it.
    public struct AppendSummary: Sendable, Equatable {
        /// Lines read, blank lines included (events, for a typed append).
        public var lines: Int
        /// Events appended.
        public var appended: Int
        /// Events already in the journal with the same id and content: nothing was written for
        /// them (an append may be retried safely).
        public var duplicates: Int
        /// The position of the last event appended, nil when nothing new was appended.
        public var lastPosition: Int64?

        /// A summary of these counts (for comparing in tests).
        public init(lines: Int, appended: Int, duplicates: Int, lastPosition: Int64? = nil) {
            self.lines = lines
            self.appended = appended
            self.duplicates = duplicates
            self.lastPosition = lastPosition
        }
    }

    /// An event of the catalog to append, typed: the front door writes its envelope and checks
    /// it exactly as a line of `journal import`.
    public struct NewEvent: Sendable {
        /// The event's id: a UUID, unique in the journal (the idempotency key).
        public var id: String
        /// The stream: `3ds-<lowercase uuid>` or `card-<uuid>`.
        public var stream: String
        /// When the event happened, as the client saw it.
        public var occurredAt: Timestamp
        /// The event and its fields.
        public var event: DomainEvent
        /// Optional context (`platform`, `sdkVersion`, …), checked by the guard like `data`.
        public var meta: JSONObject?

        /// An event `event` of `stream` with id `id`.
        public init(id: String, stream: String, occurredAt: Timestamp, event: DomainEvent, meta: JSONObject? = nil) {
            self.id = id
            self.stream = stream
            self.occurredAt = occurredAt
            self.event = event
            self.meta = meta
        }

        /// The envelope's NDJSON line (no line feed), keys in the order of spec §2.
        public var line: String {
            var object = JSONObject()
            object["id"] = .string(id)
            object["stream"] = .string(stream)
            object["type"] = .string(event.typeName)
            object["occurredAt"] = .string(occurredAt.description)
            object["data"] = .object(event.data)
            if let meta { object["meta"] = .object(meta) }
            return JSONWriter.string(.object(object))
        }
    }

    /// Appends NDJSON envelope lines, one event per line, with the validation of `journal
    /// import`: JSON, the envelope, the catalog, each stream's rules (against the journal and the
    /// earlier lines), the sensitive-data guard, and idempotency (an id already stored with the
    /// same content is a duplicate and changes nothing; with other content it is rejected).
    ///
    /// All or nothing, in one write transaction: when any line is invalid nothing is written
    /// and the error lists every invalid line as `journal import` reports it. Committed means
    /// durable (the store's commit, as after `journal import`).
    ///
    /// - Parameters:
    ///   - ndjson: the lines; blank lines are skipped but counted, a CR before an LF is dropped.
    ///   - expectedVersion: for a writer that read a stream before deciding, the version that
    ///     stream must still have (`.noStream`, `.exact(v)`, `.streamExists`; `.any` checks
    ///     nothing). Checked in the same transaction, and only when the append writes something,
    ///     so a retried append whose events are all duplicates succeeds.
    /// - Throws: ``JournalError`` with status `.inputRejected` (3) and ``JournalError/rejections``
    ///   for invalid lines; `.conflict` (5) when `expectedVersion` does not hold or another
    ///   writer held the lock too long; `.failure` (1) for I/O errors.
    @discardableResult
    public func append(ndjson: String, expectedVersion: (stream: String, version: ExpectedVersion)? = nil)
        throws(JournalError) -> AppendSummary
    {
        try append(lines: NDJSONLineReader.lines(of: Array(ndjson.utf8)), expectedVersion: expectedVersion)
    }

    /// Appends typed events of the catalog: each becomes its envelope line (``NewEvent/line``)
    /// and goes through exactly the checks of ``append(ndjson:expectedVersion:)``; a rejection's
    /// `line` is the event's index plus one.
    ///
    /// - Parameter expectedVersion: the version `stream` must have before the append (see
    ///   ``append(ndjson:expectedVersion:)``).
    /// - Throws: ``JournalError`` as ``append(ndjson:expectedVersion:)`` does.
    @discardableResult
    public func append(_ events: [NewEvent], expectedVersion: (stream: String, version: ExpectedVersion)? = nil)
        throws(JournalError) -> AppendSummary
    {
        // One line per event: the envelope's JSON escapes every line feed, so event i is line i + 1.
        let text = events.map(\.line).joined(separator: "\n")
        return try append(lines: NDJSONLineReader.lines(of: Array(text.utf8)), expectedVersion: expectedVersion)
    }

    /// Thrown inside the write transaction to roll it back.
    private struct RollBack: Error {
        var conflict: CLIError?
    }

    private func append(lines: [InputLine], expectedVersion: (stream: String, version: ExpectedVersion)?)
        throws(JournalError) -> AppendSummary
    {
        var summary = AppendSummary(lines: lines.count, appended: 0, duplicates: 0)
        var errors = ImportErrorReport()
        var rejections: [JournalError.Rejection] = []
        let expected = try reported { try expectedVersion.map { (try StreamName($0.stream), $0.version) } }
        let parser = JSONParser()
        do {
            try store.write { transaction in
                // Read before the first line: the lines append to the stream.
                let before = try expected.map { try transaction.lastVersion(of: $0.0) }
                var importer = Importer(transaction: transaction)
                for line in lines {
                    let prepared = Importer.prepare(line, parser: parser)
                    if case .blank = prepared.content { continue }
                    switch try importer.importPrepared(prepared) {
                    case .appended:
                        summary.appended += 1
                    case .duplicate:
                        summary.duplicates += 1
                    case let .rejected(rejection):
                        _ = errors.record(line: line.number, rejection)
                        if rejections.count < 1_000 {
                            rejections.append(JournalError.Rejection(line: line.number, rejection))
                        }
                    }
                }
                if errors.count > 0 { throw RollBack() }
                if let expected, summary.appended > 0, let conflict = Self.conflict(expected, before) {
                    throw RollBack(conflict: conflict)
                }
                summary.lastPosition = importer.lastAppendedPosition
            }
        } catch let rollBack as RollBack {
            if let conflict = rollBack.conflict { throw JournalError(conflict) }
            throw JournalError(
                status: .inputRejected,
                messages: rejections.prefix(100).map(\.message) + errors.summaryLines + [
                    "\(errors.count) of \(TextRendering.counted(lines.count, "line")) rejected; nothing was written"
                ],
                rejections: rejections)
        } catch {
            throw JournalError(error)
        }
        return summary
    }

    /// The conflict when the stream's version before the append is not `expected`.
    private static func conflict(_ expected: (StreamName, ExpectedVersion), _ before: Int64??) -> CLIError? {
        let last = before ?? nil
        let holds: Bool
        switch expected.1 {
        case .any: holds = true
        case .noStream: holds = last == nil
        case .streamExists: holds = last != nil
        case let .exact(version): holds = last == version
        }
        guard !holds else { return nil }
        return CLIError.reporting(
            EventStoreError(
                code: .conflict,
                message: "\(expected.0) expected \(expected.1), is at \(last.map { "version \($0)" } ?? "no stream")",
                stream: expected.0.rawValue, expectedVersion: expected.1, actualVersion: last))
    }
}

extension JournalError.Rejection {
    init(line: Int, _ rejection: Importer.Rejection) {
        self.line = line
        self.rule = rejection.rule
        self.stream = rejection.stream
        self.type = rejection.type
        self.reason = rejection.reason
        self.message =
            "line \(line): \(rejection.stream.map(TextRendering.printable) ?? "-") "
            + "\(rejection.type.map(TextRendering.printable) ?? "-"): \(rejection.reason)"
    }
}
