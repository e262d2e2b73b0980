import JournalCore

/// A query's answer: renders as the documented JSON.
public protocol QueryReport: Sendable {
    var json: JSONValue { get }
}

/// `journal query otp` (spec §5).
public struct OTPReport: QueryReport, Equatable {
    public var threeDSSubmissions: Int64 = 0
    public var resends: Int64 = 0
    /// `3ds` streams with a `submitText` in the window.
    public var transactions: Int64 = 0
    /// Those transactions by their terminal event (`open` when none yet).
    public var outcomes: [String: Int64] = [:]
    public var tokenizationSubmissions: Int64 = 0
    public var byMethod: [String: Int64] = [:]
    public var rejected: [String: Int64] = [:]
    public var journeys: Int64 = 0
    public var activated: Int64 = 0

    public init() {}

    public var json: JSONValue {
        ReportJSON.object([
            (
                "threeDS",
                ReportJSON.object([
                    ("otpSubmissions", ReportJSON.int(threeDSSubmissions)), ("resends", ReportJSON.int(resends)),
                    ("transactions", ReportJSON.int(transactions)), ("outcomes", ReportJSON.counts(outcomes))
                ])
            ),
            (
                "tokenization",
                ReportJSON.object([
                    ("otpSubmissions", ReportJSON.int(tokenizationSubmissions)),
                    ("byMethod", ReportJSON.counts(byMethod)), ("rejected", ReportJSON.counts(rejected)),
                    ("journeys", ReportJSON.int(journeys)), ("activated", ReportJSON.int(activated))
                ])
            )
        ])
    }
}

/// `journal query timeouts` (spec §5).
public struct TimeoutsReport: QueryReport, Equatable {
    public var challengeTimeouts: Int64 = 0
    public var byDirectoryServer: [String: Int64] = [:]
    public var byUiType: [String: Int64] = [:]
    public var otpExpired: Int64 = 0
    public var activationsExpired: Int64 = 0

    public init() {}

    public var json: JSONValue {
        ReportJSON.object([
            (
                "threeDS",
                ReportJSON.object([
                    ("challengeTimeouts", ReportJSON.int(challengeTimeouts)),
                    ("byDirectoryServer", ReportJSON.counts(byDirectoryServer)),
                    ("byUiType", ReportJSON.counts(byUiType))
                ])
            ),
            (
                "tokenization",
                ReportJSON.object([
                    ("otpExpired", ReportJSON.int(otpExpired)),
                    ("activationsExpired", ReportJSON.int(activationsExpired))
                ])
            )
        ])
    }
}

/// `journal query funnel`: 3DS transactions created in the window, described by their whole
/// history (ARes status, challenge, final outcome).
public struct FunnelReport: QueryReport, Equatable {
    public struct Slice: Sendable, Equatable {
        public var transactions: Int64 = 0
        public var frictionless: Int64 = 0
        public var challenged: Int64 = 0
        public var outcomes: [String: Int64] = [:]
        public init() {}

        var json: JSONValue {
            ReportJSON.object([
                ("transactions", ReportJSON.int(transactions)), ("frictionless", ReportJSON.int(frictionless)),
                ("challenged", ReportJSON.int(challenged)), ("outcomes", ReportJSON.counts(outcomes))
            ])
        }
    }

    public var transactions: Int64 = 0
    /// Transactions with an ARes.
    public var aresReceived: Int64 = 0
    public var byAresStatus: [String: Int64] = [:]
    /// ARes `transStatus` other than C and D.
    public var frictionless: Int64 = 0
    /// ARes `transStatus` C or D.
    public var challengeRequired: Int64 = 0
    /// Transactions with a `ChallengeStarted`.
    public var challenged: Int64 = 0
    public var outcomes: [String: Int64] = [:]
    public var byDirectoryServer: [String: Slice] = [:]
    public var byMessageVersion: [String: Slice] = [:]

    public init() {}

    /// Counts `n` transactions that share a directory server, message version, ARes status
    /// (empty: none yet), whether a challenge started, and an outcome key.
    mutating func count(
        _ n: Int64, directoryServer: String, messageVersion: String, ares: String,
        challenged: Bool, outcome: String
    ) {
        let frictionless = !ares.isEmpty && ares != "C" && ares != "D"
        transactions += n
        if !ares.isEmpty {
            aresReceived += n
            byAresStatus[ares, default: 0] += n
            if frictionless { self.frictionless += n } else { challengeRequired += n }
        }
        if challenged { self.challenged += n }
        outcomes[outcome, default: 0] += n
        func add(_ slice: inout Slice) {
            slice.transactions += n
            if frictionless { slice.frictionless += n }
            if challenged { slice.challenged += n }
            slice.outcomes[outcome, default: 0] += n
        }
        add(&byDirectoryServer[directoryServer, default: Slice()])
        add(&byMessageVersion[messageVersion, default: Slice()])
    }

    public var json: JSONValue {
        ReportJSON.object([
            ("transactions", ReportJSON.int(transactions)), ("aresReceived", ReportJSON.int(aresReceived)),
            ("frictionless", ReportJSON.int(frictionless)), ("challengeRequired", ReportJSON.int(challengeRequired)),
            ("challenged", ReportJSON.int(challenged)), ("byAresStatus", ReportJSON.counts(byAresStatus)),
            ("outcomes", ReportJSON.counts(outcomes)),
            ("byDirectoryServer", ReportJSON.map(byDirectoryServer) { $0.json }),
            ("byMessageVersion", ReportJSON.map(byMessageVersion) { $0.json })
        ])
    }
}

/// `journal query challenges`: per challenge UI type.
public struct ChallengesReport: QueryReport, Equatable {
    public struct Slice: Sendable, Equatable {
        /// Non-final responses of this UI type in the window.
        public var screens: Int64 = 0
        /// Requests answering a screen of this UI type (`none`: the initial request), by action.
        public var requests: [String: Int64] = [:]
        /// Challenges ended in the window whose last screen had this UI type.
        public var challengesEnded: Int64 = 0
        public var outcomes: [String: Int64] = [:]
        /// Requests sent by those challenges (for the mean number of rounds).
        public var rounds: Int64 = 0
        public init() {}

        var json: JSONValue {
            ReportJSON.object([
                ("screens", ReportJSON.int(screens)), ("requests", ReportJSON.counts(requests)),
                ("challengesEnded", ReportJSON.int(challengesEnded)), ("outcomes", ReportJSON.counts(outcomes)),
                ("meanRounds", ReportJSON.mean(rounds, challengesEnded))
            ])
        }
    }

    public var screens: Int64 = 0
    public var requests: Int64 = 0
    public var challengesEnded: Int64 = 0
    public var rounds: Int64 = 0
    public var byUiType: [String: Slice] = [:]

    public init() {}

    public var json: JSONValue {
        ReportJSON.object([
            ("screens", ReportJSON.int(screens)), ("requests", ReportJSON.int(requests)),
            ("challengesEnded", ReportJSON.int(challengesEnded)),
            ("meanRounds", ReportJSON.mean(rounds, challengesEnded)),
            ("byUiType", ReportJSON.map(byUiType) { $0.json })
        ])
    }
}

/// `journal query errors`.
public struct ErrorsReport: QueryReport, Equatable {
    public var protocolErrors: Int64 = 0
    public var protocolByCode: [String: Int64] = [:]
    public var protocolByComponent: [String: Int64] = [:]
    public var runtimeErrors: Int64 = 0
    public var runtimeByCode: [String: Int64] = [:]

    public init() {}

    public var json: JSONValue {
        ReportJSON.object([
            (
                "protocolErrors",
                ReportJSON.object([
                    ("count", ReportJSON.int(protocolErrors)), ("byCode", ReportJSON.counts(protocolByCode)),
                    ("byComponent", ReportJSON.counts(protocolByComponent))
                ])
            ),
            (
                "runtimeErrors",
                ReportJSON.object([
                    ("count", ReportJSON.int(runtimeErrors)), ("byCode", ReportJSON.counts(runtimeByCode))
                ])
            )
        ])
    }
}

/// `journal query idv`: ID&V methods, per method kind (appToApp split by cryptogram).
public struct IDVReport: QueryReport, Equatable {
    public struct Method: Sendable, Equatable {
        public var offered: Int64 = 0
        public var selected: Int64 = 0
        public var reselected: Int64 = 0
        public var activated: Int64 = 0
        public var failed: Int64 = 0
        public var cancelled: Int64 = 0
        public var expired: Int64 = 0
        /// Decision-to-activation times of the activations counted here.
        public var timeToActivation = Distribution()
        public init() {}

        var json: JSONValue {
            ReportJSON.object([
                ("offered", ReportJSON.int(offered)), ("selected", ReportJSON.int(selected)),
                ("reselected", ReportJSON.int(reselected)), ("activated", ReportJSON.int(activated)),
                ("failed", ReportJSON.int(failed)), ("cancelled", ReportJSON.int(cancelled)),
                ("expired", ReportJSON.int(expired)),
                ("timeToActivationMs", ReportJSON.object(timeToActivation.medianAndP95JSON))
            ])
        }
    }

    /// Yellow decisions (`DigitizationApprovedWithIDV`) in the window.
    public var decisions: Int64 = 0
    public var selected: Int64 = 0
    public var activated: Int64 = 0
    public var timeToActivation = Distribution()
    public var byMethod: [String: Method] = [:]

    public init() {}

    public var json: JSONValue {
        ReportJSON.object([
            ("decisions", ReportJSON.int(decisions)), ("selected", ReportJSON.int(selected)),
            ("activated", ReportJSON.int(activated)),
            ("timeToActivationMs", ReportJSON.object(timeToActivation.medianAndP95JSON)),
            ("byMethod", ReportJSON.map(byMethod) { $0.json })
        ])
    }
}

/// `journal query latency`: challenge and activation durations.
public struct LatencyReport: QueryReport, Equatable {
    /// ChallengeStarted to the terminal event, for challenges ended in the window.
    public var challenge = Distribution()
    public var challengeByDirectoryServer: [String: Distribution] = [:]
    /// Yellow decision to activation, for activations in the window.
    public var activation = Distribution()
    public var activationByMethod: [String: Distribution] = [:]

    public init() {}

    public var json: JSONValue {
        ReportJSON.object([
            (
                "threeDS",
                ReportJSON.object([
                    ("challengeMs", challenge.json),
                    ("byDirectoryServer", ReportJSON.map(challengeByDirectoryServer) { $0.json })
                ])
            ),
            (
                "tokenization",
                ReportJSON.object([
                    ("activationMs", activation.json),
                    ("byMethod", ReportJSON.map(activationByMethod) { $0.json })
                ])
            )
        ])
    }
}
