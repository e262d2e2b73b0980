import Domain

/// One `3ds` stream as the 3DS read model keeps it: its describing attributes (from its whole
/// history) and what the fold needs to go on.
public struct ThreeDSStreamRow: Sendable, Equatable {
    public var sid: Int64
    public var name: String
    public var createdAt: Int64?
    public var directoryServer: String?
    public var messageVersion: String?
    /// `transStatus` of the ARes.
    public var aresStatus: String?
    public var challengeStartedAt: Int64?
    public var outcome: ThreeDSTransaction.OutcomeKey = .open
    /// occurredAt of the terminal event.
    public var endedAt: Int64?
    /// Challenge requests sent (rounds).
    public var requests: Int64 = 0
    /// Requests with action `submitText`.
    public var submitTexts: Int64 = 0
    /// The occurredAt of those requests, sorted (device clocks may disorder them in the log).
    public var submitTimes: [Int64] = []
    public var firstSubmitAt: Int64? { submitTimes.first }
    public var lastSubmitAt: Int64? { submitTimes.last }
    /// `acsUiType` of the last non-final challenge response.
    public var lastUiType: String?

    public init(sid: Int64, name: String) {
        self.sid = sid
        self.name = name
    }
}
