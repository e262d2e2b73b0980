import Domain

/// A small number for each event type of both categories, so that the simulation keeps and
/// counts types without hashing their names: `names[index]` is the type name.
enum EventTypeIndex {
    /// The 3DS types (0–11) then the card types (12–29), in catalog order.
    static let names: [String] = ThreeDSEvent.typeNames + CardEvent.typeNames
}

extension ThreeDSEvent {
    /// The event's index in ``EventTypeIndex/names``.
    var typeIndex: UInt8 {
        switch self {
        case .transactionCreated: return 0
        case .authRequestParametersCreated: return 1
        case .authResponseReceived: return 2
        case .transactionClosed: return 3
        case .challengeStarted: return 4
        case .challengeRequestSent: return 5
        case .challengeResponseReceived: return 6
        case .challengeCompleted: return 7
        case .challengeCancelled: return 8
        case .challengeTimedOut: return 9
        case .protocolErrorOccurred: return 10
        case .runtimeErrorOccurred: return 11
        }
    }
}

extension CardEvent {
    /// The event's index in ``EventTypeIndex/names``.
    var typeIndex: UInt8 {
        switch self {
        case .eligibilityChecked: return 12
        case .termsAccepted: return 13
        case .digitizationRequested: return 14
        case .digitizationApproved: return 15
        case .digitizationDeclined: return 16
        case .digitizationApprovedWithIDV: return 17
        case .idvMethodSelected: return 18
        case .activationRequired: return 19
        case .otpSubmitted: return 20
        case .otpRejected: return 21
        case .appToAppResumed: return 22
        case .cpsNotificationReceived: return 23
        case .activatedByIDV: return 24
        case .activationInterrupted: return 25
        case .activationResumed: return 26
        case .activationCancelled: return 27
        case .activationExpired: return 28
        case .activationFailed: return 29
        }
    }
}
