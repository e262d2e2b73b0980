/// A counted 3DS event, with what describes it at the time it happened.
public typealias ThreeDSFact = StreamFact<ThreeDSFactKind>

/// What a ``ThreeDSFact`` counts, and what its `a` and `b` hold.
public enum ThreeDSFactKind: Int64, Sendable {
    /// `ChallengeRequestSent`: a = action, b = UI type of the screen it answers (`none` first).
    case request = 1
    /// Non-final `ChallengeResponseReceived` (a screen shown): a = acsUiType.
    case screen = 2
    /// `ChallengeTimedOut`: a = UI type of the last non-final response (`none`).
    case timeout = 3
    /// `ProtocolErrorOccurred`: a = errorCode, b = errorComponent.
    case protocolError = 4
    /// `RuntimeErrorOccurred`: a = errorCode.
    case runtimeError = 5
}
