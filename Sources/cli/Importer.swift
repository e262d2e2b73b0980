import EventStore
import JournalCore

/// Validates and appends one line at a time inside one write transaction. Every rule of contract
/// §2–§3 is checked against what the journal holds and what earlier lines of the same input
/// appended (they are in the same transaction, so the store sees them).
struct Importer {
    /// What happened to a line.
    enum Outcome: Equatable {
        case appended
        /// The same id with the same content is already in the journal or earlier in the input.
        case duplicate
        case rejected(Rejection)
    }

    /// A rejected line: `line N: <stream> <type>: <reason>`, `-` for what could not be read.
    struct Rejection: Equatable {
        var stream: String?
        var type: String?
        var reason: String

        /// `<stream> <type>: <reason>`
        var report: String {
            "\(stream.map(Help.printable) ?? "-") \(type.map(Help.printable) ?? "-"): \(reason)"
        }
    }

    let transaction: any EventStoreTransaction
    private var cache: StreamStateCache
    private let parser = JSONParser()
    /// `recordedAt` for appended events; nil lets the store's clock decide.
    let recordedAt: Timestamp?

    init(transaction: any EventStoreTransaction, cacheCapacity: Int = 4096, recordedAt: Timestamp? = nil) {
        self.transaction = transaction
        self.cache = StreamStateCache(capacity: cacheCapacity)
        self.recordedAt = recordedAt
    }

    var cacheEvictions: Int { cache.evictions }

    /// Validates `line` and, when it is valid and new, appends it.
    /// - Throws: only failures of the store itself (I/O, a full disk), which end the import.
    mutating func importLine(_ line: InputLine) throws(EventStoreError) -> Outcome {
        if let problem = line.problem { return .rejected(Rejection(reason: problem.description)) }
        let envelope: Envelope
        do {
            envelope = try Envelope(line: line.bytes, parser: parser)
        } catch {
            return .rejected(Rejection(stream: error.stream, type: error.type, reason: error.description))
        }
        func reject(_ reason: String) -> Outcome {
            .rejected(Rejection(stream: envelope.stream, type: envelope.type, reason: reason))
        }

        if let stored = try transaction.event(withID: envelope.id) {
            if isSameContent(stored, envelope) { return .duplicate }
            return reject("id \(envelope.id) is already used by another event (position \(stored.position), "
                          + "\(stored.stream) \(stored.type))")
        }
        if let problem = SensitiveData.problem(data: envelope.data, meta: envelope.meta) {
            return reject(problem)
        }
        let stream: StreamName
        do {
            stream = try StreamName(envelope.stream)
        } catch {
            return reject("stream: \(error.message)")
        }
        var state: (fold: StreamFold, lastVersion: Int64?)
        if let cached = cache.get(envelope.stream) {
            state = cached
        } else {
            switch try fold(stream) {
            case let .success(folded): state = folded
            case let .failure(violation): return reject(violation.reason)
            }
        }
        do {
            try state.fold.apply(type: envelope.type, data: envelope.data, occurredAt: envelope.occurredAt)
        } catch {
            return reject(error.reason)
        }
        let event = ProposedEvent(id: envelope.id, type: envelope.type, occurredAt: envelope.occurredAt,
                                  data: envelope.dataBytes, meta: envelope.metaBytes, recordedAt: recordedAt)
        let expected: ExpectedVersion = state.lastVersion.map { .exact($0) } ?? .noStream
        let result: AppendResult
        do {
            result = try transaction.append([event], to: stream, expectedVersion: expected)
        } catch where error.code == .invalidInput || error.code == .tooLarge || error.code == .duplicateIDConflict {
            return reject(error.message)
        }
        cache.set(envelope.stream, fold: state.fold, lastVersion: result.lastVersion)
        return .appended
    }

    /// Folds a stream from the store (a stream not in the cache, new or evicted).
    private func fold(_ stream: StreamName) throws(EventStoreError)
        -> Result<(fold: StreamFold, lastVersion: Int64?), RuleViolation> {
        var fold: StreamFold
        do {
            fold = try StreamFold(stream: stream.rawValue)
        } catch {
            return .failure(error)
        }
        var lastVersion: Int64?
        var version: Int64 = 0
        let pageSize = 512
        while true {
            let page = try transaction.read(stream: stream, from: version, direction: .forward, limit: pageSize)
            for event in page {
                guard let data = try? parser.parse(event.data).objectValue else {
                    return .failure(RuleViolation(reason: "stored event at version \(event.version) has unreadable data"))
                }
                do {
                    try fold.apply(type: event.type, data: data, occurredAt: event.occurredAt)
                } catch {
                    return .failure(RuleViolation(
                        reason: "the stored stream no longer folds at version \(event.version): \(error.reason)"))
                }
                lastVersion = event.version
            }
            guard page.count == pageSize, let last = page.last else { break }
            version = last.version + 1
        }
        return .success((fold, lastVersion))
    }

    /// Contract §2: same stream, type, occurredAt, and data and meta equal as JSON values.
    private func isSameContent(_ stored: RecordedEvent, _ envelope: Envelope) -> Bool {
        guard stored.stream.rawValue == envelope.stream, stored.type == envelope.type,
              stored.occurredAt == envelope.occurredAt,
              let data = try? parser.parse(stored.data) else { return false }
        let meta: JSONValue
        if let bytes = stored.meta {
            guard let parsed = try? parser.parse(bytes) else { return false }
            meta = parsed
        } else {
            meta = .object(JSONObject())
        }
        return data.isEquivalent(to: .object(envelope.data))
            && meta.isEquivalent(to: .object(envelope.meta ?? JSONObject()))
    }
}
