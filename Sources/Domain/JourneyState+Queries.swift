import JournalCore

extension JourneyState {
    /// True after a terminal event of either category.
    public var isTerminal: Bool {
        switch self {
        case let .threeDS(state): return state.isTerminal
        case let .card(state): return state.isTerminal
        }
    }

    /// The outcome name: a ``ThreeDSTransaction/OutcomeKey`` or ``CardDigitization/OutcomeKey`` raw value.
    public var outcomeName: String {
        switch self {
        case let .threeDS(state): return state.outcomeKey.rawValue
        case let .card(state): return state.outcomeKey.rawValue
        }
    }

    /// True before the first event.
    public var isEmpty: Bool {
        switch self {
        case let .threeDS(state): return state == .empty
        case let .card(state): return state == .empty
        }
    }

    public var threeDSState: ThreeDSTransaction.State? {
        if case let .threeDS(state) = self { return state }
        return nil
    }

    public var cardState: CardDigitization.State? {
        if case let .card(state) = self { return state }
        return nil
    }
}
