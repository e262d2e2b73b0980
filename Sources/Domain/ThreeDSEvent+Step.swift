import JournalCore

extension ThreeDSEvent {
    /// What the transaction's state rules read of an event: its type and the few values they
    /// check or keep. ``ThreeDSTransaction`` folds these, so a fold of stored events can read
    /// them straight from the bytes (``init(type:flat:)``) without a payload of every field.
    enum Step {
        case transactionCreated(directoryServerID: String, messageVersion: MessageVersion)
        case authRequestParametersCreated
        case authResponseReceived(TransStatus)
        case transactionClosed
        case challengeStarted(timeoutSeconds: Int64)
        case challengeRequestSent(counter: ChallengeCounter, action: ChallengeAction)
        case challengeResponseReceived(counter: ChallengeCounter, result: ChallengeResponseReceived.Result)
        case challengeCompleted(ChallengeTransStatus)
        case challengeCancelled
        case challengeTimedOut
        case protocolErrorOccurred(errorCode: String)
        case runtimeErrorOccurred(errorCode: String)

        /// The event's type name as written in the envelope.
        var typeName: String {
            switch self {
            case .transactionCreated: return EventType.transactionCreated.name
            case .authRequestParametersCreated: return EventType.authRequestParametersCreated.name
            case .authResponseReceived: return EventType.authResponseReceived.name
            case .transactionClosed: return EventType.transactionClosed.name
            case .challengeStarted: return EventType.challengeStarted.name
            case .challengeRequestSent: return EventType.challengeRequestSent.name
            case .challengeResponseReceived: return EventType.challengeResponseReceived.name
            case .challengeCompleted: return EventType.challengeCompleted.name
            case .challengeCancelled: return EventType.challengeCancelled.name
            case .challengeTimedOut: return EventType.challengeTimedOut.name
            case .protocolErrorOccurred: return EventType.protocolErrorOccurred.name
            case .runtimeErrorOccurred: return EventType.runtimeErrorOccurred.name
            }
        }
    }

    /// The values of this event the state rules read.
    var step: Step {
        switch self {
        case let .transactionCreated(event):
            return .transactionCreated(directoryServerID: event.directoryServerID, messageVersion: event.messageVersion)
        case .authRequestParametersCreated: return .authRequestParametersCreated
        case let .authResponseReceived(event): return .authResponseReceived(event.transStatus)
        case .transactionClosed: return .transactionClosed
        case let .challengeStarted(event): return .challengeStarted(timeoutSeconds: event.timeoutSeconds)
        case let .challengeRequestSent(event):
            return .challengeRequestSent(counter: event.sdkCounterStoA, action: event.action)
        case let .challengeResponseReceived(event):
            return .challengeResponseReceived(counter: event.acsCounterAtoS, result: event.result)
        case let .challengeCompleted(event): return .challengeCompleted(event.transStatus)
        case .challengeCancelled: return .challengeCancelled
        case .challengeTimedOut: return .challengeTimedOut
        case let .protocolErrorOccurred(event): return .protocolErrorOccurred(errorCode: event.errorCode)
        case let .runtimeErrorOccurred(event): return .runtimeErrorOccurred(errorCode: event.errorCode)
        }
    }
}

extension ThreeDSEvent.Step {
    /// The step of a stored `data` read in place, when ``ThreeDSEvent/decode(type:data:)`` would
    /// accept it: every field of the type checked with the same rules, only the values the state
    /// keeps or checks read. nil for anything the decoder would refuse (or a type outside the
    /// category): decode it then, to learn why.
    init?(type: EventType, flat: JSONFlatObject) {
        let fields = FlatFields(flat: flat)
        switch type {
        case .transactionCreated:
            // `warnings` is an array of strings: absent or null is all a flat object can hold.
            guard let directoryServerID = fields.string("directoryServerID"),
                let messageVersion = fields.value("messageVersion", MessageVersion.self),
                let customCertificate = fields.optionalBool("customCertificate"),
                fields.isAbsent("warnings"),
                DirectoryServer.isKnown(directoryServerID) || customCertificate == true
            else { return nil }
            self = .transactionCreated(directoryServerID: directoryServerID, messageVersion: messageVersion)
        case .authRequestParametersCreated:
            guard fields.text("sdkReferenceNumber") != nil, let bytes = fields.int("deviceDataBytes"), bytes >= 0,
                fields.hasOptionalText("sdkAppIDRef"), fields.hasOptionalText("ephemeralKeyThumbprint")
            else { return nil }
            self = .authRequestParametersCreated
        case .authResponseReceived:
            guard fields.isUUID("threeDSServerTransID"), fields.text("acsTransID") != nil,
                let transStatus = fields.value("transStatus", TransStatus.self),
                fields.hasOptionalText("transStatusReason")
            else { return nil }
            self = .authResponseReceived(transStatus)
        case .transactionClosed: self = .transactionClosed
        case .challengeStarted:
            guard let timeout = fields.int("timeoutSeconds"),
                timeout >= ThreeDSEvent.ChallengeStarted.minimumTimeoutSeconds, timeout <= 1_000_000_000,
                fields.text("acsReferenceNumber") != nil
            else { return nil }
            self = .challengeStarted(timeoutSeconds: timeout)
        case .challengeRequestSent:
            guard let counter = fields.counter("sdkCounterStoA"),
                let action = fields.value("action", ChallengeAction.self),
                let entryLength = fields.optionalInt("entryLength"), (entryLength ?? 0) >= 0,
                fields.optionalBool("noEntry") != nil
            else { return nil }
            self = .challengeRequestSent(counter: counter, action: action)
        case .challengeResponseReceived:
            guard let counter = fields.counter("acsCounterAtoS"),
                let completion = fields.value("challengeCompletionInd", ChallengeCompletion.self)
            else { return nil }
            switch completion {
            case .N:
                guard let uiType = fields.value("acsUiType", ACSUIType.self) else { return nil }
                self = .challengeResponseReceived(counter: counter, result: .screen(uiType))
            case .Y:
                guard let transStatus = fields.value("transStatus", ChallengeTransStatus.self) else { return nil }
                self = .challengeResponseReceived(counter: counter, result: .final(transStatus))
            }
        case .challengeCompleted:
            guard let transStatus = fields.value("transStatus", ChallengeTransStatus.self) else { return nil }
            self = .challengeCompleted(transStatus)
        case .challengeCancelled: self = .challengeCancelled
        case .challengeTimedOut: self = .challengeTimedOut
        case .protocolErrorOccurred:
            guard let errorCode = fields.string("errorCode"),
                fields.value("errorComponent", ErrorComponent.self) != nil,
                fields.text("errorDescription") != nil, fields.hasOptionalText("errorDetail"),
                fields.hasOptionalText("errorMessageType"), fields.bool("sentToACS") != nil
            else { return nil }
            self = .protocolErrorOccurred(errorCode: errorCode)
        case .runtimeErrorOccurred:
            // Flat strings are ASCII: a byte is a code point.
            guard let errorCode = fields.string("errorCode"), let message = fields.text("errorMessage"),
                message.count <= ThreeDSEvent.RuntimeErrorOccurred.maximumMessageLength
            else { return nil }
            self = .runtimeErrorOccurred(errorCode: errorCode)
        case .eligibilityChecked, .termsAccepted, .digitizationRequested, .digitizationApproved,
            .digitizationDeclined, .digitizationApprovedWithIDV, .idvMethodSelected, .activationRequired,
            .otpSubmitted, .otpRejected, .appToAppResumed, .cpsNotificationReceived, .activatedByIDV,
            .activationInterrupted, .activationResumed, .activationCancelled, .activationExpired,
            .activationFailed:
            return nil
        }
    }
}
