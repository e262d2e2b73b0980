/// The interchange envelope of spec §2: one JSON object per NDJSON line.
///
/// ```
/// {"id":"<uuid>","stream":"3ds-<uuid>","type":"TransactionCreated",
///  "occurredAt":"2026-11-29T10:15:02.125Z","data":{…},"meta":{…}}
/// ```
///
/// Parsing checks the envelope only: required keys and their JSON types, the id (a UUID in
/// either case), the stream name (section 1: `3ds-<lowercase uuid>` or `card-<uuid>`), the exact
/// `occurredAt` format, and that no unknown top-level key is present. The journal-assigned keys
/// (`position`, `version`, `recordedAt`, `hash`) are accepted and ignored, so an export can be
/// imported again. Whether `type` is in the catalog and what `data` must hold is the domain's
/// business, not the envelope's.
///
/// `data` and `meta` keep key order and number spelling: they are stored and exported as given.
/// `"meta": null`, `"meta": {}` and no `meta` are the same, and all become `meta == nil`.
public struct Envelope: Sendable, Equatable {
    public var id: String
    public var stream: String
    public var type: String
    public var occurredAt: Timestamp
    public var data: JSONObject
    /// nil when `meta` was absent, `null` or `{}`.
    public var meta: JSONObject?

    public init(
        id: String, stream: String, type: String, occurredAt: Timestamp, data: JSONObject,
        meta: JSONObject? = nil
    ) {
        self.id = id
        self.stream = stream
        self.type = type
        self.occurredAt = occurredAt
        self.data = data
        self.meta = (meta?.isEmpty ?? true) ? nil : meta
    }

    /// The keys an import reads.
    public static let importedKeys: [String] = ["id", "stream", "type", "occurredAt", "data", "meta"]
    /// The keys the journal assigns: written on export, ignored on import.
    public static let journalAssignedKeys: [String] = ["position", "version", "recordedAt", "hash"]

    /// Reads an envelope from a parsed JSON line.
    ///
    /// - Throws: ``EnvelopeError`` naming the field at fault; it carries the stream and type when
    ///   they could be read, so an import can report `line N: <stream> <type>: <reason>`.
    public init(parsing value: JSONValue) throws(EnvelopeError) {
        guard case let .object(object) = value else {
            throw EnvelopeError(
                field: nil, reason: "expected a JSON object, found \(value.typeName)", kind: .notAnObject)
        }
        // Read stream and type first (leniently) so every later error can name them.
        let readableStream = object["stream"]?.stringValue
        let readableType = object["type"]?.stringValue
        func fail(_ field: String?, _ reason: String, kind: EnvelopeError.Kind) -> EnvelopeError {
            EnvelopeError(field: field, reason: reason, stream: readableStream, type: readableType, kind: kind)
        }

        for (key, _) in object
        where !Envelope.importedKeys.contains(key) && !Envelope.journalAssignedKeys.contains(key) {
            throw fail(
                key, "unknown top-level key (expected id, stream, type, occurredAt, data, meta)", kind: .unknownKey)
        }

        func requiredString(_ key: String) throws(EnvelopeError) -> String {
            guard let value = object[key] else { throw fail(key, "missing", kind: .missingKey) }
            guard case let .string(string) = value else {
                throw fail(key, "expected a string, found \(value.typeName)", kind: .wrongType)
            }
            return string
        }

        let id = try requiredString("id")
        guard UUIDText.isUUID(id) else {
            throw fail("id", "expected a UUID (8-4-4-4-12 hex digits)", kind: .invalidValue)
        }

        let stream = try requiredString("stream")
        if let reason = Envelope.streamNameProblem(stream) { throw fail("stream", reason, kind: .invalidValue) }

        let type = try requiredString("type")
        guard !type.isEmpty else { throw fail("type", "empty", kind: .invalidValue) }

        let occurredAtText = try requiredString("occurredAt")
        guard let occurredAt = Timestamp(occurredAtText) else {
            if let impossible = Timestamp.impossibleDateReason(occurredAtText) {
                throw fail("occurredAt", "not a valid date: \(impossible)", kind: .invalidDate)
            }
            throw fail(
                "occurredAt", "expected a UTC timestamp written as YYYY-MM-DDTHH:MM:SS.sssZ",
                kind: .invalidValue)
        }

        guard let dataValue = object["data"] else { throw fail("data", "missing", kind: .missingKey) }
        guard case let .object(data) = dataValue else {
            throw fail("data", "expected an object, found \(dataValue.typeName)", kind: .wrongType)
        }

        var meta: JSONObject?
        switch object["meta"] {
        case nil, .null?:
            meta = nil
        case let .object(metaObject)?:
            meta = metaObject
        case let other?:
            throw fail("meta", "expected an object or null, found \(other.typeName)", kind: .wrongType)
        }

        self.init(id: id, stream: stream, type: type, occurredAt: occurredAt, data: data, meta: meta)
    }

    /// Parses one NDJSON line (UTF-8 bytes, without its line feed) into an envelope.
    public init<Bytes: Collection>(line: Bytes, parser: JSONParser = JSONParser()) throws(EnvelopeError)
    where Bytes.Element == UInt8 {
        let value: JSONValue
        do {
            value = try parser.parse(line)
        } catch {
            throw EnvelopeError(field: nil, reason: error.description, kind: .notJSON)
        }
        try self.init(parsing: value)
    }

    /// Why `name` is not a stream name of spec §1, or nil when it is one.
    public static func streamNameProblem(_ name: String) -> String? {
        if name.hasPrefix("3ds-") {
            return UUIDText.isLowercaseUUID(name.dropFirst(4))
                ? nil : "a 3ds stream is 3ds-<sdkTransID>, a lowercase UUID"
        }
        if name.hasPrefix("card-") {
            return UUIDText.isUUID(name.dropFirst(5)) ? nil : "a card stream is card-<digitizationID>, a UUID"
        }
        return "unknown stream category (expected 3ds-<uuid> or card-<uuid>)"
    }

    /// The stream's category (`3ds`, `card`): the part before the first `-`.
    public var category: Substring { stream.prefix(while: { $0 != "-" }) }

    /// `data` as compact JSON text, exactly as received (key order and number spelling kept).
    public var dataBytes: [UInt8] { JSONWriter.bytes(.object(data)) }

    /// `meta` as compact JSON text, or nil when absent.
    public var metaBytes: [UInt8]? { meta.map { JSONWriter.bytes(.object($0)) } }

    /// True when both envelopes carry the same event in the sense of spec §2's idempotency
    /// rule: the same id, stream, type and occurredAt, and `data` and `meta` equal as JSON values
    /// (key order and number spelling do not matter; absent, null and empty meta are equal).
    public func isSameContent(as other: Envelope) -> Bool {
        id == other.id && stream == other.stream && type == other.type && occurredAt == other.occurredAt
            && JSONValue.object(data).isEquivalent(to: .object(other.data))
            && JSONValue.object(meta ?? JSONObject()).isEquivalent(to: .object(other.meta ?? JSONObject()))
    }
}

/// Why a line is not a valid envelope. Never holds payload values, only key names and reasons.
public struct EnvelopeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The top-level key at fault (`occurredAt`, `meta`, …), nil when the line as a whole is bad.
    public var field: String?
    public var reason: String
    /// The line's `stream` and `type` when they were strings, for the report.
    public var stream: String?
    public var type: String?
    public var kind: Kind

    /// What is wrong, for grouping errors by rule.
    public enum Kind: Sendable, Equatable {
        /// The line is not JSON at all.
        case notJSON
        /// The line is JSON but not an object.
        case notAnObject
        /// A top-level key the envelope does not have (`field` names it).
        case unknownKey
        /// A required key is absent.
        case missingKey
        /// A key holds the wrong JSON type.
        case wrongType
        /// A key holds a value of the right type that breaks its rule (format, UUID, stream name).
        case invalidValue
        /// `occurredAt` is written in the right format but names no instant (February 30, hour 25).
        case invalidDate
    }

    public init(
        field: String?, reason: String, stream: String? = nil, type: String? = nil,
        kind: Kind = .invalidValue
    ) {
        self.field = field
        self.reason = reason
        self.stream = stream
        self.type = type
        self.kind = kind
    }

    /// `occurredAt: expected …`, or just the reason when no field is at fault.
    public var description: String {
        guard let field else { return reason }
        return "\(field): \(reason)"
    }
}
