import JournalCore
import Projections
import Testing

/// `journal query otp` on hand-built logs: one test per clause of spec §5.
@Suite("otp query, clause by clause")
struct OTPQueryKnownAnswerTests {
    private func otp(_ backend: DatabaseBackend, _ log: LogBuilder, since: String? = nil, until: String? = nil)
        throws -> String
    {
        try answer(backend, log, since: since, until: until) { engine, window in try engine.otp(window) }
    }

    @Test(arguments: DatabaseBackend.all)
    func emptyJournalStillHasEveryTopLevelNumber(backend: DatabaseBackend) throws {
        #expect(
            try otp(backend, LogBuilder())
                == #"{"threeDS":{"otpSubmissions":0,"resends":0,"transactions":0,"outcomes":{}},"#
                + #""tokenization":{"otpSubmissions":0,"byMethod":{},"rejected":{},"journeys":0,"activated":0}}"#
        )
    }

    @Test(arguments: DatabaseBackend.all)
    func threeDSSubmissionsCountOnlySubmitTextRequests(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "submitText", at: log.t(0, 6))
        log.screen("3ds-a", "001", ui: "01", at: log.t(0, 7))
        log.request("3ds-a", "002", "submitText", at: log.t(0, 8))
        log.screen("3ds-a", "002", ui: "02", at: log.t(0, 9))
        log.request("3ds-a", "003", "submitSelection", at: log.t(0, 10))
        let json = try otp(backend, log)
        #expect(json.hasPrefix(#"{"threeDS":{"otpSubmissions":2,"resends":0,"transactions":1,"outcomes":{"open":1}}"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func resendsCountResendRequestsAndAloneDoNotMakeATransaction(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "resend", at: log.t(0, 6))
        log.screen("3ds-a", "001", ui: "01", at: log.t(0, 7))
        log.request("3ds-a", "002", "resend", at: log.t(0, 8))
        #expect(
            try otp(backend, log).hasPrefix(
                #"{"threeDS":{"otpSubmissions":0,"resends":2,"transactions":0,"outcomes":{}}"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func transactionsAreCountedByTheirTerminalEventOrOpen(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        let endings: [(String, (inout LogBuilder, String) -> Void)] = [
            (
                "3ds-y",
                {
                    $0.final($1, "002", "Y", at: $0.t(9, 0))
                    $0.add($1, "ChallengeCompleted", at: $0.t(9, 1), #"{"transStatus":"Y"}"#)
                }
            ),
            (
                "3ds-n",
                {
                    $0.final($1, "002", "N", at: $0.t(9, 0))
                    $0.add($1, "ChallengeCompleted", at: $0.t(9, 1), #"{"transStatus":"N"}"#)
                }
            ),
            ("3ds-t", { $0.add($1, "ChallengeTimedOut", at: $0.t(20, 0)) }),
            (
                "3ds-p",
                {
                    $0.add(
                        $1, "ProtocolErrorOccurred", at: $0.t(9, 0),
                        #"{"errorCode":"302","errorComponent":"S","errorDescription":"d","sentToACS":true}"#)
                }
            ),
            (
                "3ds-r",
                { $0.add($1, "RuntimeErrorOccurred", at: $0.t(9, 0), #"{"errorCode":"402","errorMessage":"m"}"#) }
            ),
            ("3ds-o", { _, _ in })
        ]
        for (i, (stream, end)) in endings.enumerated() {
            log.challenge(stream, at: i)
            log.request(stream, "000", "initial", at: log.t(i, 4))
            log.screen(stream, "000", ui: "01", at: log.t(i, 5))
            log.request(stream, "001", "submitText", at: log.t(i, 6))
            end(&log, stream)
        }
        // A cancelled one: the cancel request answers the text screen.
        log.challenge("3ds-c", at: 7)
        log.request("3ds-c", "000", "initial", at: log.t(7, 4))
        log.screen("3ds-c", "000", ui: "01", at: log.t(7, 5))
        log.request("3ds-c", "001", "submitText", at: log.t(7, 6))
        log.screen("3ds-c", "001", ui: "01", at: log.t(7, 7))
        log.request("3ds-c", "002", "cancel", at: log.t(7, 8))
        log.final("3ds-c", "002", "N", at: log.t(7, 9))
        log.add("3ds-c", "ChallengeCancelled", at: log.t(7, 10))
        #expect(
            try otp(backend, log).hasPrefix(
                #"{"threeDS":{"otpSubmissions":7,"resends":0,"transactions":7,"outcomes":{"cancelled":1,"#
                    + #""completedN":1,"completedY":1,"open":1,"protocolError":1,"runtimeError":1,"timedOut":1}}"#
            ))
    }

    @Test(arguments: DatabaseBackend.all)
    func outcomeComesFromTheWholeHistoryWhateverTheWindow(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "submitText", at: log.t(0, 6))
        log.final("3ds-a", "001", "Y", at: log.t(30, 0))
        log.add("3ds-a", "ChallengeCompleted", at: log.t(30, 1), #"{"transStatus":"Y"}"#)
        // The window holds the submission but not the completion.
        let json = try otp(backend, log, since: "2026-11-29T10:00:06.000Z", until: "2026-11-29T10:00:06.001Z")
        #expect(
            json.hasPrefix(#"{"threeDS":{"otpSubmissions":1,"resends":0,"transactions":1,"outcomes":{"completedY":1}}"#)
        )
        // A window after the submission does not count the transaction, even with its completion.
        #expect(
            try otp(backend, log, since: "2026-11-29T10:00:06.001Z").hasPrefix(
                #"{"threeDS":{"otpSubmissions":0,"resends":0,"transactions":0,"outcomes":{}}"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func sinceIsIncludedUntilIsExcludedAndDatesMeanMidnight(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "submitText", at: "2026-11-30T00:00:00.000Z")
        log.screen("3ds-a", "001", ui: "01", at: "2026-11-30T00:00:01.000Z")
        log.request("3ds-a", "002", "submitText", at: "2026-11-29T23:59:59.999Z")
        #expect(try otp(backend, log, since: "2026-11-30").contains(#""otpSubmissions":1,"#))
        #expect(try otp(backend, log, until: "2026-11-30").contains(#""otpSubmissions":1,"#))
        #expect(
            try otp(backend, log, since: "2026-11-29T23:59:59.999Z", until: "2026-11-30T00:00:00.001Z").contains(
                #""otpSubmissions":2,"#))
        #expect(try otp(backend, log, since: "2026-11-30", until: "2026-11-30").contains(#""otpSubmissions":0,"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func tokenizationSubmissionsAreByTheMethodSelectedLastBeforeEach(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.yellow("card-a", at: 0)
        log.select("card-a", "m1", at: log.t(0, 3))
        log.add("card-a", "OTPSubmitted", at: log.t(0, 4), #"{"otpLength":6}"#)
        log.add("card-a", "OTPRejected", at: log.t(0, 5), #"{"reason":"expired"}"#)
        log.select("card-a", "m2", at: log.t(0, 6)) // before the window
        log.add("card-a", "OTPSubmitted", at: log.t(5, 0), #"{"otpLength":6}"#)
        log.add("card-a", "OTPRejected", at: log.t(5, 1), #"{"reason":"incorrect","attemptsRemaining":2}"#)
        log.add("card-a", "OTPSubmitted", at: log.t(5, 2), #"{"otpLength":6}"#)
        #expect(
            try otp(backend, log).hasSuffix(
                #""tokenization":{"otpSubmissions":3,"byMethod":{"otpByEmail":2,"otpBySMS":1},"rejected":{"expired":1,"#
                    + #""incorrect":1},"journeys":1,"activated":0}}"#
            ))
        #expect(
            try otp(backend, log, since: "2026-11-29T10:01:00.000Z").hasSuffix(
                #""tokenization":{"otpSubmissions":2,"byMethod":{"otpByEmail":2},"#
                    + #""rejected":{"incorrect":1},"journeys":1,"activated":0}}"#
            ))
    }

    @Test(arguments: DatabaseBackend.all)
    func journeysNeedAnOTPSubmissionAndActivatedMeansEndedActivated(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        // Activated by OTP after the window ends: still "activated".
        log.yellow("card-a", at: 0)
        log.select("card-a", "m1", at: log.t(0, 3))
        log.add("card-a", "OTPSubmitted", at: log.t(0, 4), #"{"otpLength":6}"#)
        log.add("card-a", "ActivatedByIDV", at: log.t(40, 0))
        // Activated by the issuer (web service): no OTP, not a journey.
        log.yellow("card-b", at: 1)
        log.select("card-b", "m3", at: log.t(1, 3))
        log.add("card-b", "CPSNotificationReceived", at: log.t(1, 4), #"{"messageCode":"CBP.info.tokenProvisioned"}"#)
        // OTP tried, then cancelled: a journey, not activated.
        log.yellow("card-c", at: 2)
        log.select("card-c", "m2", at: log.t(2, 3))
        log.add("card-c", "OTPSubmitted", at: log.t(2, 4), #"{"otpLength":8}"#)
        log.add("card-c", "OTPRejected", at: log.t(2, 5), #"{"reason":"incorrect"}"#)
        log.add("card-c", "ActivationCancelled", at: log.t(2, 6))
        // OTP tried, then activated out of band by the issuer.
        log.yellow("card-d", at: 3)
        log.select("card-d", "m1", at: log.t(3, 3))
        log.add("card-d", "OTPSubmitted", at: log.t(3, 4), #"{"otpLength":6}"#)
        log.add("card-d", "OTPRejected", at: log.t(3, 5), #"{"reason":"incorrect","attemptsRemaining":1}"#)
        log.add("card-d", "CPSNotificationReceived", at: log.t(3, 6), #"{"messageCode":"CBP.info.tokenProvisioned"}"#)
        #expect(try otp(backend, log, until: "2026-11-29T10:30:00.000Z").hasSuffix(#""journeys":3,"activated":2}}"#))
    }
}
