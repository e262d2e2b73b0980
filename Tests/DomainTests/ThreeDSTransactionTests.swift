import Domain
import JournalCore
import Testing

/// Every rule of spec §3.1: the legal case is accepted, the illegal one refused with its reason.
@Suite("3DS transaction rules")
struct ThreeDSTransactionTests {
    private func expectAccepted(_ prefix: [Step], _ last: Step, sourceLocation: SourceLocation = #_sourceLocation) {
        let refused = rejection(threeDSStream, prefix, then: last)
        #expect(refused == nil, "refused: \(refused?.reason ?? "")", sourceLocation: sourceLocation)
    }

    private func expectRefused(
        _ prefix: [Step], _ last: Step, _ rule: Rejection.Rule, _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let refused = rejection(threeDSStream, prefix, then: last)
        #expect(refused?.rule == rule, sourceLocation: sourceLocation)
        #expect(refused?.reason == reason, sourceLocation: sourceLocation)
    }

    @Test func streamMustBeginWithTransactionCreated() {
        expectAccepted([], TDS.created)
        expectRefused(
            [], TDS.params, .threeDSFirstEvent,
            "a 3ds stream must begin with TransactionCreated, got AuthRequestParametersCreated")
    }

    @Test func transactionCreatedIsFirstOnly() {
        expectRefused(
            [TDS.created], TDS.created, .threeDSCreatedOnce, "TransactionCreated is allowed as the first event only")
    }

    @Test func authParametersComeRightAfterCreationOnce() {
        expectAccepted([TDS.created], TDS.params)
        expectRefused(
            [TDS.created, TDS.params], TDS.params, .threeDSAuthParameters,
            "AuthRequestParametersCreated must come right after TransactionCreated, once; the "
                + "transaction is auth parameters issued"
        )
    }

    @Test func authResponseComesRightAfterAuthParametersOnce() {
        expectAccepted([TDS.created, TDS.params], TDS.ares("Y"))
        expectRefused(
            [TDS.created], TDS.ares("Y"), .threeDSAuthResponse,
            "AuthResponseReceived must come right after AuthRequestParametersCreated, once; the transaction is created")
        expectRefused(
            [TDS.created, TDS.params, TDS.ares("C")], TDS.ares("C"), .threeDSAuthResponse,
            "AuthResponseReceived must come right after AuthRequestParametersCreated, once; the transaction "
                + "is ARes received (transStatus C)"
        )
    }

    @Test func transactionClosedIsAllowedBeforeAnyChallenge() {
        let close = Step("TransactionClosed")
        expectAccepted([TDS.created], close)
        expectAccepted([TDS.created, TDS.params], close)
        expectAccepted([TDS.created, TDS.params, TDS.ares("Y")], close)
        expectAccepted([TDS.created, TDS.params, TDS.ares("C")], close)
        expectRefused(
            TDS.challengePrefix, close, .threeDSClose, "TransactionClosed is not allowed once a challenge has started")
    }

    @Test(arguments: ["C", "D"])
    func challengeStartsAfterAChallengeAuthResponse(status: String) {
        expectAccepted([TDS.created, TDS.params, TDS.ares(status)], TDS.started)
    }

    @Test(arguments: ["Y", "N", "U", "A", "R", "I"])
    func challengeDoesNotStartAfterAFrictionlessAuthResponse(status: String) {
        expectRefused(
            [TDS.created, TDS.params, TDS.ares(status)], TDS.started, .threeDSChallengeStart,
            "ChallengeStarted requires an ARes transStatus of C or D, got \"\(status)\"")
    }

    @Test func challengeStartsOnceAndOnlyAfterTheAuthResponse() {
        expectRefused(
            [TDS.created, TDS.params], TDS.started, .threeDSChallengeStart,
            "ChallengeStarted must come after AuthResponseReceived; the transaction is auth parameters issued")
        expectRefused(
            TDS.challengePrefix, TDS.started, .threeDSChallengeStart, "ChallengeStarted is allowed once per transaction"
        )
    }

    @Test func challengeEventsNeedAStartedChallenge() {
        let before = [TDS.created, TDS.params, TDS.ares("C")]
        expectRefused(
            before, TDS.request("000", "initial"), .threeDSChallengeNotRunning,
            "ChallengeRequestSent requires a started challenge; the transaction is ARes received (transStatus C)")
        expectRefused(
            before, Step("ChallengeTimedOut", at: 10_000), .threeDSChallengeNotRunning,
            "ChallengeTimedOut requires a started challenge; the transaction is ARes received (transStatus C)")
        expectRefused(
            before, Step("RuntimeErrorOccurred", #"{"errorCode":"1","errorMessage":"m"}"#), .threeDSChallengeNotRunning,
            "RuntimeErrorOccurred requires a started challenge; the transaction is ARes received (transStatus C)")
        expectRefused(
            before,
            Step(
                "ProtocolErrorOccurred",
                #"{"errorCode":"101","errorComponent":"C","errorDescription":"d","sentToACS":true}"#),
            .threeDSChallengeNotRunning,
            "ProtocolErrorOccurred requires a started challenge; the transaction is ARes received (transStatus C)")
    }

    @Test func firstRequestHasCounter000AndActionInitial() {
        expectAccepted(TDS.challengePrefix, TDS.request("000", "initial"))
        expectRefused(
            TDS.challengePrefix, TDS.request("001", "initial"), .threeDSRequestCounter,
            #"ChallengeRequestSent.sdkCounterStoA must be "000" (first request), got "001""#)
        expectRefused(
            TDS.challengePrefix, TDS.request("000", "submitText"), .threeDSRequestAction,
            #"ChallengeRequestSent.action must be "initial" (first request), got "submitText""#)
    }

    @Test func laterRequestsHaveThePreviousCounterPlusOne() {
        let prefix = TDS.textScreen + [TDS.request("001", "submitText"), TDS.screen("001", "01")]
        expectAccepted(prefix, TDS.request("002", "submitText"))
        expectRefused(
            prefix, TDS.request("004", "submitText"), .threeDSRequestCounter,
            #"ChallengeRequestSent.sdkCounterStoA must be "002" (previous + 1), got "004""#)
        expectRefused(
            prefix, TDS.request("001", "submitText"), .threeDSRequestCounter,
            #"ChallengeRequestSent.sdkCounterStoA must be "002" (previous + 1), got "001""#)
    }

    @Test func onlyOneRequestIsInFlight() {
        expectRefused(
            TDS.challengePrefix + [TDS.request("000", "initial")], TDS.request("001", "cancel"),
            .threeDSRequestInFlight, #"ChallengeRequestSent while request "000" is in flight: one request at a time"#)
    }

    /// (acsUiType, action, allowed)
    static let actionFits: [(String, String, Bool)] = {
        let table: [String: [String]] = [
            "01": ["submitText", "resend", "cancel"], "02": ["submitSelection", "cancel"],
            "03": ["submitSelection", "cancel"],
            "04": ["oobContinue", "cancel"], "05": ["htmlForm", "cancel"], "06": ["oobContinue", "htmlForm", "cancel"],
            "07": ["continue", "cancel"]
        ]
        let actions = [
            "initial", "submitText", "resend", "submitSelection", "oobContinue", "htmlForm", "continue", "cancel"
        ]
        return table.keys.sorted().flatMap { ui in actions.map { (ui, $0, table[ui]!.contains($0)) } }
    }()

    @Test("a later request's action must fit the last screen's UI type", arguments: actionFits)
    func laterActionMustFitTheUIType(uiType: String, action: String, allowed: Bool) {
        let prefix = TDS.challengePrefix + [TDS.request("000", "initial"), TDS.screen("000", uiType)]
        if allowed {
            expectAccepted(prefix, TDS.request("001", action))
        } else {
            let refused = rejection(threeDSStream, prefix, then: TDS.request("001", action))
            #expect(refused?.rule == .threeDSRequestAction)
            #expect(
                refused?.reason.hasPrefix("ChallengeRequestSent.action must fit the screen's acsUiType \(uiType) (")
                    == true)
            #expect(refused?.reason.hasSuffix("got \"\(action)\"") == true)
        }
    }

    @Test func actionReasonListsTheFittingActions() {
        let prefix = TDS.challengePrefix + [TDS.request("000", "initial"), TDS.screen("000", "04")]
        expectRefused(
            prefix, TDS.request("001", "resend"), .threeDSRequestAction,
            #"ChallengeRequestSent.action must fit the screen's acsUiType 04 (oobContinue, cancel), got "resend""#)
    }

    @Test func responseNeedsARequestInFlightWithTheSameCounter() {
        expectRefused(
            TDS.challengePrefix, TDS.screen("000", "01"), .threeDSResponseWithoutRequest,
            "ChallengeResponseReceived requires a request in flight; the transaction is "
                + "challenge started, no request sent"
        )
        expectRefused(
            TDS.textScreen, TDS.screen("000", "01"), .threeDSResponseWithoutRequest,
            "ChallengeResponseReceived requires a request in flight; the transaction is challenge "
                + "showing screen 000 (acsUiType 01)"
        )
        expectRefused(
            TDS.challengePrefix + [TDS.request("000", "initial")], TDS.screen("001", "01"), .threeDSResponseCounter,
            #"ChallengeResponseReceived.acsCounterAtoS must be "000" (the request in flight), got "001""#)
    }

    @Test func responseToACancelRequestMustBeFinal() {
        let prefix = TDS.textScreen + [TDS.request("001", "cancel")]
        expectAccepted(prefix, TDS.final("001", "N"))
        expectRefused(
            prefix, TDS.screen("001", "01"), .threeDSCancelResponseFinal,
            #"ChallengeResponseReceived.challengeCompletionInd must be "Y" (a response to a "#
                + #"cancel request is final), got "N""#
        )
    }

    @Test func afterAFinalResponseOnlyCompletedOrCancelledMayFollow() {
        let prefix = TDS.textScreen + [TDS.request("001", "submitText"), TDS.final("001", "Y")]
        expectAccepted(prefix, TDS.completed("Y"))
        expectRefused(
            prefix, TDS.request("002", "submitText"), .threeDSAfterFinalResponse,
            "after a final response the next event must be ChallengeCompleted, got ChallengeRequestSent")
        expectRefused(
            prefix, Step("ChallengeTimedOut", at: 100_000), .threeDSAfterFinalResponse,
            "after a final response the next event must be ChallengeCompleted, got ChallengeTimedOut")
        expectRefused(
            prefix, Step("ChallengeCancelled"), .threeDSCancelled,
            "ChallengeCancelled must answer a cancel request: the final response answered a request that was not a "
                + "cancel, so the next event must be ChallengeCompleted"
        )
    }

    @Test func challengeCompletedRepeatsTheFinalTransStatus() {
        let prefix = TDS.textScreen + [TDS.request("001", "submitText"), TDS.final("001", "N")]
        expectAccepted(prefix, TDS.completed("N"))
        expectRefused(
            prefix, TDS.completed("Y"), .threeDSCompleted,
            #"ChallengeCompleted.transStatus must be "N" (the final response's), got "Y""#)
        expectRefused(
            TDS.textScreen, TDS.completed("Y"), .threeDSCompleted,
            "ChallengeCompleted must come right after a final ChallengeResponseReceived; the transaction is challenge "
                + "showing screen 000 (acsUiType 01)"
        )
    }

    @Test func challengeCancelledFollowsTheFinalResponseToACancel() {
        let prefix = TDS.textScreen + [TDS.request("001", "cancel"), TDS.final("001", "N")]
        expectAccepted(prefix, Step("ChallengeCancelled"))
        expectRefused(
            prefix, TDS.completed("N"), .threeDSCompleted,
            "ChallengeCompleted cannot follow the final response to a cancel request: the next "
                + "event must be ChallengeCancelled"
        )
        expectRefused(
            TDS.textScreen, Step("ChallengeCancelled"), .threeDSCancelled,
            "ChallengeCancelled must come right after the final response to a cancel request; the transaction is "
                + "challenge showing screen 000 (acsUiType 01)"
        )
    }

    @Test func timeoutNeedsTheDeadlineToHavePassedByOccurredAt() {
        // ChallengeStarted is the 4th step: occurredAt t0 + 4 s; timeout 300 s.
        expectAccepted(TDS.challengePrefix, Step("ChallengeTimedOut", at: 304))
        expectAccepted(TDS.textScreen, Step("ChallengeTimedOut", at: 5000))
        expectRefused(
            TDS.challengePrefix, Step("ChallengeTimedOut", at: 303), .threeDSTimeout,
            "ChallengeTimedOut.occurredAt must be >= 2026-11-29T10:05:04.000Z (ChallengeStarted at "
                + "2026-11-29T10:00:04.000Z + 300 s), got 2026-11-29T10:05:03.000Z"
        )
    }

    @Test func errorsMayEndARunningChallenge() {
        let protocolError = Step(
            "ProtocolErrorOccurred",
            #"{"errorCode":"302","errorComponent":"C","errorDescription":"counter","sentToACS":true}"#)
        let runtimeError = Step("RuntimeErrorOccurred", #"{"errorCode":"402","errorMessage":"read timed out"}"#)
        for prefix in [TDS.challengePrefix, TDS.challengePrefix + [TDS.request("000", "initial")], TDS.textScreen] {
            expectAccepted(prefix, protocolError)
            expectAccepted(prefix, runtimeError)
        }
    }

    @Test(arguments: [
        Step("TransactionClosed"), TDS.completed("Y"), Step("ChallengeCancelled"), Step("ChallengeTimedOut", at: 9000),
        Step(
            "ProtocolErrorOccurred",
            #"{"errorCode":"101","errorComponent":"C","errorDescription":"d","sentToACS":false}"#),
        Step("RuntimeErrorOccurred", #"{"errorCode":"1","errorMessage":"m"}"#)
    ])
    func nothingFollowsATerminalEvent(terminal: Step) throws {
        let prefix: [Step]
        switch terminal.type {
        case "TransactionClosed": prefix = [TDS.created, TDS.params, TDS.ares("Y"), terminal]
        case "ChallengeCompleted":
            prefix = TDS.textScreen + [TDS.request("001", "submitText"), TDS.final("001", "Y"), terminal]
        case "ChallengeCancelled":
            prefix = TDS.textScreen + [TDS.request("001", "cancel"), TDS.final("001", "Y"), terminal]
        default: prefix = TDS.textScreen + [terminal]
        }
        let state = try fold(threeDSStream, prefix)
        #expect(state.isTerminal)
        let refused = rejection(threeDSStream, prefix, then: Step("ChallengeTimedOut", at: 99_999))
        #expect(refused?.rule == .threeDSTerminal)
        #expect(
            refused?.reason
                == "ChallengeTimedOut cannot follow the terminal event \(terminal.type): "
                + "nothing may follow a terminal event"
        )
    }

    @Test func counterStopsAt999() throws {
        var steps = TDS.challengePrefix + [TDS.request("000", "initial"), TDS.screen("000", "01")]
        for counter in 1...999 {
            let text = ChallengeCounter(counter)!.text
            steps += [TDS.request(text, "resend"), TDS.screen(text, "01")]
        }
        _ = try fold(threeDSStream, steps)
        let refused = rejection(threeDSStream, steps, then: TDS.request("000", "resend"))
        #expect(
            refused?.reason
                == #"ChallengeRequestSent.sdkCounterStoA cannot follow "999": counters are three decimal digits"#)
    }

    @Test func refusedEventsLeaveTheStateUnchanged() throws {
        var state = try fold(threeDSStream, TDS.textScreen)
        let before = state
        #expect(throws: DomainRejection.self) {
            try state.apply(
                type: "ChallengeRequestSent", data: object(#"{"sdkCounterStoA":"005","action":"submitText"}"#),
                occurredAt: t0)
        }
        #expect(state == before)
    }
}
