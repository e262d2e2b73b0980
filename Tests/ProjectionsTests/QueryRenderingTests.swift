import JournalCore
import Testing

@testable import Projections

@Suite("Query output: text, JSON, CSV")
struct QueryRenderingTests {
    static func output(_ name: QueryName, window: QueryWindow = .all, every: BucketWidth? = nil) throws -> QueryOutput {
        var log = LogBuilder()
        log.challenge("3ds-a", ds: "A000000004", at: 0)
        log.request("3ds-a", "000", "initial", at: log.t(0, 4))
        log.screen("3ds-a", "000", ui: "01", at: log.t(0, 5))
        log.request("3ds-a", "001", "submitText", at: log.t(0, 6))
        log.add("3ds-a", "ChallengeTimedOut", at: log.t(9, 0))
        log.add(
            "3ds-b", "TransactionCreated", at: log.t(1, 0),
            #"{"directoryServerID":"A000000003","messageVersion":"2.1.0"}"#)
        log.add(
            "3ds-b", "ProtocolErrorOccurred", at: log.t(1, 1),
            #"{"errorCode":"1,\"2","errorComponent":"C","errorDescription":"d","sentToACS":false}"#)
        let db = try TemporaryDatabase()
        defer { db.remove() }
        let engine = try ProjectionEngine(databasePath: db.path, source: ArrayEventSource(log.events))
        defer { engine.close() }
        if let every { return try engine.run(name, window: window, every: every) }
        return try engine.run(name, window: window)
    }

    @Test("bucket text: one row per bucket, a map's keys in order even when first met late")
    func bucketTextHasOneRowPerBucket() throws {
        // 3ds-a (created 10:00, timed out) and 3ds-b (created 10:01, protocol error).
        // Without --since the buckets start at the first event's minute.
        let window = QueryWindow(until: Timestamp("2026-11-29T10:02:00.000Z"))
        let text = try Self.output(.funnel, window: window, every: .minute).text
        #expect(
            text.contains("every   1m: 2 buckets, 2026-11-29T10:00:00.000Z to 2026-11-29T10:02:00.000Z\nevents  9\n"))
        #expect(
            text.contains(
                """
                                          outcomes
                start                     challenged  protocolError  timedOut
                2026-11-29T10:00:00.000Z           1              -         1
                2026-11-29T10:01:00.000Z           0              1         -
                """))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= TextTable.maxWidth })
        let csv = try Self.output(.funnel, window: window, every: .minute).csv
        #expect(csv.split(separator: "\n").first?.hasPrefix("start,end,events,section,key,transactions,") == true)
        #expect(csv.contains("2026-11-29T10:01:00.000Z,2026-11-29T10:02:00.000Z,2,byDirectoryServer,A000000003,1,"))
    }

    @Test func textStartsWithTheQueryTheWindowAndTheEventsItCovers() throws {
        let window = QueryWindow(
            since: Timestamp("2026-11-29T10:00:05.000Z"), until: Timestamp("2026-11-29T11:00:00.000Z"))
        let text = try Self.output(.timeouts, window: window).text
        #expect(
            text.hasPrefix(
                """
                query   timeouts
                window  2026-11-29T10:00:05.000Z to 2026-11-29T11:00:00.000Z (excluded)
                events  5

                threeDS
                  challengeTimeouts  1
                """))
    }

    @Test("per-key maps print as tables with directory servers by scheme name")
    func textShowsPerKeyMapsAsAlignedTables() throws {
        let text = try Self.output(.funnel).text
        #expect(
            text.contains(
                """
                byDirectoryServer
                                                                                 outcomes
                                         transactions  frictionless  challenged  protocolError  timedOut
                  Visa A000000003                   1             0           0              1         -
                  Mastercard A000000004             1             0           1              -         1
                """))
    }

    @Test("counts carry their share of what they are part of")
    func countsCarryTheirShare() throws {
        let text = try Self.output(.timeouts).text
        #expect(
            text.contains(
                """
                  byDirectoryServer
                    Mastercard A000000004  1  100.0 %
                """))
        let funnel = try Self.output(.funnel).text
        #expect(funnel.contains("transactions       2\n"))
        #expect(funnel.contains("challenged         1   50.0 %"))
    }

    @Test(
        "durations read as seconds, minutes and hours",
        arguments: [
            (Int64(850), "850 ms"), (1_200, "1.2 s"), (59_940, "59.9 s"), (59_950, "1 min"), (90_000, "1 min 30 s"),
            (840_000, "14 min"), (14_520_964, "4 h 2 min"), (7_200_000, "2 h"), (183_600_000, "2 d 3 h")
        ])
    func durationsReadForPeople(ms: Int64, expected: String) {
        #expect(Readable.duration(ms) == expected)
    }

    @Test("a table wider than 100 columns becomes several tables that each fit")
    func wideTablesAreSplit() {
        var table = TextTable()
        table.columns = (0..<12).map { TextTable.Column(group: $0 < 6 ? "first" : "second", name: "column\($0)") }
        table.rows = [("row", (0..<12).map { String($0 * 1_000) })]
        let lines = table.render(indent: "  ")
        #expect(lines.allSatisfy { $0.count <= TextTable.maxWidth })
        #expect(lines.filter { $0.hasPrefix("  row") }.count == 2)
        #expect(lines.contains { $0.contains("first") } && lines.contains { $0.contains("second") })
    }

    @Test func jsonIsTheReportAlone() throws {
        #expect(
            try Self.output(.timeouts).json
                == #"{"threeDS":{"challengeTimeouts":1,"byDirectoryServer":{"A000000004":1},"byUiType":{"01":1}},"#
                + #""tokenization":{"otpExpired":0,"activationsExpired":0}}"#
        )
    }

    @Test("csv has one row per record under plain column names, quoted when needed")
    func csvHasOneRowPerRecord() throws {
        let csv = try Self.output(.errors, window: QueryWindow(since: Timestamp("2026-11-29T10:01:00.000Z"))).csv
        #expect(
            csv == """
                since,until,events,section,key,protocolErrors_count,count,runtimeErrors_count
                2026-11-29T10:01:00.000Z,,3,total,,1,,0
                2026-11-29T10:01:00.000Z,,3,protocolErrors.byCode,"1,""2",,1,
                2026-11-29T10:01:00.000Z,,3,protocolErrors.byComponent,C,,1,

                """)
    }

    @Test("csv names a column by the shortest unique end of its path")
    func csvColumnNames() {
        #expect(
            QueryOutput.columnNames(["threeDS.otpSubmissions", "tokenization.otpSubmissions", "threeDS.resends"])
                == ["threeDS_otpSubmissions", "tokenization_otpSubmissions", "resends"])
        #expect(
            QueryOutput.columnNames(["count", "threeDS.challengeMs.count", "p50"]) == [
                "count", "challengeMs_count", "p50"
            ])
    }
}
