import Domain

extension EventType {
    /// True when a fold reads fields of the event's `data` (the others are never copied).
    var readsData: Bool {
        switch self {
        case .transactionCreated, .authResponseReceived, .challengeRequestSent, .challengeResponseReceived,
            .challengeCompleted, .protocolErrorOccurred, .runtimeErrorOccurred, .eligibilityChecked,
            .digitizationApproved, .digitizationApprovedWithIDV, .idvMethodSelected, .otpRejected,
            .cpsNotificationReceived, .activationFailed:
            return true
        case .authRequestParametersCreated, .transactionClosed, .challengeStarted, .challengeCancelled,
            .challengeTimedOut, .termsAccepted, .digitizationRequested, .digitizationDeclined,
            .activationRequired, .otpSubmitted, .appToAppResumed, .activatedByIDV, .activationInterrupted,
            .activationResumed, .activationCancelled, .activationExpired:
            return false
        }
    }
}

/// What the reader keeps per store type id in a ``CodeMap``: the catalog's type, or none for a
/// type outside the catalog (no projection folds it).
struct TypeCode: RawRepresentable {
    let rawValue: UInt8
    private static let outside = UInt8.max - 1

    init?(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ type: EventType?) { rawValue = type?.rawValue ?? Self.outside }

    /// The type by its name as stored.
    init(name: String) { self.init(EventType(name: name)) }

    var type: EventType? { EventType(rawValue: rawValue) }
}

/// What the reader keeps per stream id in a ``CodeMap``: the stream's category, or none for a
/// name of neither category.
struct CategoryCode: RawRepresentable {
    let rawValue: UInt8

    init?(rawValue: UInt8) { self.rawValue = rawValue }

    init(_ category: StreamCategory?) {
        switch category {
        case .threeDS: rawValue = 0
        case .card: rawValue = 1
        case nil: rawValue = 2
        }
    }

    /// The category of a stream name (see ``StreamCategory/init(prefixOf:)``).
    init(streamName: String) { self.init(StreamCategory(prefixOf: streamName)) }

    var category: StreamCategory? {
        switch rawValue {
        case 0: return .threeDS
        case 1: return .card
        default: return nil
        }
    }
}
