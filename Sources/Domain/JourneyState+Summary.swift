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
        var builder = SummaryObjectBuilder()
        describe(into: &builder)
        return builder.object
    }

    /// Appends the compact JSON text of ``summary()`` to `bytes` (what `JSONWriter` writes for it),
    /// without building the object.
    public func writeSummary(into bytes: inout [UInt8]) {
        var builder = SummaryBytesBuilder(appendingTo: &bytes)
        describe(into: &builder)
        builder.close(into: &bytes)
    }

    /// The summary's keys and values, in order, for either builder.
    package func describe<Builder: SummaryBuilder>(into builder: inout Builder) {
        switch self {
        case let .threeDS(state): state.describe(into: &builder)
        case let .card(state): state.describe(into: &builder)
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

extension ThreeDSTransaction.State {
    /// See ``JourneyState/summary()``.
    public func summary() -> JSONObject {
        var builder = SummaryObjectBuilder()
        describe(into: &builder)
        return builder.object
    }

    package func describe<Builder: SummaryBuilder>(into builder: inout Builder) {
        let challenge = self.challenge
        builder.string("category", "3ds")
        builder.string("status", statusName)
        var step: String?
        if case let .challenge(_, running) = self { step = running.step.name }
        builder.string("step", step)
        builder.bool("terminal", isTerminal)
        builder.string("outcome", outcomeKey.rawValue)
        builder.string("directoryServerID", info?.directoryServerID)
        builder.string("messageVersion", info?.messageVersion.rawValue)
        builder.string("authResponseTransStatus", info?.authResponseStatus?.rawValue)
        builder.string("challengeStartedAt", challenge.map { $0.startedAt.description })
        builder.integer("timeoutSeconds", challenge.map { $0.timeoutSeconds })
        builder.string("deadline", challenge.map { $0.deadline.description })
        builder.string("lastCounter", challenge?.lastCounter?.text)
        let inFlight = requestInFlight
        builder.object("requestInFlight", present: inFlight != nil) { nested in
            guard let (counter, action) = inFlight else { return }
            nested.string("counter", counter.text)
            nested.string("action", action.rawValue)
        }
        builder.string("lastUiType", lastUIType?.rawValue)
        builder.strings("uiTypesSeen", uiTypesSeen.lazy.map { $0.rawValue })
        builder.integer("requests", Int64(challenge?.requests ?? 0))
        builder.integer("otpSubmissions", Int64(otpSubmissions))
        builder.integer("resends", Int64(resends))
        builder.bool("cancelRequested", challenge?.cancelRequested ?? false)
        let (finalStatus, errorCode) = finalStatusAndErrorCode
        builder.string("finalTransStatus", finalStatus)
        builder.string("errorCode", errorCode)
    }

    /// The final response's `transStatus`, or the error code the transaction ended with: the
    /// summary's `finalTransStatus` and `errorCode`, whichever writer builds it.
    var finalStatusAndErrorCode: (finalStatus: String?, errorCode: String?) {
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
        return (finalStatus, errorCode)
    }
}

extension CardDigitization.State {
    /// See ``JourneyState/summary()``.
    public func summary() -> JSONObject {
        var builder = SummaryObjectBuilder()
        describe(into: &builder)
        return builder.object
    }

    package func describe<Builder: SummaryBuilder>(into builder: inout Builder) {
        let journey = self.journey
        let activation = self.activation
        builder.string("category", "card")
        builder.string("status", statusName)
        var step: String?
        if case let .pendingActivation(_, running) = self { step = running.step.label }
        builder.string("step", step)
        builder.bool("terminal", isTerminal)
        builder.string("outcome", outcomeKey.rawValue)
        builder.string("inputMethod", journey?.inputMethod.rawValue)
        builder.string("eligibilityErrorCode", journey?.eligibilityErrorCode)
        builder.bool("termsAccepted", journey?.termsAccepted ?? false)
        builder.string("language", journey?.language)
        builder.string("digitalCardID", digitalCardID)
        builder.strings("offeredMethods", (activation?.methods ?? []).lazy.map { $0.id })
        let method = selectedMethod
        builder.object("selectedMethod", present: method != nil) { nested in
            guard let method else { return }
            nested.string("id", method.id)
            nested.string("type", method.type.rawValue)
            if let withCryptogram = method.withCryptogram { nested.bool("withCryptogram", withCryptogram) }
        }
        builder.bool("resumed", resumed)
        builder.integer("selections", Int64(activation?.selections ?? 0))
        builder.integer("attempts", Int64(attempts))
        builder.integer("otpRejections", Int64(activation?.otpRejections ?? 0))
        builder.integer("interruptions", Int64(activation?.interruptions ?? 0))
        builder.bool("appToAppResumedWithTAV", activation?.appToAppResumedWithTAV)
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
        builder.string("activatedBy", activatedBy)
        builder.string("failureReason", failureReason)
    }
}
