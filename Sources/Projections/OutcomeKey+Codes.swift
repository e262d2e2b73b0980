import Domain

/// An outcome the 3DS or card read model stores as an integer (its `outcome` column): the code
/// is the outcome's place in ``storedOrder``, a storage format of the read models, so the order
/// never changes (new outcomes go at the end).
protocol StoredOutcome: Equatable, CaseIterable {
    static var storedOrder: [Self] { get }
}

extension StoredOutcome {
    var code: Int64 {
        guard let index = Self.storedOrder.firstIndex(of: self) else {
            preconditionFailure("an outcome without a stored code")
        }
        return Int64(index)
    }

    init?(code: Int64) {
        guard code >= 0 && code < Self.storedOrder.count else { return nil }
        self = Self.storedOrder[Int(code)]
    }
}

extension ThreeDSTransaction.OutcomeKey: StoredOutcome {
    static let storedOrder: [Self] = [
        .open, .completedY, .completedN, .cancelled, .timedOut, .protocolError,
        .runtimeError, .closed
    ]
}

extension CardDigitization.OutcomeKey: StoredOutcome {
    static let storedOrder: [Self] = [
        .open, .activated, .failed, .cancelled, .expired, .declined, .notEligible,
        .approved
    ]
}
