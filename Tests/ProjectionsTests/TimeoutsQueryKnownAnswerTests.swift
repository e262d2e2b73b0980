import JournalCore
import Projections
import Testing

/// `journal query timeouts` on hand-built logs: one test per clause of spec §5.
@Suite("timeouts query, clause by clause")
struct TimeoutsQueryKnownAnswerTests {
    private func timeouts(_ backend: DatabaseBackend, _ log: LogBuilder, since: String? = nil, until: String? = nil)
        throws -> String
    {
        try answer(backend, log, since: since, until: until) { engine, window in try engine.timeouts(window) }
    }

    @Test(arguments: DatabaseBackend.all)
    func emptyJournalStillHasEveryTopLevelNumber(backend: DatabaseBackend) throws {
        #expect(
            try timeouts(backend, LogBuilder())
                == #"{"threeDS":{"challengeTimeouts":0,"byDirectoryServer":{},"byUiType":{}},"#
                + #""tokenization":{"otpExpired":0,"activationsExpired":0}}"#
        )
    }

    @Test(arguments: DatabaseBackend.all)
    func challengeTimeoutsCountTimedOutEventsByTheStreamsDirectoryServer(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", ds: "A000000004", at: 0)
        log.add("3ds-a", "ChallengeTimedOut", at: log.t(6, 0))
        log.challenge("3ds-b", ds: "A000000004", at: 1)
        log.add("3ds-b", "ChallengeTimedOut", at: log.t(7, 0))
        log.challenge("3ds-c", ds: "F155545342", at: 2)
        log.add("3ds-c", "ChallengeTimedOut", at: log.t(8, 0))
        log.challenge("3ds-d", ds: "A000000003", at: 3)
        // not a timeout
        log.add("3ds-d", "RuntimeErrorOccurred", at: log.t(8, 0), #"{"errorCode":"402","errorMessage":"m"}"#)
        #expect(
            try timeouts(backend, log).hasPrefix(
                #"{"threeDS":{"challengeTimeouts":3,"byDirectoryServer":{"A000000004":2,"F155545342":1},"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func directoryServerComesFromTheWholeHistoryWhateverTheWindow(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.challenge("3ds-a", ds: "A000000025", at: 0)
        log.add("3ds-a", "ChallengeTimedOut", at: log.t(50, 0))
        #expect(
            try timeouts(backend, log, since: "2026-11-29T10:10:00.000Z")
                == #"{"threeDS":{"challengeTimeouts":1,"byDirectoryServer":{"A000000025":1},"byUiType":{"none":1}},"#
                + #""tokenization":{"otpExpired":0,"activationsExpired":0}}"#
        )
    }

    @Test(arguments: DatabaseBackend.all)
    func uiTypeIsTheLastNonFinalResponseBeforeTheTimeoutOrNone(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        // Two screens: the last one (04) counts, even though it arrived before the window.
        log.challenge("3ds-a", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "submitText", at: log.t(0, 6))
        log.screen("3ds-a", "001", ui: "04", at: log.t(0, 7))
        log.add("3ds-a", "ChallengeTimedOut", at: log.t(20, 0))
        // A request in flight, no response yet: none.
        log.challenge("3ds-b", at: 1)
        log.request("3ds-b", "000", "initial", at: log.t(1, 4))
        log.add("3ds-b", "ChallengeTimedOut", at: log.t(21, 0))
        // No request at all: none.
        log.challenge("3ds-c", at: 2)
        log.add("3ds-c", "ChallengeTimedOut", at: log.t(22, 0))
        // A later request in flight after a 05 screen: still 05.
        log.challenge("3ds-d", at: 3)
        log.request("3ds-d", "000", "initial", at: log.t(3, 4))
        log.screen("3ds-d", "000", ui: "05", at: log.t(3, 5))
        log.request("3ds-d", "001", "htmlForm", at: log.t(3, 6))
        log.add("3ds-d", "ChallengeTimedOut", at: log.t(23, 0))
        #expect(
            try timeouts(backend, log, since: "2026-11-29T10:10:00.000Z").contains(
                #""byUiType":{"04":1,"05":1,"none":2}"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func otpExpiredCountsOnlyExpiredRejections(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.yellow("card-a", at: 0)
        log.select("card-a", "m1", at: log.t(0, 3))
        log.add("card-a", "OTPSubmitted", at: log.t(0, 4), #"{"otpLength":6}"#)
        log.add("card-a", "OTPRejected", at: log.t(0, 5), #"{"reason":"incorrect","attemptsRemaining":2}"#)
        log.add("card-a", "OTPSubmitted", at: log.t(0, 6), #"{"otpLength":6}"#)
        log.add("card-a", "OTPRejected", at: log.t(0, 7), #"{"reason":"expired"}"#)
        log.select("card-a", "m2", at: log.t(0, 8))
        log.add("card-a", "OTPSubmitted", at: log.t(0, 9), #"{"otpLength":6}"#)
        log.add("card-a", "OTPRejected", at: log.t(0, 10), #"{"reason":"expired"}"#)
        #expect(try timeouts(backend, log).hasSuffix(#""tokenization":{"otpExpired":2,"activationsExpired":0}}"#))
        #expect(
            try timeouts(backend, log, until: "2026-11-29T10:00:08.000Z").hasSuffix(
                #""tokenization":{"otpExpired":1,"activationsExpired":0}}"#))
    }

    @Test(arguments: DatabaseBackend.all)
    func activationsExpiredCountsActivationExpiredEventsInTheWindow(backend: DatabaseBackend) throws {
        var log = LogBuilder()
        log.yellow("card-a", at: 0)
        log.add("card-a", "ActivationExpired", at: log.t(10, 0))
        log.yellow("card-b", at: 1)
        log.select("card-b", "m3", at: log.t(1, 3))
        log.add("card-b", "ActivationExpired", at: log.t(30, 0))
        #expect(try timeouts(backend, log).hasSuffix(#""tokenization":{"otpExpired":0,"activationsExpired":2}}"#))
        #expect(
            try timeouts(backend, log, since: "2026-11-29T10:20:00.000Z").hasSuffix(
                #""tokenization":{"otpExpired":0,"activationsExpired":1}}"#))
    }
}
