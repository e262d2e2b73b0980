import JournalCore

extension ThreeDSTransaction {
    /// The outcome names of spec §5 (`journal query otp`), plus `closed` for `TransactionClosed`.
    public enum OutcomeKey: String, Sendable, Hashable, CaseIterable {
        case completedY, completedN, cancelled, timedOut, protocolError, runtimeError, closed, open
    }

    /// The names of the state's cases (`journal state`'s `status`; `journal find` shows an open
    /// transaction's).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case empty, created, authParametersIssued, authResponseReceived, challenge, ended
    }
}

extension ThreeDSTransaction.Outcome {
    /// The name spec §5 gives this outcome.
    public var key: ThreeDSTransaction.OutcomeKey {
        switch self {
        case .closed: return .closed
        case let .completed(status):
            switch status {
            case .Y: return .completedY
            case .N: return .completedN
            }
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .protocolError: return .protocolError
        case .runtimeError: return .runtimeError
        }
    }
}

extension ThreeDSTransaction.State {
    /// True after a terminal event: nothing may follow.
    public var isTerminal: Bool {
        if case .ended = self { return true }
        return false
    }

    /// How the transaction ended, nil while open.
    public var outcome: ThreeDSTransaction.Outcome? {
        if case let .ended(_, _, outcome) = self { return outcome }
        return nil
    }

    /// The outcome name of spec §5 (`open` while not terminal).
    public var outcomeKey: ThreeDSTransaction.OutcomeKey { outcome?.key ?? .open }

    /// What the first events said, nil before `TransactionCreated`.
    public var info: ThreeDSTransaction.Info? {
        switch self {
        case .empty: return nil
        case let .created(info), let .authParametersIssued(info), let .authResponseReceived(info),
            let .challenge(info, _), let .ended(info, _, _):
            return info
        }
    }

    /// The challenge, running or ended, nil when none started.
    public var challenge: ThreeDSTransaction.Challenge? {
        switch self {
        case .empty, .created, .authParametersIssued, .authResponseReceived: return nil
        case let .challenge(_, challenge): return challenge
        case let .ended(_, challenge, _): return challenge
        }
    }

    public var directoryServerID: String? { info?.directoryServerID }

    /// The `acsUiType` of the last non-final response, nil when none arrived.
    public var lastUIType: ACSUIType? { challenge?.lastUIType }

    /// The UI types of every non-final response so far, in code order.
    public var uiTypesSeen: [ACSUIType] { challenge?.uiTypesSeen ?? [] }

    /// `ChallengeRequestSent` events with action `submitText`.
    public var otpSubmissions: Int { challenge?.otpSubmissions ?? 0 }

    /// `ChallengeRequestSent` events with action `resend`.
    public var resends: Int { challenge?.resends ?? 0 }

    /// The request in flight, if any.
    public var requestInFlight: (counter: ChallengeCounter, action: ChallengeAction)? {
        guard case let .challenge(_, challenge) = self,
            case let .awaitingResponse(counter, action) = challenge.step
        else { return nil }
        return (counter, action)
    }

    /// The state's case.
    public var status: ThreeDSTransaction.Status {
        switch self {
        case .empty: return .empty
        case .created: return .created
        case .authParametersIssued: return .authParametersIssued
        case .authResponseReceived: return .authResponseReceived
        case .challenge: return .challenge
        case .ended: return .ended
        }
    }

    /// The state's case name, as `journal state` prints it.
    public var statusName: String { status.rawValue }
}

extension ThreeDSTransaction.Challenge.Step {
    /// The step's name as `journal state` prints it.
    public var name: String {
        switch self {
        case .awaitingFirstRequest: return "awaitingFirstRequest"
        case .awaitingResponse: return "awaitingResponse"
        case .showingScreen: return "showingScreen"
        case .finalResponseReceived: return "finalResponseReceived"
        }
    }
}
