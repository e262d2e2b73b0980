/// A counted card event, with what describes it at the time it happened.
public typealias CardFact = StreamFact<CardFactKind>

/// What a ``CardFact`` counts, and what its `a`, `b` and `v` hold.
public enum CardFactKind: Int64, Sendable {
    /// `OTPSubmitted`: a = kind of the method selected last before it (`none`).
    case otpSubmitted = 1
    /// `OTPRejected`: a = reason.
    case otpRejected = 2
    /// `ActivationExpired`: a = method kind selected last (`none`).
    case activationExpired = 3
    /// One method offered by `DigitizationApprovedWithIDV`: a = method kind.
    case offered = 4
    /// `IDVMethodSelected`: a = method kind, b = `first` or `reselected`.
    case selected = 5
    /// Activation (`ActivatedByIDV` or a `CBP.info.tokenProvisioned` notification after the
    /// yellow decision): a = method kind selected last (`none`), v = ms since the decision.
    case activated = 6
    /// `ActivationFailed`: a = method kind selected last, b = reason.
    case failed = 7
    /// `ActivationCancelled`: a = method kind selected last.
    case cancelled = 8
}
