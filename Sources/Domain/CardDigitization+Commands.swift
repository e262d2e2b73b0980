import JournalCore

extension CardDigitization {
    /// The issuer's decision on a digitization request.
    public enum Decision: Sendable, Equatable {
        /// Green flow.
        case approved(digitalCardID: String)
        /// Red flow.
        case declined
        /// Yellow flow: ID&V with these methods.
        case approvedWithIDV(digitalCardID: String, methods: [IDVMethod])
    }

    /// The integrator's calls, mirroring the NFC wallet SDK and the pushes it reports.
    public enum Command: Sendable, Equatable {
        /// `checkEligibility` returned.
        case checkEligibility(inputMethod: InputMethod, outcome: EligibilityOutcome, errorCode: String? = nil)
        /// The cardholder accepted the terms.
        case acceptTerms(tncDigest: String)
        /// `digitizeCard(…)`.
        case requestDigitization(language: String, pushTokenRef: String? = nil)
        /// The SDK's event stream reported the decision.
        case recordDecision(Decision)
        /// `IDVMethodSelector.select(idvID:)`.
        case selectIDVMethod(idvID: String)
        /// The SDK reported `activationRequired` with this state.
        case reportActivationRequired(
            state: ActivationRequiredState, scheme: String? = nil, source: String? = nil,
            requestPayloadBytes: Int64? = nil)
        /// `activate(withOTP:)`: only the OTP's length is recorded.
        case submitOTP(otpLength: Int64)
        /// The verdict on the submitted OTP was negative.
        case rejectOTP(reason: OTPRejectionReason, attemptsRemaining: Int64? = nil)
        /// `resumeAppToAppActivation(withTAV:)` / `resumeAppToAppActivation()`.
        case resumeAppToApp(withTAV: Bool)
        /// A CPS push arrived.
        case receiveCPSNotification(messageCode: String)
        /// The SDK reported `activatedByIDV`.
        case confirmActivation
        /// The app lost the flow.
        case interrupt(reason: String)
        /// `getPendingCardActivationSession(…)` + `resume()`.
        case resumeActivation
        /// `cancel()`.
        case cancel
        /// The session expired.
        case expire
        /// The activation failed.
        case fail(reason: ActivationFailureReason)
    }

    /// The event `command` produces in `state`, handed to `emit`, or why it is refused
    /// (`Aggregate.decide` returns it in an array, for a caller that does not keep the state).
    ///
    /// Repeating a command that already took effect yields no events: eligibility, terms,
    /// request, decision, a selection still pending, ActivationRequired already reported, an OTP
    /// awaiting its verdict, an app-to-app resume, an activation, an interruption, a resume
    /// (while still awaiting the new selection), cancel, expiry, failure. `rejectOTP` and
    /// non-activating CPS pushes are occurrences and always produce an event when allowed. The
    /// event goes to `emit` once it passed the catalog and the state rules, and `state` moves on
    /// past it (unchanged on a rejection). The event is not applied twice.
    /// - Returns: nil, or the rule the command breaks.
    public static func execute(
        _ command: consuming Command, _ state: inout State, _ environment: Environment,
        _ emit: (NewEvent<CardEvent>) -> Void
    ) -> Rejection? {
        let event: CardEvent
        // The command is consumed: its values move into the event without copies.
        switch intend(command, state) {
        case let .success(intended?): event = intended
        case .success(nil): return nil
        case let .failure(rejection): return rejection
        }
        // The catalog's rules, as decoding the event's data would check them (without reading it back).
        do { try event.checkFields() } catch {
            return Rejection(error)
        }
        let occurredAt = environment.now()
        switch apply(state, event, occurredAt: occurredAt) {
        case let .success(next): state = next
        case let .failure(rejection): return rejection
        }
        emit(NewEvent(id: environment.newID(), occurredAt: occurredAt, event: consume event))
        return nil
    }

    /// The event a command means in a state (nil: already done), before the rules check it.
    private static func intend(_ command: consuming Command, _ state: State) -> Result<CardEvent?, Rejection> {
        let activation = state.activation
        let step = activation?.step
        switch consume command {
        case let .checkEligibility(inputMethod, outcome, errorCode):
            if let journey = state.journey {
                let recorded: EligibilityOutcome
                if case .notEligible = state { recorded = .notEligible } else { recorded = .eligible }
                guard journey.inputMethod == inputMethod, recorded == outcome else {
                    return .failure(
                        Rejection(
                            .cardEligibilityOnce,
                            "eligibility was already checked: "
                                + "\(journey.inputMethod.rawValue), \(recorded.rawValue)"))
                }
                return .success(nil)
            }
            return .success(
                .eligibilityChecked(.init(inputMethod: inputMethod, outcome: outcome, errorCode: errorCode)))
        case let .acceptTerms(digest):
            if state.journey?.termsAccepted == true { return .success(nil) }
            return .success(.termsAccepted(.init(tncDigest: digest)))
        case let .requestDigitization(language, pushTokenRef):
            switch state {
            case .requested, .approved, .declined, .pendingActivation, .ended: return .success(nil)
            case .empty, .notEligible, .eligible:
                return .success(.digitizationRequested(.init(language: language, pushTokenRef: pushTokenRef)))
            }
        case let .recordDecision(decision):
            switch (decision, state) {
            case let (.approved(id), .approved(_, recorded)) where id == recorded: return .success(nil)
            case (.declined, .declined): return .success(nil)
            case let (.approvedWithIDV(id, methods), .pendingActivation(_, recorded)),
                let (.approvedWithIDV(id, methods), .ended(_, recorded, _)):
                if recorded.digitalCardID == id && recorded.methods == methods { return .success(nil) }
            case (.approved, _), (.declined, _), (.approvedWithIDV, _): break
            }
            switch decision {
            case let .approved(id): return .success(.digitizationApproved(.init(digitalCardID: id)))
            case .declined: return .success(.digitizationDeclined(NoFields()))
            case let .approvedWithIDV(id, methods):
                return .success(.digitizationApprovedWithIDV(.init(digitalCardID: id, methods: methods)))
            }
        case let .selectIDVMethod(idvID):
            if activation?.selectedMethod?.id == idvID {
                switch step {
                case .awaitingActivationRequired?, .awaitingIssuer?: return .success(nil)
                case .awaitingMethodSelection?, .otpNeeded?, .otpSubmitted?, .appToAppSelected?,
                    .appToAppResumedWithTAV?, .interrupted?, nil:
                    break
                }
            }
            return .success(.idvMethodSelected(.init(idvID: idvID)))
        case let .reportActivationRequired(required, scheme, source, bytes):
            switch (required, step) {
            case (.otpNeeded, .otpNeeded?), (.appToAppSelected, .appToAppSelected?): return .success(nil)
            case (.otpNeeded, _), (.appToAppSelected, _): break
            }
            return .success(
                .activationRequired(
                    .init(
                        state: required, scheme: scheme, source: source,
                        requestPayloadBytes: bytes)))
        case let .submitOTP(length):
            if step == .otpSubmitted { return .success(nil) }
            return .success(.otpSubmitted(.init(otpLength: length)))
        case let .rejectOTP(reason, remaining):
            return .success(.otpRejected(.init(reason: reason, attemptsRemaining: remaining)))
        case let .resumeAppToApp(withTAV):
            if activation?.appToAppResumedWithTAV == withTAV
                && (step == .appToAppResumedWithTAV || step == .awaitingIssuer)
            {
                return .success(nil)
            }
            return .success(.appToAppResumed(.init(withTAV: withTAV)))
        case let .receiveCPSNotification(code):
            if code == CPSMessageCode.tokenProvisioned && state.activationOutcome == .activatedByIssuer {
                return .success(nil)
            }
            return .success(.cpsNotificationReceived(.init(messageCode: code)))
        case .confirmActivation:
            if state.activationOutcome == .activatedByIDV { return .success(nil) }
            return .success(.activatedByIDV(NoFields()))
        case let .interrupt(reason):
            if step == .interrupted { return .success(nil) }
            return .success(.activationInterrupted(.init(reason: reason)))
        case .resumeActivation:
            if activation?.resumed == true && step == .awaitingMethodSelection { return .success(nil) }
            return .success(.activationResumed(NoFields()))
        case .cancel:
            if state.activationOutcome == .cancelled { return .success(nil) }
            return .success(.activationCancelled(NoFields()))
        case .expire:
            if state.activationOutcome == .expired { return .success(nil) }
            return .success(.activationExpired(NoFields()))
        case let .fail(reason):
            if state.activationOutcome == .failed(reason) { return .success(nil) }
            return .success(.activationFailed(.init(reason: reason)))
        }
    }
}
