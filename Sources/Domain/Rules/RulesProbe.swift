import JournalCore

/// The transition transcript of ``DomainRules/description()``: every state the aggregates reach
/// from their initial states through sequences of probe events (breadth first, up to ``depth``
/// events, each state once), and for each state and probe the outcome: the state it leads to,
/// or the rule it breaks and the reason. The probes are events of every catalog type with the
/// values the rules look at (counters, actions, UI types, statuses, bounds on both sides).
package enum RulesProbe {
    package typealias Apply = (JourneyState, String, JSONObject, Timestamp) -> Result<JourneyState, DomainRejection>

    /// Events per explored sequence.
    static let depth = 7
    /// States explored per category, at most (the exploration is breadth first: the nearest).
    static let stateLimit = 1500

    struct Probe {
        let type: String
        let data: JSONObject
        /// Milliseconds after the probes' common time.
        let after: Int64
    }

    static let start: Int64 = 1_796_292_000_000

    static func transcript(applying: Apply) -> [String] {
        var lines: [String] = []
        for category in StreamCategory.allCases {
            lines += explore(category, probes: probes(category), applying: applying)
        }
        return lines
    }

    private static func explore(_ category: StreamCategory, probes: [Probe], applying: Apply) -> [String] {
        var lines = probes.enumerated().map { index, probe in
            "probe \(category.rawValue) \(index) \(probe.type) +\(probe.after) "
                + JSONWriter.string(.object(probe.data))
        }
        var states = [JourneyState.initial(for: category)]
        var index: [String: Int] = [String(describing: states[0]): 0]
        var depths = [0]
        var next = 0
        while next < states.count {
            let state = states[next]
            lines.append("state \(category.rawValue) \(next) \(state.textSummary)")
            for (probeIndex, probe) in probes.enumerated() {
                let at = Timestamp(millisecondsSinceEpoch: start + probe.after)
                switch applying(state, probe.type, probe.data, at) {
                case let .success(after):
                    let key = String(describing: after)
                    var target = index[key]
                    if target == nil, depths[next] < depth, states.count < stateLimit {
                        target = states.count
                        index[key] = states.count
                        states.append(after)
                        depths.append(depths[next] + 1)
                    }
                    lines.append("\(next) \(probeIndex) -> \(target.map(String.init) ?? "beyond")")
                case let .failure(rejection):
                    lines.append("\(next) \(probeIndex) x \(rejection.rule.rawValue): \(rejection.reason)")
                }
            }
            next += 1
        }
        return lines
    }

    private static func probe(_ type: EventType, _ data: String, after: Int64 = 0) -> Probe {
        guard let object = try? JSONParser().parse(Array(data.utf8)).objectValue else {
            preconditionFailure("a probe's data is a JSON object: \(data)")
        }
        return Probe(type: type.name, data: object, after: after)
    }

    private static func probes(_ category: StreamCategory) -> [Probe] {
        switch category {
        case .threeDS: return threeDSProbes
        case .card: return cardProbes
        }
    }

    private static let threeDSProbes: [Probe] = [
        probe(.transactionCreated, #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#),
        probe(.transactionCreated, #"{"directoryServerID":"B000000001","messageVersion":"2.3.1"}"#),
        probe(
            .transactionCreated,
            #"{"directoryServerID":"B000000001","messageVersion":"2.1.0","customCertificate":true}"#),
        probe(.transactionCreated, #"{"directoryServerID":"A000000004","messageVersion":"2.0.0"}"#),
        probe(.authRequestParametersCreated, #"{"sdkReferenceNumber":"REF-1","deviceDataBytes":2048}"#),
        probe(.authRequestParametersCreated, #"{"sdkReferenceNumber":"REF-1"}"#),
        probe(
            .authResponseReceived,
            #"{"threeDSServerTransID":"0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b","acsTransID":"a","transStatus":"C"}"#),
        probe(
            .authResponseReceived,
            #"{"threeDSServerTransID":"0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b","acsTransID":"a","transStatus":"Y"}"#),
        probe(
            .authResponseReceived,
            #"{"threeDSServerTransID":"0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b","acsTransID":"a","transStatus":"D"}"#),
        probe(.authResponseReceived, #"{"threeDSServerTransID":"x","acsTransID":"a","transStatus":"Q"}"#),
        probe(.transactionClosed, "{}"),
        probe(.challengeStarted, #"{"timeoutSeconds":600,"acsReferenceNumber":"ACS"}"#),
        probe(.challengeStarted, #"{"timeoutSeconds":299,"acsReferenceNumber":"ACS"}"#),
        probe(.challengeStarted, #"{"timeoutSeconds":300,"acsReferenceNumber":"ACS"}"#, after: 1),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"000","action":"initial"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"submitText","entryLength":6}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"resend"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"cancel"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"submitSelection"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"oobContinue"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"htmlForm"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"001","action":"continue"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"002","action":"submitText"}"#),
        probe(.challengeRequestSent, #"{"sdkCounterStoA":"1","action":"submitText"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"01"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"02"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"06"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"07"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"09"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"N"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"000","challengeCompletionInd":"Y","transStatus":"Y"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"001","challengeCompletionInd":"N","acsUiType":"01"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"001","challengeCompletionInd":"Y","transStatus":"N"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"001","challengeCompletionInd":"Y"}"#),
        probe(.challengeResponseReceived, #"{"acsCounterAtoS":"001","challengeCompletionInd":"Y","transStatus":"A"}"#),
        probe(.challengeCompleted, #"{"transStatus":"Y"}"#),
        probe(.challengeCompleted, #"{"transStatus":"N"}"#),
        probe(.challengeCancelled, "{}"),
        probe(.challengeTimedOut, "{}", after: 299_999),
        probe(.challengeTimedOut, "{}", after: 600_001),
        probe(
            .protocolErrorOccurred,
            #"{"errorCode":"402","errorComponent":"A","errorDescription":"timeout","sentToACS":true}"#),
        probe(
            .protocolErrorOccurred,
            #"{"errorCode":"203","errorComponent":"Z","errorDescription":"bad","sentToACS":false}"#),
        probe(.runtimeErrorOccurred, #"{"errorCode":"201","errorMessage":"network"}"#),
        probe(
            .runtimeErrorOccurred,
            #"{"errorCode":"201","errorMessage":"\#(String(repeating: "e", count: 257))"}"#),
        probe(.eligibilityChecked, #"{"inputMethod":"manual","outcome":"eligible"}"#)
    ]

    private static let methods =
        #"[{"id":"m1","type":"otpBySMS"},{"id":"m2","type":"appToApp","withCryptogram":true},"#
        + #"{"id":"m3","type":"appToApp","withCryptogram":false},{"id":"m4","type":"webService"}]"#

    private static let cardProbes: [Probe] = [
        probe(.eligibilityChecked, #"{"inputMethod":"manual","outcome":"eligible"}"#),
        probe(.eligibilityChecked, #"{"inputMethod":"bankApp","outcome":"notEligible","errorCode":"E1"}"#),
        probe(.eligibilityChecked, #"{"inputMethod":"fax","outcome":"eligible"}"#),
        probe(.termsAccepted, #"{"tncDigest":"d1"}"#),
        probe(.digitizationRequested, #"{"language":"en"}"#),
        probe(.digitizationApproved, #"{"digitalCardID":"dc-1"}"#),
        probe(.digitizationDeclined, "{}"),
        probe(.digitizationApprovedWithIDV, #"{"digitalCardID":"dc-1","methods":\#(methods)}"#),
        probe(.digitizationApprovedWithIDV, #"{"digitalCardID":"dc-1","methods":[]}"#),
        probe(
            .digitizationApprovedWithIDV,
            #"{"digitalCardID":"dc-1","methods":[{"id":"m1","type":"otpBySMS"},{"id":"m1","type":"otpByEmail"}]}"#),
        probe(.idvMethodSelected, #"{"idvID":"m1"}"#),
        probe(.idvMethodSelected, #"{"idvID":"m2"}"#),
        probe(.idvMethodSelected, #"{"idvID":"m3"}"#),
        probe(.idvMethodSelected, #"{"idvID":"m4"}"#),
        probe(.idvMethodSelected, #"{"idvID":"m9"}"#),
        probe(.activationRequired, #"{"state":"otpNeeded"}"#),
        probe(.activationRequired, #"{"state":"appToAppSelected"}"#),
        probe(.activationRequired, #"{"state":"other"}"#),
        probe(.otpSubmitted, #"{"otpLength":6}"#),
        probe(.otpSubmitted, #"{"otpLength":3}"#),
        probe(.otpSubmitted, #"{"otpLength":13}"#),
        probe(.otpRejected, #"{"reason":"incorrect","attemptsRemaining":2}"#),
        probe(.otpRejected, #"{"reason":"incorrect","attemptsRemaining":0}"#),
        probe(.otpRejected, #"{"reason":"expired"}"#),
        probe(.appToAppResumed, #"{"withTAV":true}"#),
        probe(.appToAppResumed, #"{"withTAV":false}"#),
        probe(.cpsNotificationReceived, #"{"messageCode":"CBP.info.tokenProvisioned"}"#),
        probe(.cpsNotificationReceived, #"{"messageCode":"CBP.info.other"}"#),
        probe(.activatedByIDV, "{}"),
        probe(.activationInterrupted, #"{"reason":"appClosed"}"#),
        probe(.activationResumed, "{}"),
        probe(.activationCancelled, "{}"),
        probe(.activationExpired, "{}"),
        probe(.activationFailed, #"{"reason":"deviceUnsafe"}"#),
        probe(.activationFailed, #"{"reason":"bored"}"#),
        probe(.transactionClosed, "{}")
    ]
}
