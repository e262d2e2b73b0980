import JournalCore

extension ThreeDSTransaction {
    /// The integrator's calls, mirroring the 3DS SDK (and the app reporting the ARes).
    public enum Command: Sendable, Equatable {
        /// `createTransaction(directoryServerID, messageVersion)`.
        case createTransaction(
            directoryServerID: String, messageVersion: MessageVersion,
            customCertificate: Bool? = nil, warnings: [String]? = nil)
        /// `getAuthenticationRequestParameters()`.
        case createAuthRequestParameters(
            sdkReferenceNumber: String, deviceDataBytes: Int64,
            sdkAppIDRef: String? = nil, ephemeralKeyThumbprint: String? = nil)
        /// The app reports the ARes.
        case recordAuthResponse(
            threeDSServerTransID: String, acsTransID: String, transStatus: TransStatus,
            transStatusReason: String? = nil)
        /// `close()` without a challenge.
        case close
        /// `doChallenge(…, timeout)`.
        case startChallenge(timeoutSeconds: Int64, acsReferenceNumber: String)
        /// A CReq: the SDK numbers it (`000`, then previous + 1).
        case sendChallengeRequest(action: ChallengeAction, entryLength: Int64? = nil, noEntry: Bool? = nil)
        /// A CRes for the request in flight. A final response also ends the challenge
        /// (`ChallengeCompleted`, or `ChallengeCancelled` when it answers a cancel).
        case receiveChallengeResponse(ThreeDSEvent.ChallengeResponseReceived.Result)
        /// `cancelChallengeFlow()`: a CReq with action `cancel`.
        case cancelChallenge
        /// The overall challenge timer fired.
        case timeOut
        /// A protocol error (found by the SDK or sent by the ACS).
        case reportProtocolError(
            errorCode: String, errorComponent: ErrorComponent, errorDescription: String,
            errorDetail: String? = nil, errorMessageType: String? = nil, sentToACS: Bool)
        /// A runtime error.
        case reportRuntimeError(errorCode: String, errorMessage: String)
    }

    /// The events `command` produces in `state`, handed to `emit`, or why it is refused
    /// (`Aggregate.decide` returns them as an array, for a caller that does not keep the state).
    ///
    /// Repeating a command that already took effect yields no events (create, auth parameters,
    /// ARes, close, start, a request already in flight, a response already received, cancel,
    /// timeout, errors). Every produced event is checked against the catalog and the state rules;
    /// the events go to `emit` in order once all of them passed (nothing is emitted on a
    /// rejection), and `state` moves on past them (unchanged on a rejection). No event is
    /// applied twice.
    /// - Returns: nil, or the rule the command breaks.
    public static func execute(
        _ command: consuming Command, _ state: inout State, _ environment: Environment,
        _ emit: (NewEvent<ThreeDSEvent>) -> Void
    ) -> Rejection? {
        // The command is consumed: its values move into the event without copies.
        switch intend(command, state) {
        case .success(.nothing):
            return nil
        case let .success(.one(event)):
            let occurredAt = environment.now()
            // `apply` reads `state` and returns the next one: no working copy for a single event.
            do { try event.checkFields() } catch {
                return Rejection(error)
            }
            switch apply(state, event, occurredAt: occurredAt) {
            case let .success(next): state = next
            case let .failure(rejection): return rejection
            }
            emit(NewEvent(id: environment.newID(), occurredAt: occurredAt, event: consume event))
            return nil
        case let .success(.two(event, following)):
            let occurredAt = environment.now()
            var current = state
            if let rejection = check(event, &current, occurredAt) { return rejection }
            if let rejection = check(following, &current, occurredAt) { return rejection }
            state = current
            emit(NewEvent(id: environment.newID(), occurredAt: occurredAt, event: consume event))
            emit(NewEvent(id: environment.newID(), occurredAt: occurredAt, event: consume following))
            return nil
        case let .failure(rejection):
            return rejection
        }
    }

    /// Checks one new event against the catalog and the rules and moves `state` on; nil when
    /// it passes, else the rule it breaks (`state` may then be half moved on: discard it).
    private static func check(_ event: ThreeDSEvent, _ state: inout State, _ occurredAt: Timestamp) -> Rejection? {
        // The catalog's rules, as decoding the event's data would check them (without reading it back).
        do { try event.checkFields() } catch {
            return Rejection(error)
        }
        switch apply(state, event, occurredAt: occurredAt) {
        case let .success(next): state = next
        case let .failure(rejection): return rejection
        }
        return nil
    }

    /// What a command means: nothing (already done), one event, or a final challenge response
    /// and the event that ends the challenge.
    private enum Intended {
        case nothing
        case one(ThreeDSEvent)
        case two(ThreeDSEvent, ThreeDSEvent)
    }

    /// The events a command means in a state, before the rules check them.
    private static func intend(_ command: consuming Command, _ state: State) -> Result<Intended, Rejection> {
        switch consume command {
        case let .createTransaction(directoryServerID, messageVersion, customCertificate, warnings):
            if let info = state.info {
                guard info.directoryServerID == directoryServerID, info.messageVersion == messageVersion else {
                    return .failure(
                        Rejection(
                            .threeDSCreatedOnce,
                            "the transaction was already created for "
                                + "\(info.directoryServerID) \(info.messageVersion.rawValue)"))
                }
                return .success(.nothing)
            }
            return .success(
                .one(
                    .transactionCreated(
                        .init(
                            directoryServerID: directoryServerID, messageVersion: messageVersion,
                            customCertificate: customCertificate, warnings: warnings))))
        case let .createAuthRequestParameters(reference, bytes, appID, thumbprint):
            switch state {
            case .authParametersIssued, .authResponseReceived, .challenge: return .success(.nothing)
            case .empty, .created, .ended:
                return .success(
                    .one(
                        .authRequestParametersCreated(
                            .init(
                                sdkReferenceNumber: reference, deviceDataBytes: bytes,
                                sdkAppIDRef: appID, ephemeralKeyThumbprint: thumbprint))))
            }
        case let .recordAuthResponse(serverID, acsID, transStatus, reason):
            if let recorded = state.info?.authResponseStatus {
                guard recorded == transStatus else {
                    return .failure(
                        Rejection(
                            .threeDSAuthResponse,
                            "the ARes was already recorded with transStatus "
                                + "\"\(recorded.rawValue)\", got \"\(transStatus.rawValue)\""))
                }
                return .success(.nothing)
            }
            return .success(
                .one(
                    .authResponseReceived(
                        .init(
                            threeDSServerTransID: serverID, acsTransID: acsID,
                            transStatus: transStatus, transStatusReason: reason))))
        case .close:
            if state.outcome == .closed { return .success(.nothing) }
            return .success(.one(.transactionClosed(NoFields())))
        case let .startChallenge(timeoutSeconds, reference):
            if let challenge = state.challenge, challenge.timeoutSeconds == timeoutSeconds { return .success(.nothing) }
            return .success(
                .one(.challengeStarted(.init(timeoutSeconds: timeoutSeconds, acsReferenceNumber: reference))))
        case let .sendChallengeRequest(action, entryLength, noEntry):
            return request(action, entryLength: entryLength, noEntry: noEntry, state)
        case let .receiveChallengeResponse(result):
            return response(result, state)
        case .cancelChallenge:
            if state.outcome == .cancelled { return .success(.nothing) }
            if case let .challenge(_, challenge) = state {
                switch challenge.step {
                case .awaitingResponse(_, .cancel), .finalResponseReceived(_, true): return .success(.nothing)
                case .awaitingFirstRequest, .awaitingResponse, .showingScreen, .finalResponseReceived: break
                }
            }
            return request(.cancel, entryLength: nil, noEntry: nil, state)
        case .timeOut:
            if state.outcome == .timedOut { return .success(.nothing) }
            return .success(.one(.challengeTimedOut(NoFields())))
        case let .reportProtocolError(code, component, description, detail, messageType, sentToACS):
            if state.outcome == .protocolError(errorCode: code) { return .success(.nothing) }
            return .success(
                .one(
                    .protocolErrorOccurred(
                        .init(
                            errorCode: code, errorComponent: component,
                            errorDescription: description, errorDetail: detail,
                            errorMessageType: messageType, sentToACS: sentToACS))))
        case let .reportRuntimeError(code, message):
            if state.outcome == .runtimeError(errorCode: code) { return .success(.nothing) }
            return .success(.one(.runtimeErrorOccurred(.init(errorCode: code, errorMessage: message))))
        }
    }

    private static func request(_ action: ChallengeAction, entryLength: Int64?, noEntry: Bool?, _ state: State)
        -> Result<Intended, Rejection>
    {
        var counter = ChallengeCounter.first
        if case let .challenge(_, challenge) = state {
            switch challenge.step {
            case let .awaitingResponse(inFlight, inFlightAction):
                // The same call while its request is in flight (a double tap): nothing new.
                if inFlightAction == action { return .success(.nothing) }
                counter = inFlight
            case .awaitingFirstRequest:
                counter = .first
            case let .showingScreen(shown, _):
                guard let next = shown.next else {
                    return .failure(
                        Rejection(
                            .threeDSRequestCounter,
                            "ChallengeRequestSent.sdkCounterStoA cannot follow "
                                + "\"999\": counters are three decimal digits"))
                }
                counter = next
            case .finalResponseReceived:
                break
            }
        }
        return .success(
            .one(
                .challengeRequestSent(
                    .init(
                        sdkCounterStoA: counter, action: action, entryLength: entryLength,
                        noEntry: noEntry))))
    }

    private static func response(_ result: ThreeDSEvent.ChallengeResponseReceived.Result, _ state: State)
        -> Result<Intended, Rejection>
    {
        switch state {
        case let .challenge(_, challenge):
            switch challenge.step {
            case let .awaitingResponse(counter, action):
                let response = ThreeDSEvent.challengeResponseReceived(.init(acsCounterAtoS: counter, result: result))
                switch result {
                case .screen: return .success(.one(response))
                case let .final(transStatus):
                    if action == .cancel { return .success(.two(response, .challengeCancelled(NoFields()))) }
                    return .success(.two(response, .challengeCompleted(.init(transStatus: transStatus))))
                }
            case let .showingScreen(_, uiType):
                // The response already received, delivered again: nothing new.
                if case .screen(uiType) = result { return .success(.nothing) }
            case .awaitingFirstRequest, .finalResponseReceived:
                break
            }
        case let .ended(_, _, outcome):
            switch (result, outcome) {
            case let (.final(status), .completed(completed)) where status == completed: return .success(.nothing)
            case (.final, .cancelled): return .success(.nothing)
            case (.screen, _), (.final, _): break
            }
        case .empty, .created, .authParametersIssued, .authResponseReceived:
            break
        }
        return .failure(
            Rejection(
                .threeDSResponseWithoutRequest,
                "ChallengeResponseReceived requires a request in "
                    + "flight; the transaction is \(state.label)"))
    }
}
