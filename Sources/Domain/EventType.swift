/// The catalog's event types, both categories (spec §3): the one list of their names that
/// the aggregates, the projections, the simulator and the command line share.
///
/// NOTE: the names are the journal's storage format; change them never. The raw values are the
/// catalog order (the `3ds` types, then the `card` types) and are not stored anywhere.
public enum EventType: UInt8, Sendable, Hashable, CaseIterable {
    // 3ds (spec §3.1)
    case transactionCreated, authRequestParametersCreated, authResponseReceived, transactionClosed,
        challengeStarted, challengeRequestSent, challengeResponseReceived, challengeCompleted,
        challengeCancelled, challengeTimedOut, protocolErrorOccurred, runtimeErrorOccurred
    // card (spec §3.2)
    case eligibilityChecked, termsAccepted, digitizationRequested, digitizationApproved, digitizationDeclined,
        digitizationApprovedWithIDV, idvMethodSelected, activationRequired, otpSubmitted, otpRejected,
        appToAppResumed, cpsNotificationReceived, activatedByIDV, activationInterrupted, activationResumed,
        activationCancelled, activationExpired, activationFailed

    /// The type's name as written in the envelope.
    public var name: String {
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
        case .eligibilityChecked: return "EligibilityChecked"
        case .termsAccepted: return "TermsAccepted"
        case .digitizationRequested: return "DigitizationRequested"
        case .digitizationApproved: return "DigitizationApproved"
        case .digitizationDeclined: return "DigitizationDeclined"
        case .digitizationApprovedWithIDV: return "DigitizationApprovedWithIDV"
        case .idvMethodSelected: return "IDVMethodSelected"
        case .activationRequired: return "ActivationRequired"
        case .otpSubmitted: return "OTPSubmitted"
        case .otpRejected: return "OTPRejected"
        case .appToAppResumed: return "AppToAppResumed"
        case .cpsNotificationReceived: return "CPSNotificationReceived"
        case .activatedByIDV: return "ActivatedByIDV"
        case .activationInterrupted: return "ActivationInterrupted"
        case .activationResumed: return "ActivationResumed"
        case .activationCancelled: return "ActivationCancelled"
        case .activationExpired: return "ActivationExpired"
        case .activationFailed: return "ActivationFailed"
        }
    }

    /// The type named `name`, nil for a name outside the catalog.
    public init?(name: String) {
        guard let type = Self.byName[name] else { return nil }
        self = type
    }

    private static let byName: [String: EventType] = {
        var table: [String: EventType] = [:]
        for type in allCases { table[type.name] = type }
        return table
    }()

    /// The stream category whose streams hold events of this type.
    public var category: StreamCategory {
        rawValue < EventType.eligibilityChecked.rawValue ? .threeDS : .card
    }

    /// The types of `category`, in catalog order.
    public static func types(of category: StreamCategory) -> [EventType] {
        allCases.filter { $0.category == category }
    }

    /// Every type name of the catalog, in catalog order: `names[Int(type.rawValue)] == type.name`.
    public static let names: [String] = allCases.map(\.name)
}
