import JournalCore

extension JourneyState {
    /// A deterministic, JSON-ready description of the state for `journal state` and `replay`.
    ///
    /// The keys are always present and always in the same order (absent values are `null`), so
    /// the same events give byte-identical output on any machine. `3ds` keys: `category`,
    /// `status`, `step`, `terminal`, `outcome`, `directoryServerID`, `messageVersion`,
    /// `authResponseTransStatus`, `challengeStartedAt`, `timeoutSeconds`, `deadline`,
    /// `lastCounter`, `requestInFlight`, `lastUiType`, `uiTypesSeen`, `requests`,
    /// `otpSubmissions`, `resends`, `cancelRequested`, `finalTransStatus`, `errorCode`.
    /// `card` keys: `category`, `status`, `step`, `terminal`, `outcome`, `inputMethod`,
    /// `eligibilityErrorCode`, `termsAccepted`, `language`, `digitalCardID`, `offeredMethods`,
    /// `selectedMethod`, `resumed`, `selections`, `attempts`, `otpRejections`, `interruptions`,
    /// `appToAppResumedWithTAV`, `activatedBy`, `failureReason`.
    public func summary() -> JSONObject {
        switch self {
        case let .threeDS(state): return state.summary()
        case let .card(state): return state.summary()
        }
    }

    /// The summary on one line: `key=value` pairs in summary order, `null` values left out,
    /// nested objects flattened (`requestInFlight.counter=001`), arrays joined with commas.
    public var textSummary: String { Self.oneLine(summary()) }

    static func oneLine(_ object: JSONObject) -> String {
        var parts: [String] = []
        func add(_ key: String, _ value: JSONValue) {
            switch value {
            case .null: break
            case let .bool(bool): parts.append("\(key)=\(bool)")
            case let .number(number): parts.append("\(key)=\(number.text)")
            case let .string(string): parts.append("\(key)=\(string)")
            case let .array(array):
                let items = array.map { element -> String in
                    switch element {
                    case let .string(string): return string
                    case .null, .bool, .number, .array, .object: return JSONWriter.string(element)
                    }
                }
                parts.append("\(key)=\(items.isEmpty ? "-" : items.joined(separator: ","))")
            case let .object(nested):
                for (nestedKey, nestedValue) in nested { add("\(key).\(nestedKey)", nestedValue) }
            }
        }
        for (key, value) in object { add(key, value) }
        return parts.joined(separator: " ")
    }
}

private func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
private func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

extension ThreeDSTransaction.State {
    /// See ``JourneyState/summary()``.
    public func summary() -> JSONObject {
        var object = JSONObject()
        let challenge = self.challenge
        object.appendUnchecked(key: "category", value: .string("3ds"))
        object.appendUnchecked(key: "status", value: .string(statusName))
        var step: String?
        if case let .challenge(_, running) = self { step = running.step.name }
        object.appendUnchecked(key: "step", value: string(step))
        object.appendUnchecked(key: "terminal", value: .bool(isTerminal))
        object.appendUnchecked(key: "outcome", value: .string(outcomeKey.rawValue))
        object.appendUnchecked(key: "directoryServerID", value: string(info?.directoryServerID))
        object.appendUnchecked(key: "messageVersion", value: string(info?.messageVersion.rawValue))
        object.appendUnchecked(key: "authResponseTransStatus", value: string(info?.authResponseStatus?.rawValue))
        object.appendUnchecked(key: "challengeStartedAt", value: string(challenge.map { $0.startedAt.description }))
        object.appendUnchecked(
            key: "timeoutSeconds", value: challenge.map { .number(JSONNumber($0.timeoutSeconds)) } ?? .null)
        object.appendUnchecked(key: "deadline", value: string(challenge.map { $0.deadline.description }))
        object.appendUnchecked(key: "lastCounter", value: string(challenge?.lastCounter?.text))
        if let (counter, action) = requestInFlight {
            object.appendUnchecked(
                key: "requestInFlight",
                value: .object(
                    JSONObject([
                        ("counter", .string(counter.text)), ("action", .string(action.rawValue))
                    ])))
        } else {
            object.appendUnchecked(key: "requestInFlight", value: .null)
        }
        object.appendUnchecked(key: "lastUiType", value: string(lastUIType?.rawValue))
        object.appendUnchecked(key: "uiTypesSeen", value: .array(uiTypesSeen.map { .string($0.rawValue) }))
        object.appendUnchecked(key: "requests", value: int(challenge?.requests ?? 0))
        object.appendUnchecked(key: "otpSubmissions", value: int(otpSubmissions))
        object.appendUnchecked(key: "resends", value: int(resends))
        object.appendUnchecked(key: "cancelRequested", value: .bool(challenge?.cancelRequested ?? false))
        var finalStatus: String?
        var errorCode: String?
        switch self {
        case let .challenge(_, running):
            if case let .finalResponseReceived(transStatus, _) = running.step { finalStatus = transStatus.rawValue }
        case let .ended(_, _, outcome):
            switch outcome {
            case let .completed(transStatus): finalStatus = transStatus.rawValue
            case let .protocolError(code), let .runtimeError(code): errorCode = code
            case .closed, .cancelled, .timedOut: break
            }
        case .empty, .created, .authParametersIssued, .authResponseReceived: break
        }
        object.appendUnchecked(key: "finalTransStatus", value: string(finalStatus))
        object.appendUnchecked(key: "errorCode", value: string(errorCode))
        return object
    }
}

extension CardDigitization.State {
    /// See ``JourneyState/summary()``.
    public func summary() -> JSONObject {
        var object = JSONObject()
        let journey = self.journey
        let activation = self.activation
        object.appendUnchecked(key: "category", value: .string("card"))
        object.appendUnchecked(key: "status", value: .string(statusName))
        var step: String?
        if case let .pendingActivation(_, running) = self { step = running.step.label }
        object.appendUnchecked(key: "step", value: string(step))
        object.appendUnchecked(key: "terminal", value: .bool(isTerminal))
        object.appendUnchecked(key: "outcome", value: .string(outcomeKey.rawValue))
        object.appendUnchecked(key: "inputMethod", value: string(journey?.inputMethod.rawValue))
        object.appendUnchecked(key: "eligibilityErrorCode", value: string(journey?.eligibilityErrorCode))
        object.appendUnchecked(key: "termsAccepted", value: .bool(journey?.termsAccepted ?? false))
        object.appendUnchecked(key: "language", value: string(journey?.language))
        object.appendUnchecked(key: "digitalCardID", value: string(digitalCardID))
        object.appendUnchecked(key: "offeredMethods", value: .array((activation?.methods ?? []).map { .string($0.id) }))
        if let method = selectedMethod {
            var selected = JSONObject([("id", .string(method.id)), ("type", .string(method.type.rawValue))])
            if let withCryptogram = method.withCryptogram {
                selected.appendUnchecked(key: "withCryptogram", value: .bool(withCryptogram))
            }
            object.appendUnchecked(key: "selectedMethod", value: .object(selected))
        } else {
            object.appendUnchecked(key: "selectedMethod", value: .null)
        }
        object.appendUnchecked(key: "resumed", value: .bool(resumed))
        object.appendUnchecked(key: "selections", value: int(activation?.selections ?? 0))
        object.appendUnchecked(key: "attempts", value: int(attempts))
        object.appendUnchecked(key: "otpRejections", value: int(activation?.otpRejections ?? 0))
        object.appendUnchecked(key: "interruptions", value: int(activation?.interruptions ?? 0))
        object.appendUnchecked(
            key: "appToAppResumedWithTAV", value: activation?.appToAppResumedWithTAV.map { .bool($0) } ?? .null)
        var activatedBy: String?
        var failureReason: String?
        if let outcome = activationOutcome {
            switch outcome {
            case .activatedByIDV: activatedBy = "idv"
            case .activatedByIssuer: activatedBy = "issuer"
            case let .failed(reason): failureReason = reason.rawValue
            case .cancelled, .expired: break
            }
        }
        object.appendUnchecked(key: "activatedBy", value: string(activatedBy))
        object.appendUnchecked(key: "failureReason", value: string(failureReason))
        return object
    }
}
