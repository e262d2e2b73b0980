import Domain

/// What `journal find` shows of a stream: how it ended, in the aggregate's own outcome names
/// (``ThreeDSTransaction/OutcomeKey``, ``CardDigitization/OutcomeKey``), or, while it is open,
/// the state it is in (``ThreeDSTransaction/Status``, ``CardDigitization/Status``).
public enum StreamOutcome: Sendable, Equatable {
    case threeDSEnded(ThreeDSTransaction.OutcomeKey)
    case threeDSOpen(ThreeDSTransaction.Status)
    case cardEnded(CardDigitization.OutcomeKey)
    case cardOpen(CardDigitization.Status)

    /// The name shown and matched by `journal find --outcome`.
    public var name: String {
        switch self {
        case let .threeDSEnded(key): return key.rawValue
        case let .threeDSOpen(status): return status.rawValue
        case let .cardEnded(key): return key.rawValue
        case let .cardOpen(status): return status.rawValue
        }
    }

    /// True after a terminal event.
    public var isTerminal: Bool {
        switch self {
        case .threeDSEnded, .cardEnded: return true
        case .threeDSOpen, .cardOpen: return false
        }
    }

    /// The name that matches every stream not ended yet, whatever its state.
    public static let openName = ThreeDSTransaction.OutcomeKey.open.rawValue

    /// The names of the states an open stream can be in (never an outcome's name: the
    /// aggregates' terminal states, `notEligible`, `approved`, `declined`, show as outcomes).
    public static let openStateNames: Set<String> = {
        let outcomes = Set(
            ThreeDSTransaction.OutcomeKey.allCases.map(\.rawValue)
                + CardDigitization.OutcomeKey.allCases.map(\.rawValue))
        return Set(names).subtracting(outcomes)
    }()

    /// Every name `--outcome` accepts, each once: the outcomes of both aggregates, `open`, and
    /// the states an open stream can be in (a state no stream is ever shown in, the empty one
    /// before the first event and `ended`, which shows as its outcome, is left out).
    public static let names: [String] = {
        var names: [String] = []
        func add(_ name: String) { if !names.contains(name) { names.append(name) } }
        let hidden: Set<String> = [
            ThreeDSTransaction.Status.empty.rawValue, ThreeDSTransaction.Status.ended.rawValue,
            CardDigitization.Status.empty.rawValue, CardDigitization.Status.ended.rawValue
        ]
        for key in ThreeDSTransaction.OutcomeKey.allCases where key != .open { add(key.rawValue) }
        for key in CardDigitization.OutcomeKey.allCases where key != .open { add(key.rawValue) }
        add(openName)
        for status in ThreeDSTransaction.Status.allCases where !hidden.contains(status.rawValue) {
            add(status.rawValue)
        }
        for status in CardDigitization.Status.allCases where !hidden.contains(status.rawValue) { add(status.rawValue) }
        return names
    }()
}

/// One stream as the `streams` directory keeps it (both categories).
public struct StreamsRow: Sendable, Equatable {
    public var sid: Int64
    public var name: String
    public var category: StreamCategory?
    /// occurredAt of the stream's first event (version 0).
    public var startedAt: Int64?
    /// occurredAt of its last event so far.
    public var lastAt: Int64?
    public var events: Int64 = 0
    /// Nil before the first event.
    public var outcome: StreamOutcome?
    public var directoryServer: String?
    /// Set by the event that carries them, written with the row once and then dropped from
    /// memory (each is set once per stream; the stored row keeps it).
    public var serverTransID: String?
    public var acsTransID: String?
    public var digitalCardID: String?
    /// The last `meta.correlationId` met (memory only: it spares a lookup row per event).
    var lastCorrelation: String?

    public init(sid: Int64, name: String) {
        self.sid = sid
        self.name = name
    }
}

/// The `streams` directory's fold: pure, one event at a time, onto the stream's row. The state
/// machine's steps are those of the aggregates (`ThreeDSTransaction`, `CardDigitization`) as
/// far as the stream's state name goes; the events were checked by them before they were
/// stored.
public enum StreamsFold {
    /// Applies `event`; a `meta.correlationId` the row did not just see is appended to
    /// `correlations`.
    public static func apply(_ event: EventView, to row: inout StreamsRow, correlations: inout [String]) {
        let t = event.occurredAt
        if row.events == 0 {
            row.startedAt = t
            row.category = event.category
        }
        row.events += 1
        row.lastAt = t
        if let correlation = event.metaString("correlationId"), correlation != row.lastCorrelation {
            correlations.append(correlation)
            row.lastCorrelation = correlation
        }
        switch event.kind {
        // 3ds
        case .transactionCreated:
            row.outcome = .threeDSOpen(.created)
            row.directoryServer = event.string("directoryServerID")
        case .authRequestParametersCreated:
            row.outcome = .threeDSOpen(.authParametersIssued)
        case .authResponseReceived:
            row.outcome = .threeDSOpen(.authResponseReceived)
            (row.serverTransID, row.acsTransID) = event.strings("threeDSServerTransID", "acsTransID")
        case .challengeStarted:
            row.outcome = .threeDSOpen(.challenge)
        case .challengeCompleted:
            row.outcome = .threeDSEnded(
                event.string("transStatus") == ChallengeTransStatus.Y.rawValue ? .completedY : .completedN)
        case .challengeCancelled:
            row.outcome = .threeDSEnded(.cancelled)
        case .challengeTimedOut:
            row.outcome = .threeDSEnded(.timedOut)
        case .protocolErrorOccurred:
            row.outcome = .threeDSEnded(.protocolError)
        case .runtimeErrorOccurred:
            row.outcome = .threeDSEnded(.runtimeError)
        case .transactionClosed:
            row.outcome = .threeDSEnded(.closed)
        // card
        case .eligibilityChecked:
            row.outcome =
                event.string("outcome") == EligibilityOutcome.notEligible.rawValue
                ? .cardEnded(.notEligible) : .cardOpen(.eligible)
        case .digitizationRequested:
            row.outcome = .cardOpen(.requested)
        case .digitizationApproved:
            row.outcome = .cardEnded(.approved)
            row.digitalCardID = event.string("digitalCardID")
        case .digitizationDeclined:
            row.outcome = .cardEnded(.declined)
        case .digitizationApprovedWithIDV:
            row.outcome = .cardOpen(.pendingActivation)
            row.digitalCardID = event.string("digitalCardID")
        case .activatedByIDV:
            row.outcome = .cardEnded(.activated)
        case .cpsNotificationReceived:
            // The issuer's push activates a pending activation (interrupted ones included).
            if row.outcome == .cardOpen(.pendingActivation),
                event.string("messageCode") == CPSMessageCode.tokenProvisioned
            {
                row.outcome = .cardEnded(.activated)
            }
        case .activationExpired:
            row.outcome = .cardEnded(.expired)
        case .activationFailed:
            row.outcome = .cardEnded(.failed)
        case .activationCancelled:
            row.outcome = .cardEnded(.cancelled)
        case nil, .challengeRequestSent, .challengeResponseReceived, .termsAccepted, .idvMethodSelected,
            .activationRequired, .otpSubmitted, .otpRejected, .appToAppResumed, .activationInterrupted,
            .activationResumed:
            break // steps inside a state
        }
    }
}
