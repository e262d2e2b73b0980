import JournalCore

extension DomainEvent {
    /// The fields a person reads first in `journal audit`, in a fixed order per event type
    /// (e.g. `sdkCounterStoA=001 action=submitText`). Free-text fields (error descriptions,
    /// messages) are left out; extra fields are never shown.
    public var keyFields: [(name: String, value: String)] {
        switch self {
        case let .threeDS(event): return event.keyFields
        case let .card(event): return event.keyFields
        }
    }

    /// ``keyFields`` as `name=value` pairs separated by spaces, empty when there are none.
    public var keyFieldsText: String { keyFields.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }
}

extension ThreeDSEvent {
    /// See ``DomainEvent/keyFields``.
    public var keyFields: [(name: String, value: String)] {
        switch self {
        case let .transactionCreated(event):
            var fields = [
                ("directoryServerID", event.directoryServerID), ("messageVersion", event.messageVersion.rawValue)
            ]
            if event.customCertificate == true { fields.append(("customCertificate", "true")) }
            return fields
        case let .authRequestParametersCreated(event):
            return [("deviceDataBytes", String(event.deviceDataBytes))]
        case let .authResponseReceived(event):
            var fields = [("transStatus", event.transStatus.rawValue)]
            if let reason = event.transStatusReason { fields.append(("transStatusReason", reason)) }
            return fields
        case let .challengeStarted(event):
            return [("timeoutSeconds", String(event.timeoutSeconds))]
        case let .challengeRequestSent(event):
            return [("sdkCounterStoA", event.sdkCounterStoA.text), ("action", event.action.rawValue)]
        case let .challengeResponseReceived(event):
            switch event.result {
            case let .screen(uiType):
                return [
                    ("acsCounterAtoS", event.acsCounterAtoS.text), ("challengeCompletionInd", "N"),
                    ("acsUiType", uiType.rawValue)
                ]
            case let .final(transStatus):
                return [
                    ("acsCounterAtoS", event.acsCounterAtoS.text), ("challengeCompletionInd", "Y"),
                    ("transStatus", transStatus.rawValue)
                ]
            }
        case let .challengeCompleted(event):
            return [("transStatus", event.transStatus.rawValue)]
        case let .protocolErrorOccurred(event):
            return [
                ("errorCode", event.errorCode), ("errorComponent", event.errorComponent.rawValue),
                ("sentToACS", String(event.sentToACS))
            ]
        case let .runtimeErrorOccurred(event):
            return [("errorCode", event.errorCode)]
        case .transactionClosed, .challengeCancelled, .challengeTimedOut:
            return []
        }
    }
}

extension CardEvent {
    /// See ``DomainEvent/keyFields``.
    public var keyFields: [(name: String, value: String)] {
        switch self {
        case let .eligibilityChecked(event):
            var fields = [("inputMethod", event.inputMethod.rawValue), ("outcome", event.outcome.rawValue)]
            if let code = event.errorCode { fields.append(("errorCode", code)) }
            return fields
        case let .digitizationRequested(event):
            return [("language", event.language)]
        case let .digitizationApproved(event):
            return [("digitalCardID", event.digitalCardID)]
        case let .digitizationApprovedWithIDV(event):
            return [
                ("digitalCardID", event.digitalCardID),
                ("methods", event.methods.map { "\($0.id):\($0.type.rawValue)" }.joined(separator: ","))
            ]
        case let .idvMethodSelected(event):
            return [("idvID", event.idvID)]
        case let .activationRequired(event):
            return [("state", event.state.rawValue)]
        case let .otpSubmitted(event):
            return [("otpLength", String(event.otpLength))]
        case let .otpRejected(event):
            var fields = [("reason", event.reason.rawValue)]
            if let remaining = event.attemptsRemaining { fields.append(("attemptsRemaining", String(remaining))) }
            return fields
        case let .appToAppResumed(event):
            return [("withTAV", String(event.withTAV))]
        case let .cpsNotificationReceived(event):
            return [("messageCode", event.messageCode)]
        case let .activationInterrupted(event):
            return [("reason", event.reason)]
        case let .activationFailed(event):
            return [("reason", event.reason.rawValue)]
        case .termsAccepted, .digitizationDeclined, .activatedByIDV, .activationResumed, .activationCancelled,
            .activationExpired:
            return []
        }
    }
}
