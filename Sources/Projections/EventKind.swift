/// The event types the projections fold, as a one-byte code (compared per event instead of the
/// type's name); `other` for every type no projection reads.
public enum EventKind: UInt8, Sendable, CaseIterable {
    case other
    // 3ds
    case transactionCreated, authResponseReceived, challengeStarted, challengeRequestSent,
         challengeResponseReceived, challengeCompleted, challengeCancelled, challengeTimedOut,
         protocolErrorOccurred, runtimeErrorOccurred, transactionClosed
    // card
    case eligibilityChecked, digitizationApproved, digitizationDeclined, digitizationApprovedWithIDV,
         idvMethodSelected, otpSubmitted, otpRejected, activatedByIDV, cpsNotificationReceived,
         activationExpired, activationFailed, activationCancelled
    // the steps that move an open stream's state (the `streams` directory)
    case authRequestParametersCreated, digitizationRequested

    public init(type: String) {
        switch type {
        case "TransactionCreated": self = .transactionCreated
        case "AuthResponseReceived": self = .authResponseReceived
        case "ChallengeStarted": self = .challengeStarted
        case "ChallengeRequestSent": self = .challengeRequestSent
        case "ChallengeResponseReceived": self = .challengeResponseReceived
        case "ChallengeCompleted": self = .challengeCompleted
        case "ChallengeCancelled": self = .challengeCancelled
        case "ChallengeTimedOut": self = .challengeTimedOut
        case "ProtocolErrorOccurred": self = .protocolErrorOccurred
        case "RuntimeErrorOccurred": self = .runtimeErrorOccurred
        case "TransactionClosed": self = .transactionClosed
        case "EligibilityChecked": self = .eligibilityChecked
        case "DigitizationApproved": self = .digitizationApproved
        case "DigitizationDeclined": self = .digitizationDeclined
        case "DigitizationApprovedWithIDV": self = .digitizationApprovedWithIDV
        case "IDVMethodSelected": self = .idvMethodSelected
        case "OTPSubmitted": self = .otpSubmitted
        case "OTPRejected": self = .otpRejected
        case "ActivatedByIDV": self = .activatedByIDV
        case "CPSNotificationReceived": self = .cpsNotificationReceived
        case "ActivationExpired": self = .activationExpired
        case "ActivationFailed": self = .activationFailed
        case "ActivationCancelled": self = .activationCancelled
        case "AuthRequestParametersCreated": self = .authRequestParametersCreated
        case "DigitizationRequested": self = .digitizationRequested
        default: self = .other
        }
    }

    /// True when a fold reads fields of the event's `data` (the others are never copied).
    var readsData: Bool {
        switch self {
        case .transactionCreated, .authResponseReceived, .challengeRequestSent, .challengeResponseReceived,
             .challengeCompleted, .protocolErrorOccurred, .runtimeErrorOccurred, .eligibilityChecked,
             .digitizationApproved, .digitizationApprovedWithIDV, .idvMethodSelected, .otpRejected,
             .cpsNotificationReceived, .activationFailed:
            return true
        case .other, .challengeStarted, .challengeCancelled, .challengeTimedOut, .transactionClosed,
             .digitizationDeclined, .otpSubmitted, .activatedByIDV, .activationExpired,
             .activationCancelled, .authRequestParametersCreated, .digitizationRequested:
            return false
        }
    }
}
