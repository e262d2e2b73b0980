import JournalCore

extension CardDigitization {
    /// Transitions of the pending activation (yellow flow), spec §3.2 step by step.
    static func applyInActivation(_ journey: Journey, _ activation: Activation, _ event: CardEvent)
        -> Result<State, Rejection>
    {
        var activation = activation
        let current = State.pendingActivation(journey, activation)
        if activation.step == .interrupted {
            switch event {
            case .activationResumed, .activationCancelled, .activationExpired, .activationFailed,
                .cpsNotificationReceived:
                break
            case .eligibilityChecked, .termsAccepted, .digitizationRequested, .digitizationApproved,
                .digitizationDeclined, .digitizationApprovedWithIDV, .idvMethodSelected, .activationRequired,
                .otpSubmitted, .otpRejected, .appToAppResumed, .activatedByIDV, .activationInterrupted:
                return .failure(
                    Rejection(
                        .cardInterrupted,
                        "while interrupted only ActivationResumed, "
                            + "ActivationCancelled, ActivationExpired, ActivationFailed or "
                            + "CPSNotificationReceived may follow, got \(event.typeName)"))
            }
        }
        switch event {
        case .eligibilityChecked:
            return .failure(Rejection(.cardEligibilityOnce, "EligibilityChecked is allowed as the first event only"))
        case .termsAccepted:
            return .failure(Rejection(.cardTerms, "TermsAccepted must come before DigitizationRequested"))
        case .digitizationRequested:
            return .failure(Rejection(.cardRequest, "DigitizationRequested is allowed once per journey"))
        case .digitizationApproved, .digitizationDeclined, .digitizationApprovedWithIDV:
            return .failure(
                Rejection(
                    .cardDecision,
                    "\(event.typeName) must come right after DigitizationRequested; "
                        + "the decision was already made"))
        case let .idvMethodSelected(selected):
            guard activation.step == .awaitingMethodSelection else {
                return .failure(
                    Rejection(
                        .cardMethodSelection,
                        "IDVMethodSelected requires an activation awaiting a "
                            + "method selection; the journey is \(current.label)"))
            }
            guard let method = activation.method(id: selected.idvID) else {
                let offered = activation.methods.map(\.id).joined(separator: ", ")
                return .failure(
                    Rejection(
                        .cardUnknownMethod,
                        "IDVMethodSelected.idvID must be one of the offered "
                            + "methods (\(offered)), got \(ValueEcho.describe(selected.idvID))"))
            }
            guard !(activation.resumed && method.isAppToAppWithoutCryptogram) else {
                return .failure(
                    Rejection(
                        .cardResumedAppToApp,
                        "IDVMethodSelected.idvID \(ValueEcho.describe(method.id)) "
                            + "is an appToApp method without cryptogram, which cannot be selected after a resume"))
            }
            activation.selectedMethod = method
            activation.selections += 1
            switch method.type {
            case .otpBySMS, .otpByEmail: activation.step = .awaitingActivationRequired(.otpNeeded)
            case .appToApp: activation.step = .awaitingActivationRequired(.appToAppSelected)
            case .customerService, .webService: activation.step = .awaitingIssuer
            }
        case let .activationRequired(required):
            guard case let .awaitingActivationRequired(expected) = activation.step else {
                return .failure(
                    Rejection(
                        .cardActivationRequired,
                        "ActivationRequired must come right after selecting "
                            + "an OTP or appToApp method; the journey is \(current.label)"))
            }
            guard required.state == expected else {
                let type = activation.selectedMethod?.type.rawValue ?? "?"
                return .failure(
                    Rejection(
                        .cardActivationRequired,
                        "ActivationRequired.state must be "
                            + "\"\(expected.rawValue)\" (the selected method is \(type)), got "
                            + "\"\(required.state.rawValue)\""
                    ))
            }
            switch required.state {
            case .otpNeeded: activation.step = .otpNeeded
            case .appToAppSelected: activation.step = .appToAppSelected
            }
        case .otpSubmitted:
            guard activation.step == .otpNeeded else {
                if activation.step == .otpSubmitted {
                    return .failure(
                        Rejection(
                            .cardOTPSubmission,
                            "OTPSubmitted while an earlier OTPSubmitted awaits its "
                                + "verdict: a second submission before the verdict is rejected"))
                }
                return .failure(
                    Rejection(
                        .cardOTPSubmission,
                        "OTPSubmitted requires the state otpNeeded; the journey "
                            + "is \(current.label)"))
            }
            activation.step = .otpSubmitted
            activation.otpSubmissions += 1
        case let .otpRejected(rejected):
            guard activation.step == .otpSubmitted else {
                return .failure(
                    Rejection(
                        .cardOTPVerdict,
                        "OTPRejected requires an OTPSubmitted awaiting its verdict; "
                            + "the journey is \(current.label)"))
            }
            activation.otpRejections += 1
            activation.step = rejected.returnsToMethodSelection ? .awaitingMethodSelection : .otpNeeded
        case let .appToAppResumed(resumed):
            guard activation.step == .appToAppSelected else {
                return .failure(
                    Rejection(
                        .cardAppToAppResume,
                        "AppToAppResumed requires the state appToAppSelected; "
                            + "the journey is \(current.label)"))
            }
            let expected = activation.selectedMethod?.withCryptogram ?? false
            guard resumed.withTAV == expected else {
                return .failure(
                    Rejection(
                        .cardAppToAppResume,
                        "AppToAppResumed.withTAV must be \(expected) (the "
                            + "selected method's withCryptogram), got \(resumed.withTAV)"))
            }
            activation.appToAppResumedWithTAV = resumed.withTAV
            activation.step = resumed.withTAV ? .appToAppResumedWithTAV : .awaitingIssuer
        case let .cpsNotificationReceived(notification):
            if notification.activates { return .success(.ended(journey, activation, .activatedByIssuer)) }
            return .success(current)
        case .activatedByIDV:
            guard activation.step == .otpSubmitted || activation.step == .appToAppResumedWithTAV else {
                return .failure(
                    Rejection(
                        .cardActivatedByIDV,
                        "ActivatedByIDV requires an OTPSubmitted awaiting its "
                            + "verdict or an AppToAppResumed with withTAV true; the journey is \(current.label)"))
            }
            return .success(.ended(journey, activation, .activatedByIDV))
        case .activationInterrupted:
            // The interrupted step was handled above: an interruption is never repeated.
            activation.step = .interrupted
            activation.interruptions += 1
        case .activationResumed:
            guard activation.step == .interrupted else {
                return .failure(
                    Rejection(
                        .cardResume,
                        "ActivationResumed requires an interrupted activation; the "
                            + "journey is \(current.label)"))
            }
            activation.resumed = true
            activation.step = .awaitingMethodSelection
        case .activationCancelled:
            return .success(.ended(journey, activation, .cancelled))
        case .activationExpired:
            return .success(.ended(journey, activation, .expired))
        case let .activationFailed(failed):
            return .success(.ended(journey, activation, .failed(failed.reason)))
        }
        return .success(.pendingActivation(journey, activation))
    }
}

extension CardDigitization.State {
    /// A short human description of the state, for rejection reasons and text output.
    public var label: String {
        switch self {
        case .empty: return "empty"
        case .notEligible: return "not eligible"
        case let .eligible(journey): return journey.termsAccepted ? "eligible, terms accepted" : "eligible"
        case .requested: return "digitization requested"
        case .approved: return "approved (green)"
        case .declined: return "declined (red)"
        case let .pendingActivation(_, activation): return "pending activation, \(activation.step.label)"
        case let .ended(_, _, outcome): return "ended (\(outcome.eventType))"
        }
    }
}

extension CardDigitization.Activation.Step {
    /// The step's name as `journal state` prints it.
    public var label: String {
        switch self {
        case .awaitingMethodSelection: return "awaitingMethodSelection"
        case let .awaitingActivationRequired(state): return "awaitingActivationRequired(\(state.rawValue))"
        case .otpNeeded: return "otpNeeded"
        case .otpSubmitted: return "otpSubmitted"
        case .appToAppSelected: return "appToAppSelected"
        case .appToAppResumedWithTAV: return "appToAppResumedWithTAV"
        case .awaitingIssuer: return "awaitingIssuer"
        case .interrupted: return "interrupted"
        }
    }
}
