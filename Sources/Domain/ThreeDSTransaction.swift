import JournalCore

/// The 3-D Secure transaction aggregate, rebuilt from a `3ds` stream (spec §3.1).
///
/// Pure functions only: ``initial``, ``validate(_:_:occurredAt:)``, ``evolve(_:_:occurredAt:)``
/// and ``apply(_:_:occurredAt:)`` (both at once). Commands are in `ThreeDSTransaction+Commands`.
///
/// The state diagram and the table of rules (with their identifiers) are in `docs/domain.md`.
public enum ThreeDSTransaction: Aggregate {
    /// What the transaction is, as a sum type: a transaction that ended cannot also be waiting.
    public enum State: Sendable, Equatable {
        /// No event yet.
        case empty
        /// `TransactionCreated` seen.
        case created(Info)
        /// `AuthRequestParametersCreated` seen.
        case authParametersIssued(Info)
        /// `AuthResponseReceived` seen (`Info.authResponseStatus` says frictionless or challenge).
        case authResponseReceived(Info)
        /// A challenge is running; `Challenge.step` says where.
        case challenge(Info, Challenge)
        /// A terminal event was seen; nothing may follow.
        case ended(Info, Challenge?, Outcome)
    }

    /// What the transaction knows from its first events.
    public struct Info: Sendable, Equatable {
        public var directoryServerID: String
        public var messageVersion: MessageVersion
        /// The ARes `transStatus`, once received.
        public var authResponseStatus: TransStatus?
    }

    /// A running (or ended) challenge.
    public struct Challenge: Sendable, Equatable {
        /// Where the challenge stands.
        public enum Step: Sendable, Equatable {
            /// `ChallengeStarted` seen, no request sent yet.
            case awaitingFirstRequest
            /// A request is in flight.
            case awaitingResponse(counter: ChallengeCounter, action: ChallengeAction)
            /// A non-final response is on screen.
            case showingScreen(counter: ChallengeCounter, uiType: ACSUIType)
            /// A final response arrived; `ChallengeCompleted` or `ChallengeCancelled` must follow.
            case finalResponseReceived(transStatus: ChallengeTransStatus, answersCancel: Bool)
        }

        public var step: Step
        /// `occurredAt` of `ChallengeStarted`.
        public var startedAt: Timestamp
        public var timeoutSeconds: Int64
        /// The counter of the last request sent, nil before the first.
        public var lastCounter: ChallengeCounter?
        /// The UI type of the last non-final response, nil before the first.
        public var lastUIType: ACSUIType?
        /// The UI types of all non-final responses, as a bit set (see ``uiTypesSeen``).
        var uiTypesSeenBits: UInt8 = 0
        /// Requests sent with action `submitText`.
        public var otpSubmissions: Int = 0
        /// Requests sent with action `resend`.
        public var resends: Int = 0
        /// Requests sent, all actions.
        public var requests: Int = 0
        /// True once a `cancel` request was sent.
        public var cancelRequested: Bool = false

        /// The earliest `occurredAt` of a `ChallengeTimedOut`.
        public var deadline: Timestamp { startedAt.adding(milliseconds: timeoutSeconds * 1000) }

        /// The UI types of the non-final responses, in code order.
        public var uiTypesSeen: [ACSUIType] { ACSUIType.allCases.filter { uiTypesSeenBits & $0.bit != 0 } }
    }

    /// How a transaction ended.
    public enum Outcome: Sendable, Equatable {
        /// `TransactionClosed`: frictionless or abandoned before a challenge.
        case closed
        case completed(ChallengeTransStatus)
        case cancelled
        case timedOut
        case protocolError(errorCode: String)
        case runtimeError(errorCode: String)

        /// The terminal event type that produced this outcome.
        public var eventType: String {
            switch self {
            case .closed: return EventType.transactionClosed.name
            case .completed: return EventType.challengeCompleted.name
            case .cancelled: return EventType.challengeCancelled.name
            case .timedOut: return EventType.challengeTimedOut.name
            case .protocolError: return EventType.protocolErrorOccurred.name
            case .runtimeError: return EventType.runtimeErrorOccurred.name
            }
        }
    }

    /// The state before the first event.
    public static let initial = State.empty

    /// The state after `event`, or the rule it breaks.
    public static func apply(_ state: State, _ event: ThreeDSEvent, occurredAt: Timestamp) -> Result<State, Rejection> {
        apply(state, event.step, occurredAt: occurredAt)
    }

    /// The state after the event whose values the rules read are `event`, or the rule it breaks.
    static func apply(_ state: State, _ event: ThreeDSEvent.Step, occurredAt: Timestamp) -> Result<State, Rejection> {
        switch state {
        case .empty:
            guard case let .transactionCreated(directoryServerID, messageVersion) = event else {
                return .failure(
                    Rejection(
                        .threeDSFirstEvent,
                        "a 3ds stream must begin with TransactionCreated, got \(event.typeName)"))
            }
            return .success(
                .created(
                    Info(directoryServerID: directoryServerID, messageVersion: messageVersion, authResponseStatus: nil))
            )
        case let .ended(_, _, outcome):
            return .failure(
                Rejection(
                    .threeDSTerminal,
                    "\(event.typeName) cannot follow the terminal event "
                        + "\(outcome.eventType): nothing may follow a terminal event"))
        case let .created(info), let .authParametersIssued(info), let .authResponseReceived(info):
            return applyBeforeChallenge(state, info, event, occurredAt: occurredAt)
        case let .challenge(info, challenge):
            return applyInChallenge(info, challenge, event, occurredAt: occurredAt)
        }
    }

    // MARK: - Transitions

    private static func applyBeforeChallenge(
        _ state: State, _ info: Info, _ event: ThreeDSEvent.Step,
        occurredAt: Timestamp
    ) -> Result<State, Rejection> {
        var info = info
        switch event {
        case .transactionCreated:
            return .failure(Rejection(.threeDSCreatedOnce, "TransactionCreated is allowed as the first event only"))
        case .authRequestParametersCreated:
            guard case .created = state else {
                return .failure(
                    Rejection(
                        .threeDSAuthParameters,
                        "AuthRequestParametersCreated must come right after "
                            + "TransactionCreated, once; the transaction is \(state.label)"))
            }
            return .success(.authParametersIssued(info))
        case let .authResponseReceived(transStatus):
            guard case .authParametersIssued = state else {
                return .failure(
                    Rejection(
                        .threeDSAuthResponse,
                        "AuthResponseReceived must come right after "
                            + "AuthRequestParametersCreated, once; the transaction is \(state.label)"))
            }
            info.authResponseStatus = transStatus
            return .success(.authResponseReceived(info))
        case .transactionClosed:
            return .success(.ended(info, nil, .closed))
        case let .challengeStarted(timeoutSeconds):
            guard case .authResponseReceived = state, let status = info.authResponseStatus else {
                return .failure(
                    Rejection(
                        .threeDSChallengeStart,
                        "ChallengeStarted must come after "
                            + "AuthResponseReceived; the transaction is \(state.label)"))
            }
            guard status.requiresChallenge else {
                return .failure(
                    Rejection(
                        .threeDSChallengeStart,
                        "ChallengeStarted requires an ARes transStatus of "
                            + "C or D, got \"\(status.rawValue)\""))
            }
            return .success(
                .challenge(
                    info,
                    Challenge(
                        step: .awaitingFirstRequest, startedAt: occurredAt,
                        timeoutSeconds: timeoutSeconds)))
        case .challengeRequestSent, .challengeResponseReceived, .challengeCompleted, .challengeCancelled,
            .challengeTimedOut, .protocolErrorOccurred, .runtimeErrorOccurred:
            return .failure(
                Rejection(
                    .threeDSChallengeNotRunning,
                    "\(event.typeName) requires a started challenge; "
                        + "the transaction is \(state.label)"))
        }
    }
}
