import JournalCore

/// The events of a `3ds` stream (contract §3.1).
///
/// NOTE: the type names and field names are the journal's storage format; change them never.
///
/// Every payload keeps its `data` object: exactly as received when decoded (unknown extra fields
/// in their order, numbers as written), canonical when built by a command. So
/// `try ThreeDSEvent.decode(type: t, data: d).data == d` for every valid `d`.
public enum ThreeDSEvent: Sendable, Equatable {
    case transactionCreated(TransactionCreated)
    case authRequestParametersCreated(AuthRequestParametersCreated)
    case authResponseReceived(AuthResponseReceived)
    case transactionClosed(NoFields)
    case challengeStarted(ChallengeStarted)
    case challengeRequestSent(ChallengeRequestSent)
    case challengeResponseReceived(ChallengeResponseReceived)
    case challengeCompleted(ChallengeCompleted)
    case challengeCancelled(NoFields)
    case challengeTimedOut(NoFields)
    case protocolErrorOccurred(ProtocolErrorOccurred)
    case runtimeErrorOccurred(RuntimeErrorOccurred)

    /// Every event type name of the category, in catalog order.
    public static let typeNames: [String] = [
        "TransactionCreated", "AuthRequestParametersCreated", "AuthResponseReceived", "TransactionClosed",
        "ChallengeStarted", "ChallengeRequestSent", "ChallengeResponseReceived", "ChallengeCompleted",
        "ChallengeCancelled", "ChallengeTimedOut", "ProtocolErrorOccurred", "RuntimeErrorOccurred",
    ]

    /// Decodes the `data` object of an event of type `type`, checking every field rule of the
    /// catalog (state rules are the aggregate's job).
    ///
    /// - Throws: ``EventDecodingError`` naming the type, the field and the rule; kind
    ///   `.unknownType` when `type` is not a `3ds` event type.
    public static func decode(type: String, data: JSONObject) throws(EventDecodingError) -> ThreeDSEvent {
        switch type {
        case "TransactionCreated": return .transactionCreated(try .init(decoding: FieldReader(type, data)))
        case "AuthRequestParametersCreated":
            return .authRequestParametersCreated(try .init(decoding: FieldReader(type, data)))
        case "AuthResponseReceived": return .authResponseReceived(try .init(decoding: FieldReader(type, data)))
        case "TransactionClosed": return .transactionClosed(NoFields(data: data))
        case "ChallengeStarted": return .challengeStarted(try .init(decoding: FieldReader(type, data)))
        case "ChallengeRequestSent": return .challengeRequestSent(try .init(decoding: FieldReader(type, data)))
        case "ChallengeResponseReceived":
            return .challengeResponseReceived(try .init(decoding: FieldReader(type, data)))
        case "ChallengeCompleted": return .challengeCompleted(try .init(decoding: FieldReader(type, data)))
        case "ChallengeCancelled": return .challengeCancelled(NoFields(data: data))
        case "ChallengeTimedOut": return .challengeTimedOut(NoFields(data: data))
        case "ProtocolErrorOccurred": return .protocolErrorOccurred(try .init(decoding: FieldReader(type, data)))
        case "RuntimeErrorOccurred": return .runtimeErrorOccurred(try .init(decoding: FieldReader(type, data)))
        default: throw EventDecodingError.unknownType(type)
        }
    }

    /// Checks the catalog's field rules on the event's typed values: the same rules, in the same
    /// order and with the same error, as ``decode(type:data:)`` of its `data`, without reading the
    /// `data` back. Equivalent because every payload's `data` holds exactly its typed values (built
    /// from them by a command, or read into them by decoding), so the JSON types are right by
    /// construction and only the value rules (`checkRules`) can fail.
    public func checkFields() throws(EventDecodingError) {
        // The reader (`failureReader`) only names the field of a failure and is made only then.
        switch self {
        case let .transactionCreated(event): try event.checkRules(failureReader)
        case let .authRequestParametersCreated(event): try event.checkRules(failureReader)
        case let .authResponseReceived(event): try event.checkRules(failureReader)
        case let .challengeStarted(event): try event.checkRules(failureReader)
        case let .challengeRequestSent(event): try event.checkRules(failureReader)
        case let .runtimeErrorOccurred(event): try event.checkRules(failureReader)
        // No rule beyond the JSON types: counters are three digits and enumerations catalog
        // values by construction.
        case .transactionClosed, .challengeResponseReceived, .challengeCompleted, .challengeCancelled,
             .challengeTimedOut, .protocolErrorOccurred:
            return
        }
    }

    /// A reader of no data that names this event's type in an error.
    private var failureReader: FieldReader { FieldReader(typeName, JSONObject()) }

    /// The event's type name as written in the envelope.
    public var typeName: String {
        switch self {
        case .transactionCreated: return "TransactionCreated"
        case .authRequestParametersCreated: return "AuthRequestParametersCreated"
        case .authResponseReceived: return "AuthResponseReceived"
        case .transactionClosed: return "TransactionClosed"
        case .challengeStarted: return "ChallengeStarted"
        case .challengeRequestSent: return "ChallengeRequestSent"
        case .challengeResponseReceived: return "ChallengeResponseReceived"
        case .challengeCompleted: return "ChallengeCompleted"
        case .challengeCancelled: return "ChallengeCancelled"
        case .challengeTimedOut: return "ChallengeTimedOut"
        case .protocolErrorOccurred: return "ProtocolErrorOccurred"
        case .runtimeErrorOccurred: return "RuntimeErrorOccurred"
        }
    }

    /// The envelope's `data` object for this event.
    public var data: JSONObject {
        switch self {
        case let .transactionCreated(event): return event.data
        case let .authRequestParametersCreated(event): return event.data
        case let .authResponseReceived(event): return event.data
        case let .transactionClosed(event): return event.data
        case let .challengeStarted(event): return event.data
        case let .challengeRequestSent(event): return event.data
        case let .challengeResponseReceived(event): return event.data
        case let .challengeCompleted(event): return event.data
        case let .challengeCancelled(event): return event.data
        case let .challengeTimedOut(event): return event.data
        case let .protocolErrorOccurred(event): return event.data
        case let .runtimeErrorOccurred(event): return event.data
        }
    }

    /// Writes the fields of the event's `data` into `writer`, in order: those received for a
    /// decoded event, else the canonical fields straight from the payload, without building the
    /// `data` object (which a built event makes only when asked for).
    @inlinable
    public func writeData<W: EventDataWriter>(to writer: inout W) {
        switch self {
        case let .transactionCreated(event): event.writeData(to: &writer)
        case let .authRequestParametersCreated(event): event.writeData(to: &writer)
        case let .authResponseReceived(event): event.writeData(to: &writer)
        case let .transactionClosed(event): event.writeData(to: &writer)
        case let .challengeStarted(event): event.writeData(to: &writer)
        case let .challengeRequestSent(event): event.writeData(to: &writer)
        case let .challengeResponseReceived(event): event.writeData(to: &writer)
        case let .challengeCompleted(event): event.writeData(to: &writer)
        case let .challengeCancelled(event): event.writeData(to: &writer)
        case let .challengeTimedOut(event): event.writeData(to: &writer)
        case let .protocolErrorOccurred(event): event.writeData(to: &writer)
        case let .runtimeErrorOccurred(event): event.writeData(to: &writer)
        }
    }

    /// True for the six terminal events: nothing may follow them.
    public var isTerminal: Bool {
        switch self {
        case .transactionClosed, .challengeCompleted, .challengeCancelled, .challengeTimedOut,
             .protocolErrorOccurred, .runtimeErrorOccurred:
            return true
        case .transactionCreated, .authRequestParametersCreated, .authResponseReceived, .challengeStarted,
             .challengeRequestSent, .challengeResponseReceived:
            return false
        }
    }
}

/// The payload of an event without catalog fields; `data` keeps whatever extra fields came.
public struct NoFields: Sendable, Equatable {
    public let data: JSONObject
    public init(data: JSONObject = JSONObject()) { self.data = data }

    /// The fields of `data` as they are (none, when built by a command).
    @inlinable
    func writeData<W: EventDataWriter>(to writer: inout W) {
        for entry in data.entries { writer.set(entry.key, value: entry.value) }
    }
}
