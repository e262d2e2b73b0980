import JournalCore

/// The card digitization journey and its pending activation, rebuilt from a `card` stream
/// (spec §3.2).
///
/// Pure functions only: ``initial``, ``validate(_:_:occurredAt:)``, ``evolve(_:_:occurredAt:)``
/// and ``apply(_:_:occurredAt:)``. Commands are in `CardDigitization+Commands`.
///
/// The state diagram and the table of rules (with their identifiers) are in `docs/domain.md`.
public enum CardDigitization: Aggregate {
    /// Where the journey stands, as a sum type.
    public enum State: Sendable, Equatable {
        /// No event yet.
        case empty
        /// `EligibilityChecked` with `notEligible`: terminal.
        case notEligible(Journey)
        /// Eligible; terms may be accepted, digitization may be requested.
        case eligible(Journey)
        /// `DigitizationRequested` seen; the decision comes next.
        case requested(Journey)
        /// Green flow: terminal.
        case approved(Journey, digitalCardID: String)
        /// Red flow: terminal.
        case declined(Journey)
        /// Yellow flow: the pending activation is running.
        case pendingActivation(Journey, Activation)
        /// Yellow flow ended: terminal.
        case ended(Journey, Activation, Outcome)
    }

    /// What the journey knows before the decision.
    public struct Journey: Sendable, Equatable {
        public var inputMethod: InputMethod
        public var eligibilityErrorCode: String?
        public var termsAccepted: Bool = false
        public var language: String?
    }

    /// The pending activation of the yellow flow.
    public struct Activation: Sendable, Equatable {
        /// Where the activation stands.
        public enum Step: Sendable, Equatable {
            /// Waiting for `IDVMethodSelected`.
            case awaitingMethodSelection
            /// An OTP or appToApp method was selected; waiting for `ActivationRequired` with this state.
            case awaitingActivationRequired(ActivationRequiredState)
            /// `ActivationRequired` otpNeeded: an `OTPSubmitted` may follow.
            case otpNeeded
            /// An `OTPSubmitted` awaits its verdict.
            case otpSubmitted
            /// `ActivationRequired` appToAppSelected: waiting for `AppToAppResumed`.
            case appToAppSelected
            /// `AppToAppResumed` with a TAV: waiting for `ActivatedByIDV`.
            case appToAppResumedWithTAV
            /// customerService/webService selected, or appToApp resumed without TAV: waiting for the
            /// issuer's `CPSNotificationReceived` with `CBP.info.tokenProvisioned`.
            case awaitingIssuer
            /// `ActivationInterrupted`: only resume, cancel, expiry, failure or a CPS push may follow.
            case interrupted
        }

        public var digitalCardID: String
        public var methods: [IDVMethod]
        public var step: Step = .awaitingMethodSelection
        /// The method selected last, nil before the first selection.
        public var selectedMethod: IDVMethod?
        /// True once `ActivationResumed` was seen: appToApp without cryptogram is no longer selectable.
        public var resumed: Bool = false
        /// `IDVMethodSelected` events.
        public var selections: Int = 0
        /// `OTPSubmitted` events (the activation's OTP attempts).
        public var otpSubmissions: Int = 0
        /// `OTPRejected` events.
        public var otpRejections: Int = 0
        /// `ActivationInterrupted` events.
        public var interruptions: Int = 0
        /// The `withTAV` of the last `AppToAppResumed`, nil when none.
        public var appToAppResumedWithTAV: Bool?

        /// The offered method with this id, if any.
        public func method(id: String) -> IDVMethod? {
            for method in methods where method.id == id { return method }
            return nil
        }

        /// The methods that may be selected now (after a resume: not appToApp without cryptogram).
        public var selectableMethods: [IDVMethod] {
            resumed ? methods.filter { !$0.isAppToAppWithoutCryptogram } : methods
        }
    }

    /// How a yellow-flow activation ended.
    public enum Outcome: Sendable, Equatable {
        /// `ActivatedByIDV` (OTP or appToApp with TAV).
        case activatedByIDV
        /// `CPSNotificationReceived` with `CBP.info.tokenProvisioned`.
        case activatedByIssuer
        case cancelled
        case expired
        case failed(ActivationFailureReason)

        /// The terminal event type that produced this outcome.
        public var eventType: String {
            switch self {
            case .activatedByIDV: return EventType.activatedByIDV.name
            case .activatedByIssuer: return EventType.cpsNotificationReceived.name
            case .cancelled: return EventType.activationCancelled.name
            case .expired: return EventType.activationExpired.name
            case .failed: return EventType.activationFailed.name
            }
        }
    }

    /// The state before the first event.
    public static let initial = State.empty

    /// The state after `event`, or the rule it breaks. `occurredAt` is not read by any card rule.
    public static func apply(_ state: State, _ event: CardEvent, occurredAt: Timestamp) -> Result<State, Rejection> {
        switch state {
        case .empty:
            guard case let .eligibilityChecked(checked) = event else {
                return .failure(
                    Rejection(
                        .cardFirstEvent,
                        "a card stream must begin with EligibilityChecked, got \(event.typeName)"))
            }
            let journey = Journey(inputMethod: checked.inputMethod, eligibilityErrorCode: checked.errorCode)
            switch checked.outcome {
            case .eligible: return .success(.eligible(journey))
            case .notEligible: return .success(.notEligible(journey))
            }
        case .notEligible:
            return terminal(event, "EligibilityChecked (notEligible)")
        case .approved:
            return terminal(event, EventType.digitizationApproved.name)
        case .declined:
            return terminal(event, EventType.digitizationDeclined.name)
        case let .ended(_, _, outcome):
            return terminal(event, outcome.eventType)
        case let .eligible(journey), let .requested(journey):
            return applyBeforeDecision(state, journey, event)
        case let .pendingActivation(journey, activation):
            return applyInActivation(journey, activation, event)
        }
    }

    private static func terminal(_ event: CardEvent, _ terminalType: String) -> Result<State, Rejection> {
        .failure(
            Rejection(
                .cardTerminal,
                "\(event.typeName) cannot follow the terminal event \(terminalType): "
                    + "nothing may follow a terminal event"))
    }

    // MARK: - Before the decision

    private static func applyBeforeDecision(_ state: State, _ journey: Journey, _ event: CardEvent)
        -> Result<State, Rejection>
    {
        var journey = journey
        let isRequested: Bool
        switch state {
        case .requested: isRequested = true
        case .empty, .notEligible, .eligible, .approved, .declined, .pendingActivation, .ended: isRequested = false
        }
        switch event {
        case .eligibilityChecked:
            return .failure(Rejection(.cardEligibilityOnce, "EligibilityChecked is allowed as the first event only"))
        case .termsAccepted:
            guard !isRequested else {
                return .failure(Rejection(.cardTerms, "TermsAccepted must come before DigitizationRequested"))
            }
            guard !journey.termsAccepted else {
                return .failure(Rejection(.cardTerms, "TermsAccepted is allowed once per journey"))
            }
            journey.termsAccepted = true
            return .success(.eligible(journey))
        case let .digitizationRequested(requested):
            guard !isRequested else {
                return .failure(Rejection(.cardRequest, "DigitizationRequested is allowed once per journey"))
            }
            journey.language = requested.language
            return .success(.requested(journey))
        case let .digitizationApproved(approved):
            guard isRequested else { return decisionBeforeRequest(event) }
            return .success(.approved(journey, digitalCardID: approved.digitalCardID))
        case .digitizationDeclined:
            guard isRequested else { return decisionBeforeRequest(event) }
            return .success(.declined(journey))
        case let .digitizationApprovedWithIDV(decision):
            guard isRequested else { return decisionBeforeRequest(event) }
            return .success(
                .pendingActivation(
                    journey,
                    Activation(
                        digitalCardID: decision.digitalCardID,
                        methods: decision.methods)))
        case .idvMethodSelected, .activationRequired, .otpSubmitted, .otpRejected, .appToAppResumed,
            .cpsNotificationReceived, .activatedByIDV, .activationInterrupted, .activationResumed,
            .activationCancelled, .activationExpired, .activationFailed:
            return .failure(
                Rejection(
                    .cardBeforeDecision,
                    "\(event.typeName) requires the yellow decision "
                        + "(DigitizationApprovedWithIDV); the journey is \(state.label)"))
        }
    }

    private static func decisionBeforeRequest(_ event: CardEvent) -> Result<State, Rejection> {
        .failure(Rejection(.cardDecision, "\(event.typeName) must come right after DigitizationRequested"))
    }
}
