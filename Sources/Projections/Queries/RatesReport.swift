import Domain
import JournalCore

/// `journal query rates` (spec §7): the streams that **started** in the window (a `3ds`
/// stream's `TransactionCreated`, a `card` stream's `EligibilityChecked`), each described by
/// its whole history, and the rates between those counts.
public struct RatesReport: QueryReport, Equatable {
    /// Per ID&V method type.
    public struct Method: Sendable, Equatable {
        /// Yellow journeys that selected a method of this type at least once.
        public var selected: Int64 = 0
        /// Activated journeys whose last `IDVMethodSelected` was of this type.
        public var activated: Int64 = 0
        public init(selected: Int64 = 0, activated: Int64 = 0) {
            self.selected = selected
            self.activated = activated
        }
    }

    public var transactions: Int64 = 0
    /// With an `AuthResponseReceived`.
    public var responses: Int64 = 0
    /// ARes `transStatus` Y or A.
    public var frictionless: Int64 = 0
    /// With a `ChallengeStarted`.
    public var challenged: Int64 = 0
    /// Frictionless, or ended with `ChallengeCompleted` `transStatus` Y.
    public var authenticated: Int64 = 0
    /// Challenged and ended with `ChallengeCancelled` or `ChallengeTimedOut`.
    public var abandoned: Int64 = 0
    /// Ended with `ProtocolErrorOccurred` or `RuntimeErrorOccurred`.
    public var failed: Int64 = 0

    public var journeys: Int64 = 0
    public var eligible: Int64 = 0
    public var green: Int64 = 0
    public var red: Int64 = 0
    public var yellow: Int64 = 0
    /// Yellow journeys that ended activated.
    public var activated: Int64 = 0
    /// By ``IDVMethodType`` raw value; types never selected are left out.
    public var byMethod: [String: Method] = [:]

    public init() {}

    public var frictionlessRate: Rate { Rate(frictionless, over: responses) }
    public var challengeRate: Rate { Rate(challenged, over: responses) }
    public var authenticationRate: Rate { Rate(authenticated, over: responses) }
    public var abandonmentRate: Rate { Rate(abandoned, over: challenged) }
    public var activationRate: Rate { Rate(activated, over: yellow) }

    /// Counts `n` transactions that share an ARes status (empty: none yet), whether a challenge
    /// started, and an outcome.
    public mutating func countTransactions(
        _ n: Int64, ares: String, challenged: Bool, outcome: ThreeDSTransaction.OutcomeKey
    ) {
        transactions += n
        if !ares.isEmpty { responses += n }
        let isFrictionless = ares == TransStatus.Y.rawValue || ares == TransStatus.A.rawValue
        if isFrictionless { frictionless += n }
        if challenged { self.challenged += n }
        if isFrictionless || outcome == .completedY { authenticated += n }
        switch outcome {
        case .cancelled, .timedOut: if challenged { abandoned += n }
        case .protocolError, .runtimeError: failed += n
        case .open, .completedY, .completedN, .closed: break
        }
    }

    /// Counts `n` journeys that share the components of ``CardFold/cohortKey(_:)``.
    public mutating func countJourneys(
        _ n: Int64, eligible: Bool, decision: String, activated: Bool,
        selectedTypes: [Substring], lastType: String
    ) {
        journeys += n
        if eligible { self.eligible += n }
        switch decision {
        case "green": green += n
        case "red": red += n
        case "yellow": yellow += n
        default: break
        }
        guard decision == "yellow" else { return }
        if activated { self.activated += n }
        for type in selectedTypes { byMethod[String(type), default: Method()].selected += n }
        if activated, !lastType.isEmpty { byMethod[lastType, default: Method()].activated += n }
    }

    /// Drops method entries that sum to nothing (a bucket read can leave them at zero).
    mutating func dropEmptyMethods() {
        byMethod = byMethod.filter { $0.value != Method() }
    }

    public var json: JSONValue {
        ReportJSON.object([
            (
                "threeDS",
                ReportJSON.object([
                    ("transactions", ReportJSON.int(transactions)), ("responses", ReportJSON.int(responses)),
                    ("frictionless", ReportJSON.int(frictionless)), ("challenged", ReportJSON.int(challenged)),
                    ("authenticated", ReportJSON.int(authenticated)), ("abandoned", ReportJSON.int(abandoned)),
                    ("failed", ReportJSON.int(failed)),
                    ("frictionlessRate", frictionlessRate.json), ("challengeRate", challengeRate.json),
                    ("authenticationRate", authenticationRate.json), ("abandonmentRate", abandonmentRate.json)
                ])
            ),
            (
                "tokenization",
                ReportJSON.object([
                    ("journeys", ReportJSON.int(journeys)), ("eligible", ReportJSON.int(eligible)),
                    ("green", ReportJSON.int(green)), ("red", ReportJSON.int(red)), ("yellow", ReportJSON.int(yellow)),
                    ("activated", ReportJSON.int(activated)), ("activationRate", activationRate.json),
                    (
                        "byMethod",
                        ReportJSON.map(byMethod) { method in
                            ReportJSON.object([
                                ("selected", ReportJSON.int(method.selected)),
                                ("activated", ReportJSON.int(method.activated))
                            ])
                        }
                    )
                ])
            )
        ])
    }
}
