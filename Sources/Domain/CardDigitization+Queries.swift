import JournalCore

extension CardDigitization {
    /// The outcome names used by `journal state` and the projections.
    public enum OutcomeKey: String, Sendable, Hashable, CaseIterable {
        case activated, declined, notEligible, approved, cancelled, expired, failed, open
    }

    /// The names of the state's cases (`journal state`'s `status`; `journal find` shows an open
    /// journey's).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case empty, notEligible, eligible, requested, approved, declined, pendingActivation, ended
    }
}

extension CardDigitization.State {
    /// True after a terminal event: nothing may follow.
    public var isTerminal: Bool {
        switch self {
        case .notEligible, .approved, .declined, .ended: return true
        case .empty, .eligible, .requested, .pendingActivation: return false
        }
    }

    /// The outcome name (`open` while not terminal).
    public var outcomeKey: CardDigitization.OutcomeKey {
        switch self {
        case .empty, .eligible, .requested, .pendingActivation: return .open
        case .notEligible: return .notEligible
        case .approved: return .approved
        case .declined: return .declined
        case let .ended(_, _, outcome):
            switch outcome {
            case .activatedByIDV, .activatedByIssuer: return .activated
            case .cancelled: return .cancelled
            case .expired: return .expired
            case .failed: return .failed
            }
        }
    }

    /// True when the card ended active after ID&V (by `ActivatedByIDV` or the issuer's push).
    public var isActivated: Bool { outcomeKey == .activated }

    /// The journey's facts before the decision, nil before `EligibilityChecked`.
    public var journey: CardDigitization.Journey? {
        switch self {
        case .empty: return nil
        case let .notEligible(journey), let .eligible(journey), let .requested(journey), let .approved(journey, _),
            let .declined(journey), let .pendingActivation(journey, _), let .ended(journey, _, _):
            return journey
        }
    }

    /// The pending activation (yellow flow), running or ended.
    public var activation: CardDigitization.Activation? {
        switch self {
        case .empty, .notEligible, .eligible, .requested, .approved, .declined: return nil
        case let .pendingActivation(_, activation), let .ended(_, activation, _): return activation
        }
    }

    /// The terminal outcome of a yellow flow, nil otherwise.
    public var activationOutcome: CardDigitization.Outcome? {
        if case let .ended(_, _, outcome) = self { return outcome }
        return nil
    }

    /// The digital card's ID once decided (green or yellow).
    public var digitalCardID: String? {
        if case let .approved(_, id) = self { return id }
        return activation?.digitalCardID
    }

    /// The method selected last (the method an `OTPSubmitted` belongs to).
    public var selectedMethod: IDVMethod? { activation?.selectedMethod }

    /// The selected appToApp method's `withCryptogram`, nil when the selection is not appToApp.
    public var appToAppWithCryptogram: Bool? {
        guard let method = selectedMethod, method.type == .appToApp else { return nil }
        return method.withCryptogram
    }

    /// True once the activation was resumed after an interruption.
    public var resumed: Bool { activation?.resumed ?? false }

    /// OTP attempts: `OTPSubmitted` events so far.
    public var attempts: Int { activation?.otpSubmissions ?? 0 }

    /// The state's case.
    public var status: CardDigitization.Status {
        switch self {
        case .empty: return .empty
        case .notEligible: return .notEligible
        case .eligible: return .eligible
        case .requested: return .requested
        case .approved: return .approved
        case .declined: return .declined
        case .pendingActivation: return .pendingActivation
        case .ended: return .ended
        }
    }

    /// The state's case name, as `journal state` prints it.
    public var statusName: String { status.rawValue }
}
