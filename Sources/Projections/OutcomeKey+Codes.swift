import Domain

/// The integer codes under which the 3DS and card read models store the aggregates' outcomes
/// (the `outcome` columns): a storage format of the read models, so the codes never change.
extension ThreeDSTransaction.OutcomeKey {
    var code: Int64 {
        switch self {
        case .open: return 0
        case .completedY: return 1
        case .completedN: return 2
        case .cancelled: return 3
        case .timedOut: return 4
        case .protocolError: return 5
        case .runtimeError: return 6
        case .closed: return 7
        }
    }

    init?(code: Int64) {
        guard let key = Self.cases.first(where: { $0.code == code }) else { return nil }
        self = key
    }

    /// `allCases` makes a new array on every call.
    private static let cases = allCases
}

extension CardDigitization.OutcomeKey {
    var code: Int64 {
        switch self {
        case .open: return 0
        case .activated: return 1
        case .failed: return 2
        case .cancelled: return 3
        case .expired: return 4
        case .declined: return 5
        case .notEligible: return 6
        case .approved: return 7
        }
    }

    init?(code: Int64) {
        guard let key = Self.cases.first(where: { $0.code == code }) else { return nil }
        self = key
    }

    /// `allCases` makes a new array on every call.
    private static let cases = allCases
}
