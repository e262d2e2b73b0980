import Domain
import JournalCore

/// The card projection's fold: pure, one event at a time, onto the stream's row, emitting facts
/// and changes to the all-time totals.
///
/// Totals keys: per event `otp|method`, `rej|reason`, `offered|kind`, `sel|kind|first|reselected`,
/// `act|kind`, `fail|kind`, `cancel|kind`, `aexp|kind`; per stream `journey|activated`
/// (streams with an OTPSubmitted; 1 when activated) and `decisions`; histograms `act|kind` and
/// `act` (decision to activation, all).
public enum CardFold: CategoryFold {
    public static func contributionMayDiffer(_ before: CardStreamRow, _ row: CardStreamRow) -> Bool {
        before.firstOTPAt != row.firstOTPAt || before.outcome != row.outcome
            || before.decisionAt != row.decisionAt || before.startedAt != row.startedAt
            || before.eligible != row.eligible || before.selectedTypes != row.selectedTypes
            || before.selectedKind != row.selectedKind
    }

    public static func count(_ fact: CardFact, of row: CardStreamRow, in totals: inout TotalsDelta) {
        switch fact.kind {
        case .otpSubmitted: totals.count(.otp, fact.a, at: fact.occurredAt)
        case .otpRejected: totals.count(.rej, fact.a, at: fact.occurredAt)
        case .activationExpired: totals.count(.aexp, fact.a, at: fact.occurredAt)
        case .offered: totals.count(.offered, fact.a, at: fact.occurredAt)
        case .selected: totals.count(.sel, fact.a, fact.b, at: fact.occurredAt)
        case .activated:
            totals.count(.act, fact.a, at: fact.occurredAt)
            if let v = fact.v { totals.observe(.act, fact.a, v, at: fact.occurredAt) }
        case .failed: totals.count(.fail, fact.a, at: fact.occurredAt)
        case .cancelled: totals.count(.cancel, fact.a, at: fact.occurredAt)
        }
    }

    public static func contribute(_ row: CardStreamRow, sign: Int64, to totals: inout TotalsDelta) {
        if let first = row.firstOTPAt {
            // Placed at the journey's earliest submission (see `otpReport`).
            totals.count(.journey, row.outcome == .activated ? "1" : "0", by: sign, at: first)
        }
        if let decision = row.decisionAt { totals.count(.decisions, by: sign, at: decision) }
        if let started = row.startedAt {
            let cohort = cohortKey(row)
            totals.count(
                .cohort, cohort.eligible, cohort.decision, cohort.activated, cohort.selectedTypes,
                cohort.lastType, by: sign, at: started)
        }
    }

    /// What `rates` counts of a journey, kept at its start (`cohort|eligible|decision|activated|
    /// selected types|last selected type`): `eligible` and `activated` are 1 or 0; `decision` is
    /// green, red, yellow or empty; the types are ``IDVMethodType`` raw values, the selected
    /// ones joined by commas.
    public static func cohortKey(_ row: CardStreamRow)
        -> (eligible: String, decision: String, activated: String, selectedTypes: String, lastType: String)
    {
        let decision: String
        if row.decisionAt != nil {
            decision = "yellow"
        } else {
            switch row.outcome {
            case .approved: decision = "green"
            case .declined: decision = "red"
            case .open, .activated, .failed, .cancelled, .expired, .notEligible: decision = ""
            }
        }
        return (
            row.eligible ? "1" : "0", decision, row.outcome == .activated ? "1" : "0",
            row.selectedTypes.joined(separator: ","), row.selectedKind.map(methodType(ofKind:)) ?? ""
        )
    }

    /// The method type a kind belongs to (the two appToApp kinds are appToApp).
    public static func methodType(ofKind kind: String) -> String {
        kind.hasPrefix(IDVMethodType.appToApp.rawValue) ? IDVMethodType.appToApp.rawValue : kind
    }

    /// The name a method is counted under: its `type`, with appToApp split by cryptogram
    /// (`appToAppWithCryptogram`, `appToAppWithoutCryptogram`).
    public static func methodKind(type: String, withCryptogram: Bool?) -> String {
        guard type == IDVMethodType.appToApp.rawValue else { return type }
        return withCryptogram == true ? "appToAppWithCryptogram" : "appToAppWithoutCryptogram"
    }

    public static func apply(_ event: EventView, to row: inout CardStreamRow, facts: inout [CardFact]) {
        let t = event.occurredAt
        let sid = row.sid
        switch event.kind {
        case .eligibilityChecked:
            let outcome = event.string("outcome")
            if row.startedAt == nil {
                row.startedAt = t
                row.eligible = outcome == EligibilityOutcome.eligible.rawValue
            }
            if outcome == EligibilityOutcome.notEligible.rawValue { end(&row, .notEligible, at: t) }
        case .digitizationApproved:
            end(&row, .approved, at: t)
        case .digitizationDeclined:
            end(&row, .declined, at: t)
        case .digitizationApprovedWithIDV:
            row.decisionAt = t
            for method in event.object()?["methods"]?.arrayValue ?? [] {
                guard let object = method.objectValue else { continue }
                let kind = methodKind(
                    type: object["type"]?.stringValue ?? "unknown",
                    withCryptogram: object["withCryptogram"]?.boolValue)
                if let id = object["id"]?.stringValue { row.methods[id] = kind }
                facts.append(CardFact(occurredAt: t, sid: sid, kind: .offered, a: kind))
            }
        case .idvMethodSelected:
            let kind = event.string("idvID").flatMap { row.methods[$0] } ?? "unknown"
            facts.append(
                CardFact(
                    occurredAt: t, sid: sid, kind: .selected, a: kind,
                    b: row.selections == 0 ? "first" : "reselected"))
            row.selections += 1
            row.selectedKind = kind
            let type = methodType(ofKind: kind)
            if !row.selectedTypes.contains(type) {
                row.selectedTypes.append(type)
                row.selectedTypes.sort()
            }
        case .otpSubmitted:
            row.otpSubmissions += 1
            SortedValues.insert(t, into: &row.otpTimes)
            facts.append(CardFact(occurredAt: t, sid: sid, kind: .otpSubmitted, a: row.selectedKind ?? "none"))
        case .otpRejected:
            facts.append(CardFact(occurredAt: t, sid: sid, kind: .otpRejected, a: event.string("reason") ?? "unknown"))
        case .activatedByIDV:
            activate(&row, at: t, facts: &facts)
        case .cpsNotificationReceived:
            if event.string("messageCode") == CPSMessageCode.tokenProvisioned, row.decisionAt != nil,
                row.outcome == .open
            {
                activate(&row, at: t, facts: &facts)
            }
        case .activationExpired:
            end(&row, .expired, at: t)
            facts.append(CardFact(occurredAt: t, sid: sid, kind: .activationExpired, a: row.selectedKind ?? "none"))
        case .activationFailed:
            end(&row, .failed, at: t)
            facts.append(
                CardFact(
                    occurredAt: t, sid: sid, kind: .failed, a: row.selectedKind ?? "none",
                    b: event.string("reason") ?? "unknown"))
        case .activationCancelled:
            end(&row, .cancelled, at: t)
            facts.append(CardFact(occurredAt: t, sid: sid, kind: .cancelled, a: row.selectedKind ?? "none"))
        case nil, .transactionCreated, .authRequestParametersCreated, .authResponseReceived, .transactionClosed,
            .challengeStarted, .challengeRequestSent, .challengeResponseReceived, .challengeCompleted,
            .challengeCancelled, .challengeTimedOut, .protocolErrorOccurred, .runtimeErrorOccurred, .termsAccepted,
            .digitizationRequested, .activationRequired, .appToAppResumed, .activationInterrupted,
            .activationResumed:
            break // types this projection does not count
        }
    }

    private static func activate(_ row: inout CardStreamRow, at t: Int64, facts: inout [CardFact]) {
        end(&row, .activated, at: t)
        facts.append(
            CardFact(
                occurredAt: t, sid: row.sid, kind: .activated, a: row.selectedKind ?? "none",
                v: row.decisionAt.map { t - $0 }))
    }

    private static func end(_ row: inout CardStreamRow, _ outcome: CardDigitization.OutcomeKey, at t: Int64) {
        row.outcome = outcome
        row.endedAt = t
    }
}
