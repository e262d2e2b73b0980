import JournalCore

extension ThreeDSTransaction {
    /// Transitions of a running challenge: counters, one request in flight, actions fitting the
    /// screen, final responses, timeouts by `occurredAt`, errors.
    static func applyInChallenge(
        _ info: Info, _ challenge: Challenge, _ event: ThreeDSEvent.Step,
        occurredAt: Timestamp
    ) -> Result<State, Rejection> {
        var challenge = challenge
        if case let .finalResponseReceived(_, answersCancel) = challenge.step {
            switch event {
            case .challengeCompleted, .challengeCancelled:
                break
            case .transactionCreated, .authRequestParametersCreated, .authResponseReceived, .transactionClosed,
                .challengeStarted, .challengeRequestSent, .challengeResponseReceived, .challengeTimedOut,
                .protocolErrorOccurred, .runtimeErrorOccurred:
                let expected = (answersCancel ? EventType.challengeCancelled : .challengeCompleted).name
                return .failure(
                    Rejection(
                        .threeDSAfterFinalResponse,
                        "after a final response the next event must be "
                            + "\(expected), got \(event.typeName)"))
            }
        }
        switch event {
        case .transactionCreated:
            return .failure(Rejection(.threeDSCreatedOnce, "TransactionCreated is allowed as the first event only"))
        case .authRequestParametersCreated:
            return .failure(
                Rejection(
                    .threeDSAuthParameters,
                    "AuthRequestParametersCreated must come right after "
                        + "TransactionCreated, once; the transaction is \(State.challenge(info, challenge).label)"))
        case .authResponseReceived:
            return .failure(
                Rejection(
                    .threeDSAuthResponse,
                    "AuthResponseReceived must come right after "
                        + "AuthRequestParametersCreated, once; a challenge has started"))
        case .transactionClosed:
            return .failure(Rejection(.threeDSClose, "TransactionClosed is not allowed once a challenge has started"))
        case .challengeStarted:
            return .failure(Rejection(.threeDSChallengeStart, "ChallengeStarted is allowed once per transaction"))
        case let .challengeRequestSent(counter, action):
            return sendRequest(info, challenge, counter: counter, action: action)
        case let .challengeResponseReceived(responseCounter, result):
            guard case let .awaitingResponse(counter, action) = challenge.step else {
                return .failure(
                    Rejection(
                        .threeDSResponseWithoutRequest,
                        "ChallengeResponseReceived requires a request "
                            + "in flight; the transaction is \(State.challenge(info, challenge).label)"))
            }
            guard responseCounter == counter else {
                return .failure(
                    Rejection(
                        .threeDSResponseCounter,
                        "ChallengeResponseReceived.acsCounterAtoS must be "
                            + "\"\(counter.text)\" (the request in flight), got \"\(responseCounter.text)\""))
            }
            switch result {
            case let .screen(uiType):
                guard action != .cancel else {
                    return .failure(
                        Rejection(
                            .threeDSCancelResponseFinal,
                            "ChallengeResponseReceived.challengeCompletionInd "
                                + "must be \"Y\" (a response to a cancel request is final), got \"N\""))
                }
                challenge.step = .showingScreen(counter: counter, uiType: uiType)
                challenge.lastUIType = uiType
                challenge.uiTypesSeenBits |= uiType.bit
            case let .final(transStatus):
                challenge.step = .finalResponseReceived(transStatus: transStatus, answersCancel: action == .cancel)
            }
            return .success(.challenge(info, challenge))
        case let .challengeCompleted(completedStatus):
            guard case let .finalResponseReceived(transStatus, answersCancel) = challenge.step else {
                return .failure(
                    Rejection(
                        .threeDSCompleted,
                        "ChallengeCompleted must come right after a final "
                            + "ChallengeResponseReceived; the transaction is \(State.challenge(info, challenge).label)")
                )
            }
            guard !answersCancel else {
                return .failure(
                    Rejection(
                        .threeDSCompleted,
                        "ChallengeCompleted cannot follow the final response to "
                            + "a cancel request: the next event must be ChallengeCancelled"))
            }
            guard completedStatus == transStatus else {
                return .failure(
                    Rejection(
                        .threeDSCompleted,
                        "ChallengeCompleted.transStatus must be "
                            + "\"\(transStatus.rawValue)\" (the final response's), got "
                            + "\"\(completedStatus.rawValue)\""
                    ))
            }
            return .success(.ended(info, challenge, .completed(transStatus)))
        case .challengeCancelled:
            guard case let .finalResponseReceived(_, answersCancel) = challenge.step else {
                return .failure(
                    Rejection(
                        .threeDSCancelled,
                        "ChallengeCancelled must come right after the final "
                            + "response to a cancel request; the transaction is "
                            + "\(State.challenge(info, challenge).label)"
                    ))
            }
            guard answersCancel else {
                return .failure(
                    Rejection(
                        .threeDSCancelled,
                        "ChallengeCancelled must answer a cancel request: the "
                            + "final response answered a request that was not a cancel, so the next "
                            + "event must be ChallengeCompleted"
                    ))
            }
            return .success(.ended(info, challenge, .cancelled))
        case .challengeTimedOut:
            let deadline = challenge.deadline
            guard occurredAt >= deadline else {
                return .failure(
                    Rejection(
                        .threeDSTimeout,
                        "ChallengeTimedOut.occurredAt must be >= \(deadline) "
                            + "(ChallengeStarted at \(challenge.startedAt) + "
                            + "\(challenge.timeoutSeconds) s), got \(occurredAt)"
                    ))
            }
            return .success(.ended(info, challenge, .timedOut))
        case let .protocolErrorOccurred(errorCode):
            return .success(.ended(info, challenge, .protocolError(errorCode: errorCode)))
        case let .runtimeErrorOccurred(errorCode):
            return .success(.ended(info, challenge, .runtimeError(errorCode: errorCode)))
        }
    }

    private static func sendRequest(
        _ info: Info, _ challenge: Challenge,
        counter sent: ChallengeCounter, action: ChallengeAction
    ) -> Result<State, Rejection> {
        var challenge = challenge
        switch challenge.step {
        case let .awaitingResponse(counter, _):
            return .failure(
                Rejection(
                    .threeDSRequestInFlight,
                    "ChallengeRequestSent while request \"\(counter.text)\" "
                        + "is in flight: one request at a time"))
        case .finalResponseReceived:
            // Handled by the caller; kept for exhaustiveness.
            return .failure(
                Rejection(
                    .threeDSAfterFinalResponse,
                    "after a final response the next event must be "
                        + "ChallengeCompleted or ChallengeCancelled, got ChallengeRequestSent"))
        case .awaitingFirstRequest:
            guard sent == .first else {
                return .failure(
                    Rejection(
                        .threeDSRequestCounter,
                        "ChallengeRequestSent.sdkCounterStoA must be \"000\" "
                            + "(first request), got \"\(sent.text)\""))
            }
            guard action == .initial else {
                return .failure(
                    Rejection(
                        .threeDSRequestAction,
                        "ChallengeRequestSent.action must be \"initial\" "
                            + "(first request), got \"\(action.rawValue)\""))
            }
        case let .showingScreen(counter, uiType):
            guard let expected = counter.next else {
                return .failure(
                    Rejection(
                        .threeDSRequestCounter,
                        "ChallengeRequestSent.sdkCounterStoA cannot follow "
                            + "\"999\": counters are three decimal digits"))
            }
            guard sent == expected else {
                return .failure(
                    Rejection(
                        .threeDSRequestCounter,
                        "ChallengeRequestSent.sdkCounterStoA must be "
                            + "\"\(expected.text)\" (previous + 1), got \"\(sent.text)\""))
            }
            guard action.fits(uiType) else {
                let allowed = ChallengeAction.fitting(uiType).map(\.rawValue).joined(separator: ", ")
                return .failure(
                    Rejection(
                        .threeDSRequestAction,
                        "ChallengeRequestSent.action must fit the screen's "
                            + "acsUiType \(uiType.rawValue) (\(allowed)), got \"\(action.rawValue)\""))
            }
        }
        challenge.step = .awaitingResponse(counter: sent, action: action)
        challenge.lastCounter = sent
        challenge.requests += 1
        switch action {
        case .submitText: challenge.otpSubmissions += 1
        case .resend: challenge.resends += 1
        case .cancel: challenge.cancelRequested = true
        case .initial, .submitSelection, .oobContinue, .htmlForm, .continue: break
        }
        return .success(.challenge(info, challenge))
    }
}

extension ThreeDSTransaction.State {
    /// A short human description of the state, for rejection reasons and text output.
    public var label: String {
        switch self {
        case .empty: return "empty"
        case .created: return "created"
        case .authParametersIssued: return "auth parameters issued"
        case let .authResponseReceived(info):
            return "ARes received (transStatus \(info.authResponseStatus?.rawValue ?? "?"))"
        case let .challenge(_, challenge):
            switch challenge.step {
            case .awaitingFirstRequest: return "challenge started, no request sent"
            case let .awaitingResponse(counter, action):
                return "challenge awaiting the response to request \(counter.text) (\(action.rawValue))"
            case let .showingScreen(counter, uiType):
                return "challenge showing screen \(counter.text) (acsUiType \(uiType.rawValue))"
            case let .finalResponseReceived(transStatus, answersCancel):
                return "challenge final response received (transStatus \(transStatus.rawValue)"
                    + (answersCancel ? ", answering a cancel)" : ")")
            }
        case let .ended(_, _, outcome): return "ended (\(outcome.eventType))"
        }
    }
}
