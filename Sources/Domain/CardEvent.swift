import JournalCore

/// The events of a `card` stream (spec §3.2): the digitization journey and its pending
/// activation.
///
/// NOTE: the type names and field names are the journal's storage format; change them never.
///
/// Every payload keeps its `data` object: exactly as received when decoded, canonical when built.
public enum CardEvent: Sendable, Equatable {
    case eligibilityChecked(EligibilityChecked)
    case termsAccepted(TermsAccepted)
    case digitizationRequested(DigitizationRequested)
    case digitizationApproved(DigitizationApproved)
    case digitizationDeclined(NoFields)
    case digitizationApprovedWithIDV(DigitizationApprovedWithIDV)
    case idvMethodSelected(IDVMethodSelected)
    case activationRequired(ActivationRequired)
    case otpSubmitted(OTPSubmitted)
    case otpRejected(OTPRejected)
    case appToAppResumed(AppToAppResumed)
    case cpsNotificationReceived(CPSNotificationReceived)
    case activatedByIDV(NoFields)
    case activationInterrupted(ActivationInterrupted)
    case activationResumed(NoFields)
    case activationCancelled(NoFields)
    case activationExpired(NoFields)
    case activationFailed(ActivationFailed)

    /// Every event type name of the category, in catalog order.
    public static let typeNames: [String] = EventType.types(of: .card).map(\.name)

    /// Decodes the `data` object of an event of type `type`, checking every field rule of the
    /// catalog (state rules are the aggregate's job).
    ///
    /// - Throws: ``EventDecodingError`` naming the type, the field and the rule; kind
    ///   `.unknownType` when `type` is not a `card` event type.
    public static func decode(type: String, data: JSONObject) throws(EventDecodingError) -> CardEvent {
        try decode(type: type, FieldReader(type, data))
    }

    /// Decodes the fields `r` reads (a parsed object, or stored bytes read in place).
    static func decode(type: String, _ r: FieldReader) throws(EventDecodingError) -> CardEvent {
        guard let known = EventType(name: type) else { throw EventDecodingError.unknownType(type) }
        switch known {
        case .eligibilityChecked: return .eligibilityChecked(try .init(decoding: r))
        case .termsAccepted: return .termsAccepted(try .init(decoding: r))
        case .digitizationRequested: return .digitizationRequested(try .init(decoding: r))
        case .digitizationApproved: return .digitizationApproved(try .init(decoding: r))
        case .digitizationDeclined: return .digitizationDeclined(NoFields(data: r.data))
        case .digitizationApprovedWithIDV: return .digitizationApprovedWithIDV(try .init(decoding: r))
        case .idvMethodSelected: return .idvMethodSelected(try .init(decoding: r))
        case .activationRequired: return .activationRequired(try .init(decoding: r))
        case .otpSubmitted: return .otpSubmitted(try .init(decoding: r))
        case .otpRejected: return .otpRejected(try .init(decoding: r))
        case .appToAppResumed: return .appToAppResumed(try .init(decoding: r))
        case .cpsNotificationReceived: return .cpsNotificationReceived(try .init(decoding: r))
        case .activatedByIDV: return .activatedByIDV(NoFields(data: r.data))
        case .activationInterrupted: return .activationInterrupted(try .init(decoding: r))
        case .activationResumed: return .activationResumed(NoFields(data: r.data))
        case .activationCancelled: return .activationCancelled(NoFields(data: r.data))
        case .activationExpired: return .activationExpired(NoFields(data: r.data))
        case .activationFailed: return .activationFailed(try .init(decoding: r))
        case .transactionCreated, .authRequestParametersCreated, .authResponseReceived, .transactionClosed,
            .challengeStarted, .challengeRequestSent, .challengeResponseReceived, .challengeCompleted,
            .challengeCancelled, .challengeTimedOut, .protocolErrorOccurred, .runtimeErrorOccurred:
            throw EventDecodingError.unknownType(type)
        }
    }

    /// Checks the catalog's field rules on the event's typed values: the same rules, in the same
    /// order and with the same error, as ``decode(type:data:)`` of its `data`, without reading the
    /// `data` back (see ``ThreeDSEvent/checkFields()``).
    public func checkFields() throws(EventDecodingError) {
        // The reader (`failureReader`) only names the field of a failure and is made only then.
        switch self {
        case let .digitizationApprovedWithIDV(event): try event.checkRules(failureReader)
        case let .activationRequired(event): try event.checkRules(failureReader)
        case let .otpSubmitted(event): try event.checkRules(failureReader)
        case let .otpRejected(event): try event.checkRules(failureReader)
        // No rule beyond the JSON types: enumerations are catalog values by construction.
        case .eligibilityChecked, .termsAccepted, .digitizationRequested, .digitizationApproved,
            .digitizationDeclined, .idvMethodSelected, .appToAppResumed, .cpsNotificationReceived,
            .activatedByIDV, .activationInterrupted, .activationResumed, .activationCancelled,
            .activationExpired, .activationFailed:
            return
        }
    }

    /// Writes the fields of the event's `data` into `writer`, in order, without building the
    /// object (see ``ThreeDSEvent/writeData(to:)``).
    public func writeData<W: EventDataWriter>(to writer: inout W) {
        switch self {
        case let .eligibilityChecked(event): event.writeData(to: &writer)
        case let .termsAccepted(event): event.writeData(to: &writer)
        case let .digitizationRequested(event): event.writeData(to: &writer)
        case let .digitizationApproved(event): event.writeData(to: &writer)
        case let .digitizationDeclined(event): event.writeData(to: &writer)
        case let .digitizationApprovedWithIDV(event): event.writeData(to: &writer)
        case let .idvMethodSelected(event): event.writeData(to: &writer)
        case let .activationRequired(event): event.writeData(to: &writer)
        case let .otpSubmitted(event): event.writeData(to: &writer)
        case let .otpRejected(event): event.writeData(to: &writer)
        case let .appToAppResumed(event): event.writeData(to: &writer)
        case let .cpsNotificationReceived(event): event.writeData(to: &writer)
        case let .activatedByIDV(event): event.writeData(to: &writer)
        case let .activationInterrupted(event): event.writeData(to: &writer)
        case let .activationResumed(event): event.writeData(to: &writer)
        case let .activationCancelled(event): event.writeData(to: &writer)
        case let .activationExpired(event): event.writeData(to: &writer)
        case let .activationFailed(event): event.writeData(to: &writer)
        }
    }

    /// A reader of no data that names this event's type in an error.
    private var failureReader: FieldReader { FieldReader(typeName, JSONObject()) }

    /// The event's type in the catalog.
    public var type: EventType {
        switch self {
        case .eligibilityChecked: return .eligibilityChecked
        case .termsAccepted: return .termsAccepted
        case .digitizationRequested: return .digitizationRequested
        case .digitizationApproved: return .digitizationApproved
        case .digitizationDeclined: return .digitizationDeclined
        case .digitizationApprovedWithIDV: return .digitizationApprovedWithIDV
        case .idvMethodSelected: return .idvMethodSelected
        case .activationRequired: return .activationRequired
        case .otpSubmitted: return .otpSubmitted
        case .otpRejected: return .otpRejected
        case .appToAppResumed: return .appToAppResumed
        case .cpsNotificationReceived: return .cpsNotificationReceived
        case .activatedByIDV: return .activatedByIDV
        case .activationInterrupted: return .activationInterrupted
        case .activationResumed: return .activationResumed
        case .activationCancelled: return .activationCancelled
        case .activationExpired: return .activationExpired
        case .activationFailed: return .activationFailed
        }
    }

    /// The event's type name as written in the envelope.
    public var typeName: String { type.name }

    /// The envelope's `data` object for this event.
    public var data: JSONObject {
        switch self {
        case let .eligibilityChecked(event): return event.data
        case let .termsAccepted(event): return event.data
        case let .digitizationRequested(event): return event.data
        case let .digitizationApproved(event): return event.data
        case let .digitizationDeclined(event): return event.data
        case let .digitizationApprovedWithIDV(event): return event.data
        case let .idvMethodSelected(event): return event.data
        case let .activationRequired(event): return event.data
        case let .otpSubmitted(event): return event.data
        case let .otpRejected(event): return event.data
        case let .appToAppResumed(event): return event.data
        case let .cpsNotificationReceived(event): return event.data
        case let .activatedByIDV(event): return event.data
        case let .activationInterrupted(event): return event.data
        case let .activationResumed(event): return event.data
        case let .activationCancelled(event): return event.data
        case let .activationExpired(event): return event.data
        case let .activationFailed(event): return event.data
        }
    }
}
