import Domain

/// One `card` stream as the card read model keeps it.
public struct CardStreamRow: Sendable, Equatable {
    public var sid: Int64
    public var name: String
    /// occurredAt of the yellow decision (`DigitizationApprovedWithIDV`).
    public var decisionAt: Int64?
    /// The offered methods, `id` → method kind (see ``CardFold/methodKind(type:withCryptogram:)``).
    public var methods: [String: String] = [:]
    public var selectedKind: String?
    public var selections: Int64 = 0
    public var otpSubmissions: Int64 = 0
    /// The occurredAt of the `OTPSubmitted` events, sorted.
    public var otpTimes: [Int64] = []
    public var firstOTPAt: Int64? { otpTimes.first }
    public var lastOTPAt: Int64? { otpTimes.last }
    public var outcome: CardDigitization.OutcomeKey = .open
    public var endedAt: Int64?
    /// occurredAt of the stream's `EligibilityChecked`: the cohort time of `rates`.
    public var startedAt: Int64?
    /// Its outcome was `eligible`.
    public var eligible = false
    /// The method types (``IDVMethodType`` raw values; appToApp not split) selected at least
    /// once, sorted, without repeats.
    public var selectedTypes: [String] = []

    public init(sid: Int64, name: String) {
        self.sid = sid
        self.name = name
    }
}
