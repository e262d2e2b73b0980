import JournalCore
import Projections
import Testing

@Suite("Query output: text, JSON, CSV")
struct QueryRenderingTests {
    static func output(_ name: QueryName, window: QueryWindow = .all) throws -> QueryOutput {
        var log = LogBuilder()
        log.challenge("3ds-a", ds: "A000000004", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "submitText", at: log.t(0, 6))
        log.add("3ds-a", "ChallengeTimedOut", at: log.t(9, 0))
        log.add("3ds-b", "TransactionCreated", at: log.t(1, 0), #"{"directoryServerID":"A000000003","messageVersion":"2.1.0"}"#)
        log.add("3ds-b", "ProtocolErrorOccurred", at: log.t(1, 1),
                #"{"errorCode":"1,\"2","errorComponent":"C","errorDescription":"d","sentToACS":false}"#)
        let db = try TemporaryDatabase()
        defer { db.remove() }
        let engine = try ProjectionEngine(databasePath: db.path, source: ArrayEventSource(log.events))
        defer { engine.close() }
        return try engine.run(name, window: window)
    }

    @Test func textStartsWithTheQueryTheWindowAndTheEventsItCovers() throws {
        let window = QueryWindow(since: Timestamp("2026-11-29T10:00:05.000Z"), until: Timestamp("2026-11-29T11:00:00.000Z"))
        let text = try Self.output(.timeouts, window: window).text
        #expect(text.hasPrefix("""
            query   timeouts
            window  2026-11-29T10:00:05.000Z to 2026-11-29T11:00:00.000Z (excluded)
            events  5

            threeDS
              challengeTimeouts  1
            """))
    }

    @Test func textShowsPerKeyMapsAsAlignedTables() throws {
        let text = try Self.output(.funnel).text
        #expect(text.contains("""
            byDirectoryServer
                                                                  outcomes
                          transactions  frictionless  challenged  protocolError  timedOut
              A000000003             1             0           0              1         -
              A000000004             1             0           1              -         1
            """))
    }

    @Test func jsonIsTheReportAlone() throws {
        #expect(try Self.output(.timeouts).json == #"{"threeDS":{"challengeTimeouts":1,"byDirectoryServer":{"A000000004":1},"byUiType":{"01":1}},"tokenization":{"otpExpired":0,"activationsExpired":0}}"#)
    }

    @Test func csvHasTheWindowTheEventsAndEveryNumberQuotedWhenNeeded() throws {
        let csv = try Self.output(.errors, window: QueryWindow(since: Timestamp("2026-11-29T10:01:00.000Z"))).csv
        #expect(csv == """
            metric,value
            since,2026-11-29T10:01:00.000Z
            until,
            events,3
            protocolErrors.count,1
            "protocolErrors.byCode.1,""2",1
            protocolErrors.byComponent.C,1
            runtimeErrors.count,0

            """)
    }
}
