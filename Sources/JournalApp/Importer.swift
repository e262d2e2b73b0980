import EventStore
import JournalCore

/// Validates and appends one line at a time inside one write transaction. Every rule of spec
/// §2–§3 is checked against what the journal holds and what earlier lines of the same input
/// appended (they are in the same transaction, so the store sees them).
package struct Importer {
    /// What happened to a line.
    package enum Outcome: Equatable {
        case appended
        /// The same id with the same content is already in the journal or earlier in the input.
        case duplicate
        case rejected(Rejection)
    }

    /// A rejected line: `line N: <stream> <type>: <reason>`, `-` for what could not be read,
    /// and the identifier of the rule it breaks (`json`, `envelope.unknown-key`,
    /// `sensitive-data`, `3ds.request-counter`, …). Stream, type and reason are masked when
    /// made (every run of 13 to 19 digits becomes `[redacted]`), so no report can echo a card
    /// number, whatever the line held.
    package struct Rejection: Equatable {
        package private(set) var stream: String?
        package private(set) var type: String?
        package private(set) var reason: String
        package private(set) var rule: String

        package init(stream: String? = nil, type: String? = nil, reason: String, rule: String) {
            self.stream = stream.map(SensitiveData.maskedText)
            self.type = type.map(SensitiveData.maskedText)
            self.reason = SensitiveData.maskedText(reason)
            self.rule = rule
        }

        /// `<stream> <type>: <reason>`
        var report: String {
            "\(stream.map(TextRendering.printable) ?? "-") \(type.map(TextRendering.printable) ?? "-"): \(reason)"
        }
    }

    /// Where the lines go: a write transaction of the store, or the load of a new journal.
    private enum Target {
        case transaction(any EventStoreTransaction)
        /// A journal that held no events: no id can be stored already, and a stream that is
        /// not in the cache is new unless the cache dropped it, so the store is never asked.
        case load(any EventLoadWriting)
    }

    private let target: Target
    private var cache: StreamStateCache
    private let parser = JSONParser()
    /// `recordedAt` for appended events; nil lets the store's clock decide.
    let recordedAt: Timestamp?

    package init(transaction: any EventStoreTransaction, cacheCapacity: Int = 4096, recordedAt: Timestamp? = nil) {
        self.target = .transaction(transaction)
        self.cache = StreamStateCache(capacity: cacheCapacity)
        self.recordedAt = recordedAt
    }

    /// An importer into a new journal's load: the same checks, without asking the store. A
    /// stream the cache dropped cannot be folded again (the load has no reads): its next event
    /// is refused with `Importer.droppedStreamRule`, and the caller imports again through the
    /// store. The cache holds more streams than the store's importer, since a load is dropped
    /// for a stream that comes back after it left the cache.
    package init(load: any EventLoadWriting, cacheCapacity: Int = 16_384, recordedAt: Timestamp? = nil) {
        self.target = .load(load)
        self.cache = StreamStateCache(capacity: cacheCapacity, remembersDropped: true)
        self.recordedAt = recordedAt
    }

    /// Whether this importer writes a new journal's load.
    package var isLoad: Bool {
        switch target {
        case .transaction: return false
        case .load: return true
        }
    }

    /// The write transaction (nil for a load).
    package var transaction: (any EventStoreTransaction)? {
        switch target {
        case let .transaction(transaction): return transaction
        case .load: return nil
        }
    }

    var cacheEvictions: Int { cache.evictions }

    /// The position of the last event this importer appended (nil before the first).
    package private(set) var lastAppendedPosition: Int64?

    /// A line with the checks that need nothing but the line done: read as JSON, as an envelope,
    /// through the sensitive-data guard, its stream name checked. Made on any thread
    /// (`PreparedLines` makes them ahead of the writer); `importPrepared` does the rest.
    package struct PreparedLine: Sendable {
        package enum Content: Sendable {
            /// An empty or whitespace-only line: skipped, but counted.
            case blank
            /// Refused by the line alone.
            case rejected(Rejection)
            /// A valid envelope, with its data and meta as the compact JSON text the store
            /// keeps; the stream name's check is kept for its turn (a duplicate id is reported
            /// before a bad stream name).
            case envelope(CheckedEnvelope, stream: Result<StreamName, EventStoreError>, payload: Payload)
        }

        package var line: InputLine
        package var content: Content
    }

    /// A valid envelope's fields other than its data and meta (which are in its `Payload`).
    package struct CheckedEnvelope: Sendable {
        var id: String
        var stream: String
        var type: String
        var occurredAt: Timestamp
    }

    /// An envelope's data and meta encoded for the store (`Envelope.dataBytes`, `metaBytes`),
    /// and the parsed data when the line was read as a tree (so the fold does not parse it again).
    package struct Payload: Sendable {
        var data: [UInt8]
        var meta: [UInt8]?
        var parsedData: JSONObject?
    }

    /// Validates `line` and, when it is valid and new, appends it.
    /// - Throws: only failures of the store itself (I/O, a full disk), which end the import.
    mutating func importLine(_ line: InputLine) throws(EventStoreError) -> Outcome {
        try importPrepared(Self.prepare(line, parser: parser))
    }

    /// The checks of `line` that need neither the journal nor the lines before it.
    package static func prepare(_ line: InputLine, parser: JSONParser) -> PreparedLine {
        if let problem = line.problem {
            return PreparedLine(
                line: line, content: .rejected(Rejection(reason: problem.description, rule: problem.rule)))
        }
        // The common line is read field by field; any other goes through the JSON tree, which
        // gives every error.
        if let (checked, payload) = EnvelopeFieldReader.read(line.bytes) {
            let stream = Result { () throws(EventStoreError) in try StreamName(checked.stream) }
            return PreparedLine(line: line, content: .envelope(checked, stream: stream, payload: payload))
        }
        let envelope: Envelope
        do {
            envelope = try Envelope(line: line.bytes, parser: parser)
        } catch {
            var reason = error.description
            if error.kind == .unknownKey, let key = error.field {
                reason += NameSuggestion.hint(for: key, among: Self.envelopeKeys)
            }
            return PreparedLine(
                line: line,
                content: .rejected(
                    Rejection(
                        stream: error.stream, type: error.type,
                        reason: reason, rule: Self.rule(of: error))))
        }
        // Sensitive data first: a refused value is the most important thing to report, and no
        // stored event (so no true duplicate) can hold one.
        if let problem = SensitiveData.problem(data: envelope.data, meta: envelope.meta) {
            return PreparedLine(
                line: line,
                content: .rejected(
                    Rejection(
                        stream: envelope.stream, type: envelope.type,
                        reason: problem, rule: SensitiveData.rule)))
        }
        let stream = Result { () throws(EventStoreError) in try StreamName(envelope.stream) }
        let payload = Payload(data: envelope.dataBytes, meta: envelope.metaBytes, parsedData: envelope.data)
        let checked = CheckedEnvelope(
            id: envelope.id, stream: envelope.stream, type: envelope.type, occurredAt: envelope.occurredAt)
        return PreparedLine(line: line, content: .envelope(checked, stream: stream, payload: payload))
    }

    /// Validates a prepared line against the journal and the lines before it and, when it is
    /// valid and new, appends it.
    /// - Throws: only failures of the store itself (I/O, a full disk), which end the import.
    package mutating func importPrepared(_ prepared: consuming PreparedLine) throws(EventStoreError) -> Outcome {
        let envelope: CheckedEnvelope
        let checkedStream: Result<StreamName, EventStoreError>
        let payload: Payload
        switch prepared.content {
        case .blank: preconditionFailure("a blank line is skipped before it is imported")
        case let .rejected(rejection): return .rejected(rejection)
        case let .envelope(valid, stream, encoded):
            envelope = valid
            checkedStream = stream
            payload = encoded
        }
        func reject(_ reason: String, rule: String) -> Outcome {
            .rejected(Rejection(stream: envelope.stream, type: envelope.type, reason: reason, rule: rule))
        }
        if case let .transaction(transaction) = target, let stored = try transaction.event(withID: envelope.id) {
            guard let difference = firstDifference(stored, envelope, payload) else { return .duplicate }
            return reject(
                "id \(envelope.id) is already used by another event (position \(stored.position), "
                    + "\(stored.stream) \(stored.type)): \(difference) differs", rule: Self.duplicateIDRule)
        }
        let stream: StreamName
        switch checkedStream {
        case let .success(valid): stream = valid
        case let .failure(error): return reject("stream: \(error.message)", rule: Rejection.streamNameRule)
        }
        var state: (fold: StreamFold, lastVersion: Int64?)
        if let cached = cache.get(envelope.stream) {
            state = cached
        } else {
            switch try fold(stream) {
            case let .success(folded): state = folded
            case let .failure(violation): return reject(violation.reason, rule: violation.rule)
            }
        }
        // A line read as a tree folds from its tree, any other from its data's bytes in place.
        let violation: RuleViolation? = payload.data.withUnsafeBytes { bytes in
            do throws(RuleViolation) {
                if let data = payload.parsedData {
                    try state.fold.apply(type: envelope.type, data: data, occurredAt: envelope.occurredAt)
                } else {
                    try state.fold.apply(
                        type: envelope.type, dataBytes: bytes, occurredAt: envelope.occurredAt, parser: parser)
                }
                return nil
            } catch {
                return error
            }
        }
        if let violation { return reject(violation.reason, rule: violation.rule) }
        let event = ProposedEvent(
            id: envelope.id, type: envelope.type, occurredAt: envelope.occurredAt,
            data: payload.data, meta: payload.meta, recordedAt: recordedAt)
        let expected: ExpectedVersion = state.lastVersion.map { .exact($0) } ?? .noStream
        let result: (lastVersion: Int64?, position: Int64?)
        do {
            switch target {
            case let .transaction(transaction):
                let appended = try transaction.append([event], to: stream, expectedVersion: expected)
                result = (appended.lastVersion, appended.positions.last)
            case let .load(load):
                let position = try load.append(event, to: stream, expectedVersion: expected)
                result = ((state.lastVersion ?? -1) + 1, position)
            }
        } catch  where error.code == .invalidInput || error.code == .tooLarge || error.code == .duplicateIDConflict {
            let rule =
                error.code == .duplicateIDConflict
                ? Self.duplicateIDRule
                : error.code == .tooLarge ? "store.too-large" : "store.invalid"
            return reject(error.message, rule: rule)
        }
        cache.set(envelope.stream, fold: state.fold, lastVersion: result.lastVersion)
        lastAppendedPosition = result.position
        return .appended
    }

    /// Folds a stream from the store (a stream not in the cache, new or evicted).
    private func fold(_ stream: StreamName) throws(EventStoreError)
        -> Result<(fold: StreamFold, lastVersion: Int64?), RuleViolation>
    {
        var fold: StreamFold
        do {
            fold = try StreamFold(stream: stream.rawValue)
        } catch {
            return .failure(error)
        }
        var lastVersion: Int64?
        var version: Int64 = 0
        let pageSize = 512
        // A load's stream that is not in the cache is new, unless the cache dropped it.
        guard case let .transaction(transaction) = target else {
            guard !cache.mayHaveDropped(stream.rawValue) else {
                return .failure(
                    RuleViolation(
                        reason: "the load's stream cache dropped this stream; it can only be folded from the store",
                        rule: Self.droppedStreamRule))
            }
            return .success((fold, nil))
        }
        while true {
            let page = try transaction.read(stream: stream, from: version, direction: .forward, limit: pageSize)
            for event in page {
                guard let data = try? parser.parse(event.data).objectValue else {
                    return .failure(
                        RuleViolation(reason: "stored event at version \(event.version) has unreadable data"))
                }
                do {
                    try fold.apply(type: event.type, data: data, occurredAt: event.occurredAt)
                } catch {
                    return .failure(
                        RuleViolation(
                            reason: "the stored stream no longer folds at version \(event.version): \(error.reason)"))
                }
                lastVersion = event.version
            }
            guard page.count == pageSize, let last = page.last else { break }
            version = last.version + 1
        }
        return .success((fold, lastVersion))
    }

    /// Spec §2: the same content is the same stream, type, occurredAt, and data and meta
    /// equal as JSON values. Returns nil for the same content, else the first field that
    /// differs (`type`, `stream`, `occurredAt`, `data.<key>`, `meta.<key>`), never a value.
    private func firstDifference(_ stored: RecordedEvent, _ envelope: CheckedEnvelope, _ payload: Payload)
        -> String?
    {
        if stored.type != envelope.type { return "type" }
        if stored.stream.rawValue != envelope.stream { return "stream" }
        if stored.occurredAt != envelope.occurredAt { return "occurredAt" }
        guard let data = try? parser.parse(stored.data).objectValue else { return "data" }
        // The new event's data and meta are compact JSON of objects the line held.
        let newData = payload.parsedData ?? (try? parser.parse(payload.data).objectValue) ?? JSONObject()
        if let key = Self.firstDifferentKey(data, newData) { return "data" + key }
        var meta = JSONObject()
        if let bytes = stored.meta {
            guard let parsed = try? parser.parse(bytes).objectValue else { return "meta" }
            meta = parsed
        }
        let newMeta = payload.meta.flatMap { try? parser.parse($0).objectValue } ?? JSONObject()
        if let key = Self.firstDifferentKey(meta, newMeta) { return "meta" + key }
        return nil
    }

    /// `.<key>` (or `["odd key"]`) of the first key, in the new object's order and then the
    /// stored one's, whose values are not equivalent JSON; nil when the objects are equivalent.
    private static func firstDifferentKey(_ stored: JSONObject, _ new: JSONObject) -> String? {
        if JSONValue.object(stored).isEquivalent(to: .object(new)) { return nil }
        func path(_ key: String) -> String {
            let plain =
                key.utf8.first.map { !($0 >= 0x30 && $0 <= 0x39) } == true
                && key.utf8.allSatisfy { byte in
                    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
                }
            return plain ? "." + key : "[" + JSONWriter.string(.string(key)) + "]"
        }
        for entry in new.entries {
            guard let old = stored[entry.key], old.isEquivalent(to: entry.value) else { return path(entry.key) }
        }
        for entry in stored.entries where new[entry.key] == nil { return path(entry.key) }
        return "" // equal keys and values in another arrangement (duplicate keys)
    }

    // MARK: - Rule identifiers

    /// The same id with other content.
    static let duplicateIDRule = "duplicate-id"

    /// A load's stream that left the cache and came back (never reported: the import then
    /// starts again through the store).
    static let droppedStreamRule = "load.dropped-stream"

    /// The top-level keys an envelope may have, for "did you mean".
    static let envelopeKeys = Envelope.importedKeys + Envelope.journalAssignedKeys

    /// The rule an envelope error breaks: `json`, `envelope.unknown-key`, `envelope.occurredAt`…
    static func rule(of error: EnvelopeError) -> String {
        switch error.kind {
        case .notJSON: return "json"
        case .notAnObject: return "envelope.not-object"
        case .unknownKey: return "envelope.unknown-key"
        case .missingKey: return "envelope.missing-key"
        case .wrongType: return "envelope.wrong-type"
        case .invalidDate: return "envelope.invalid-date"
        case .invalidValue:
            if error.field == "stream" { return Rejection.streamNameRule }
            return "envelope." + (error.field ?? "line")
        }
    }
}

extension Importer.Rejection {
    /// A stream name that breaks spec §1 (the domain's identifier).
    static let streamNameRule = "stream.name"
}

extension InputLineProblem {
    /// The rule identifier of an unreadable line.
    var rule: String {
        switch self {
        case .tooLong: return "line.too-long"
        case .byteOrderMark: return "line.byte-order-mark"
        case .nulByte: return "line.nul-byte"
        case .invalidUTF8: return "line.invalid-utf8"
        case .encoding: return "input.utf-16"
        }
    }
}
