import Domain

/// The 3DS projection's fold: pure, one event at a time, onto the stream's row, emitting facts
/// and changes to the all-time totals.
///
/// Totals keys (components escaped by ``TotalsKey``):
/// - per event: `req|action|ui` (ui of the screen answered, `none` first), `screen|ui`,
///   `timeout|ds|ui`, `perr|code|component`, `rerr|code`;
/// - per stream, moved when the stream changes: `funnel|ds|mv|ares|challenged|outcome`,
///   `otptx|outcome` (streams with a submitText), `ended|lastUi|outcome` and `rounds|lastUi`
///   (challenges ended); histograms `chal|ds` and `chal` (challenge duration, all).
public enum ThreeDSFold: CategoryFold {
    public static func contributionMayDiffer(_ before: ThreeDSStreamRow, _ row: ThreeDSStreamRow) -> Bool {
        before.createdAt != row.createdAt || before.directoryServer != row.directoryServer
            || before.messageVersion != row.messageVersion || before.aresStatus != row.aresStatus
            || before.challengeStartedAt != row.challengeStartedAt || before.outcome != row.outcome
            || before.endedAt != row.endedAt || before.firstSubmitAt != row.firstSubmitAt
            || (row.endedAt != nil && (before.lastUiType != row.lastUiType || before.requests != row.requests))
    }

    public static func count(_ fact: ThreeDSFact, of row: ThreeDSStreamRow, in totals: inout TotalsDelta) {
        switch fact.kind {
        case .request: totals.count(.req, fact.a, fact.b, at: fact.occurredAt)
        case .screen: totals.count(.screen, fact.a, at: fact.occurredAt)
        case .timeout: totals.count(.timeout, row.directoryServer ?? "unknown", fact.a, at: fact.occurredAt)
        case .protocolError: totals.count(.perr, fact.a, fact.b, at: fact.occurredAt)
        case .runtimeError: totals.count(.rerr, fact.a, at: fact.occurredAt)
        }
    }

    public static func contribute(_ row: ThreeDSStreamRow, sign: Int64, to totals: inout TotalsDelta) {
        let outcome = row.outcome.rawValue
        if let created = row.createdAt {
            totals.count(
                .funnel, row.directoryServer ?? "unknown", row.messageVersion ?? "unknown",
                row.aresStatus ?? "", row.challengeStartedAt != nil ? "1" : "0", outcome, by: sign, at: created)
        }
        if let first = row.firstSubmitAt {
            // Placed at the stream's earliest submission: a window holds the streams whose
            // earliest submission lies in it, plus those straddling its start (see `otpReport`).
            totals.count(.otptx, outcome, by: sign, at: first)
        }
        if let ended = row.endedAt, let started = row.challengeStartedAt {
            let ui = row.lastUiType ?? "none"
            totals.count(.ended, ui, outcome, by: sign, at: ended)
            totals.count(.rounds, ui, by: sign * row.requests, at: ended)
            totals.observe(.chal, row.directoryServer ?? "unknown", ended - started, sign, at: ended)
        }
    }

    public static func apply(_ event: EventView, to row: inout ThreeDSStreamRow, facts: inout [ThreeDSFact]) {
        let t = event.occurredAt
        switch event.kind {
        case .transactionCreated:
            row.createdAt = t
            (row.directoryServer, row.messageVersion) = event.strings("directoryServerID", "messageVersion")
        case .authResponseReceived:
            row.aresStatus = event.string("transStatus")
        case .challengeStarted:
            row.challengeStartedAt = t
        case .challengeRequestSent:
            let action = event.string("action") ?? "unknown"
            row.requests += 1
            if action == ChallengeAction.submitText.rawValue {
                row.submitTexts += 1
                SortedValues.insert(t, into: &row.submitTimes)
            }
            facts.append(
                ThreeDSFact(
                    occurredAt: t, sid: row.sid, kind: .request, a: action,
                    b: row.lastUiType ?? "none"))
        case .challengeResponseReceived:
            let (completion, uiType) = event.strings("challengeCompletionInd", "acsUiType")
            if completion == ChallengeCompletion.N.rawValue {
                let ui = uiType ?? "unknown"
                row.lastUiType = ui
                facts.append(ThreeDSFact(occurredAt: t, sid: row.sid, kind: .screen, a: ui))
            }
        case .challengeCompleted:
            end(&row, event.string("transStatus") == ChallengeTransStatus.Y.rawValue ? .completedY : .completedN, at: t)
        case .challengeCancelled:
            end(&row, .cancelled, at: t)
        case .challengeTimedOut:
            end(&row, .timedOut, at: t)
            facts.append(ThreeDSFact(occurredAt: t, sid: row.sid, kind: .timeout, a: row.lastUiType ?? "none"))
        case .protocolErrorOccurred:
            end(&row, .protocolError, at: t)
            facts.append(
                ThreeDSFact(
                    occurredAt: t, sid: row.sid, kind: .protocolError,
                    a: event.string("errorCode") ?? "unknown",
                    b: event.string("errorComponent") ?? "unknown"))
        case .runtimeErrorOccurred:
            end(&row, .runtimeError, at: t)
            facts.append(
                ThreeDSFact(
                    occurredAt: t, sid: row.sid, kind: .runtimeError,
                    a: event.string("errorCode") ?? "unknown"))
        case .transactionClosed:
            end(&row, .closed, at: t)
        case nil, .authRequestParametersCreated, .eligibilityChecked, .termsAccepted, .digitizationRequested,
            .digitizationApproved, .digitizationDeclined, .digitizationApprovedWithIDV, .idvMethodSelected,
            .activationRequired, .otpSubmitted, .otpRejected, .appToAppResumed, .cpsNotificationReceived,
            .activatedByIDV, .activationInterrupted, .activationResumed, .activationCancelled, .activationExpired,
            .activationFailed:
            break // types this projection does not count
        }
    }

    private static func end(_ row: inout ThreeDSStreamRow, _ outcome: ThreeDSTransaction.OutcomeKey, at t: Int64) {
        row.outcome = outcome
        row.endedAt = t
    }
}
