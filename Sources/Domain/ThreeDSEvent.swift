import JournalCore

/// The events of a `3ds` stream (spec §3.1).
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
    public static let typeNames: [String] = EventType.types(of: .threeDS).map(\.name)

    /// Decodes the `data` object of an event of type `type`, checking every field rule of the
    /// catalog (state rules are the aggregate's job).
    ///
    /// - Throws: ``EventDecodingError`` naming the type, the field and the rule; kind
    ///   `.unknownType` when `type` is not a `3ds` event type.
    public static func decode(type: String, data: JSONObject) throws(EventDecodingError) -> ThreeDSEvent {
        try decode(type: type, FieldReader(type, data))
    }

    /// Decodes the fields `r` reads (a parsed object, or stored bytes read in place).
    static func decode(type: String, _ r: FieldReader) throws(EventDecodingError) -> ThreeDSEvent {
        guard let known = EventType(name: type) else { throw EventDecodingError.unknownType(type) }
        switch known {
        case .transactionCreated: return .transactionCreated(try .init(decoding: r))
        case .authRequestParametersCreated: return .authRequestParametersCreated(try .init(decoding: r))
        case .authResponseReceived: return .authResponseReceived(try .init(decoding: r))
        case .transactionClosed: return .transactionClosed(NoFields(data: r.data))
        case .challengeStarted: return .challengeStarted(try .init(decoding: r))
        case .challengeRequestSent: return .challengeRequestSent(try .init(decoding: r))
        case .challengeResponseReceived: return .challengeResponseReceived(try .init(decoding: r))
        case .challengeCompleted: return .challengeCompleted(try .init(decoding: r))
        case .challengeCancelled: return .challengeCancelled(NoFields(data: r.data))
        case .challengeTimedOut: return .challengeTimedOut(NoFields(data: r.data))
        case .protocolErrorOccurred: return .protocolErrorOccurred(try .init(decoding: r))
        case .runtimeErrorOccurred: return .runtimeErrorOccurred(try .init(decoding: r))
        case .eligibilityChecked, .termsAccepted, .digitizationRequested, .digitizationApproved,
            .digitizationDeclined, .digitizationApprovedWithIDV, .idvMethodSelected, .activationRequired,
            .otpSubmitted, .otpRejected, .appToAppResumed, .cpsNotificationReceived, .activatedByIDV,
            .activationInterrupted, .activationResumed, .activationCancelled, .activationExpired,
            .activationFailed:
            throw EventDecodingError.unknownType(type)
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

    /// The event's type in the catalog.
    public var type: EventType {
        switch self {
        case .transactionCreated: return .transactionCreated
        case .authRequestParametersCreated: return .authRequestParametersCreated
        case .authResponseReceived: return .authResponseReceived
        case .transactionClosed: return .transactionClosed
        case .challengeStarted: return .challengeStarted
        case .challengeRequestSent: return .challengeRequestSent
        case .challengeResponseReceived: return .challengeResponseReceived
        case .challengeCompleted: return .challengeCompleted
        case .challengeCancelled: return .challengeCancelled
        case .challengeTimedOut: return .challengeTimedOut
        case .protocolErrorOccurred: return .protocolErrorOccurred
        case .runtimeErrorOccurred: return .runtimeErrorOccurred
        }
    }

    /// The event's type name as written in the envelope.
    public var typeName: String { type.name }

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
