/// Why an event (or a command) is refused in the state it meets: the rule it breaks and a
/// reason a person understands, e.g.
/// `ChallengeRequestSent.sdkCounterStoA must be "002" (previous + 1), got "004"`.
public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable identifier of the broken rule (`3ds.request-counter`). Identifiers can grow.
    public struct Rule: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
    }

    public let rule: Rule
    public let reason: String

    public init(_ rule: Rule, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }

    public var description: String { reason }
}

extension Rejection.Rule {
    // Spec §1 and §2.
    /// The event's type is not in the catalog of the stream's category, or a field breaks its rule.
    public static let catalog = Self(rawValue: "catalog")
    /// The stream name breaks the naming rule of spec §1.
    public static let streamName = Self(rawValue: "stream.name")

    // Spec §3.1.
    public static let threeDSFirstEvent = Self(rawValue: "3ds.first-event")
    public static let threeDSTerminal = Self(rawValue: "3ds.terminal")
    public static let threeDSCreatedOnce = Self(rawValue: "3ds.created-once")
    public static let threeDSAuthParameters = Self(rawValue: "3ds.auth-parameters")
    public static let threeDSAuthResponse = Self(rawValue: "3ds.auth-response")
    public static let threeDSClose = Self(rawValue: "3ds.close")
    public static let threeDSChallengeStart = Self(rawValue: "3ds.challenge-start")
    public static let threeDSChallengeNotRunning = Self(rawValue: "3ds.challenge-not-running")
    public static let threeDSRequestInFlight = Self(rawValue: "3ds.request-in-flight")
    public static let threeDSRequestCounter = Self(rawValue: "3ds.request-counter")
    public static let threeDSRequestAction = Self(rawValue: "3ds.request-action")
    public static let threeDSResponseWithoutRequest = Self(rawValue: "3ds.response-without-request")
    public static let threeDSResponseCounter = Self(rawValue: "3ds.response-counter")
    public static let threeDSCancelResponseFinal = Self(rawValue: "3ds.cancel-response-final")
    public static let threeDSAfterFinalResponse = Self(rawValue: "3ds.after-final-response")
    public static let threeDSCompleted = Self(rawValue: "3ds.completed")
    public static let threeDSCancelled = Self(rawValue: "3ds.cancelled")
    public static let threeDSTimeout = Self(rawValue: "3ds.timeout")

    // Spec §3.2.
    public static let cardFirstEvent = Self(rawValue: "card.first-event")
    public static let cardTerminal = Self(rawValue: "card.terminal")
    public static let cardEligibilityOnce = Self(rawValue: "card.eligibility-once")
    public static let cardTerms = Self(rawValue: "card.terms")
    public static let cardRequest = Self(rawValue: "card.request")
    public static let cardDecision = Self(rawValue: "card.decision")
    public static let cardBeforeDecision = Self(rawValue: "card.before-yellow-decision")
    public static let cardMethodSelection = Self(rawValue: "card.method-selection")
    public static let cardUnknownMethod = Self(rawValue: "card.unknown-method")
    public static let cardResumedAppToApp = Self(rawValue: "card.resumed-app-to-app")
    public static let cardActivationRequired = Self(rawValue: "card.activation-required")
    public static let cardOTPSubmission = Self(rawValue: "card.otp-submission")
    public static let cardOTPVerdict = Self(rawValue: "card.otp-verdict")
    public static let cardAppToAppResume = Self(rawValue: "card.app-to-app-resume")
    public static let cardActivatedByIDV = Self(rawValue: "card.activated-by-idv")
    public static let cardInterrupted = Self(rawValue: "card.interrupted")
    public static let cardResume = Self(rawValue: "card.resume")
}
