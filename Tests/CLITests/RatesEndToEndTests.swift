import Foundation
import Testing

/// `journal query rates` through the built executable (spec §7): the JSON's shape and
/// exact decimals, `--every` buckets, and the text and CSV shapes.
@Suite("journal query rates end to end")
struct RatesEndToEndTests {
    /// Three transactions (one challenged and completed Y, two frictionless), a yellow journey
    /// activated by SMS OTP and a green one, all within 2026-12-03T10:00:01.500–10:00:43.500.
    private func knownJournal() throws -> JournalRunner {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(
            events.challenged(1) + events.frictionless(2) + events.frictionless(3)
                + events.yellowOTP(4) + events.green(5))
        return runner
    }

    static let knownJSON =
        #"""
        {"threeDS":{"transactions":3,"responses":3,"frictionless":2,"challenged":1,"authenticated":3,"abandoned":0,\#
        "failed":0,"frictionlessRate":0.6667,"challengeRate":0.3333,"authenticationRate":1.0000,\#
        "abandonmentRate":0.0000},"tokenization":{"journeys":2,"eligible":2,"green":1,"red":0,"yellow":1,\#
        "activated":1,"activationRate":1.0000,"byMethod":{"otpBySMS":{"selected":1,"activated":1}}}}
        """#

    static let emptyRates =
        #"""
        "threeDS":{"transactions":0,"responses":0,"frictionless":0,"challenged":0,"authenticated":0,"abandoned":0,\#
        "failed":0,"frictionlessRate":null,"challengeRate":null,"authenticationRate":null,"abandonmentRate":null},\#
        "tokenization":{"journeys":0,"eligible":0,"green":0,"red":0,"yellow":0,"activated":0,"activationRate":null,\#
        "byMethod":{}}
        """#

    @Test("rates print the spec's JSON with four-decimal rates")
    func ratesPrintTheContractsJSON() throws {
        let runner = try knownJournal()
        let result = try runner.run(["query", "rates", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.knownJSON + "\n")
        // A window holding no stream start: counts 0, every rate null.
        let empty = try runner.run(["query", "rates", "--format", "json", "--since", "2026-12-04"])
        #expect(empty.stdout == "{" + Self.emptyRates + "}\n")
    }

    @Test("--every 1h prints aligned buckets in time order, the empty ones too")
    func everyHourPrintsAlignedBuckets() throws {
        let runner = try knownJournal()
        let hour = try runner.run(["query", "rates", "--format", "json", "--every", "1h"])
        #expect(hour.status == 0, "\(hour.stderr)")
        #expect(
            hour.stdout == #"{"buckets":[{"start":"2026-12-03T10:00:00.000Z","end":"2026-12-03T11:00:00.000Z","#
                + String(Self.knownJSON.dropFirst()) + "]}\n")
        // A window cut inside buckets: the buckets keep their aligned edges; empty ones are listed.
        let cut = try runner.run([
            "query", "rates", "--format", "json", "--every", "15m",
            "--since", "2026-12-03T09:50:00.001Z", "--until", "2026-12-03T10:30:00.000Z"
        ])
        #expect(cut.status == 0, "\(cut.stderr)")
        let buckets =
            try #require(try JSONSerialization.jsonObject(with: Data(cut.stdout.utf8)) as? [String: Any])["buckets"]
            as? [[String: Any]]
        #expect(
            buckets?.map { $0["start"] as? String } == [
                "2026-12-03T09:45:00.000Z", "2026-12-03T10:00:00.000Z",
                "2026-12-03T10:15:00.000Z"
            ])
        let transactions = buckets?.map { ($0["threeDS"] as? [String: Any])?["transactions"] as? Int }
        #expect(transactions == [0, 3, 0])
        #expect(cut.stdout.contains(#""end":"2026-12-03T10:30:00.000Z","# + Self.emptyRates + "}"))
    }

    @Test("--every takes only 1m, 5m, 15m, 1h or 1d")
    func everyRejectsOtherValues() throws {
        let runner = try knownJournal()
        for value in ["2h", "60m", "1H", ""] {
            let result = try runner.run(["query", "rates", "--every", value])
            #expect(result.status == 2, "--every \(value)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.first?.hasPrefix("error: ") == true)
        }
        // More than 100,000 buckets: refused before any is computed, with a way out.
        let tooMany = try runner.run([
            "query", "rates", "--every", "1m", "--since", "2000-01-01", "--until", "2026-01-01"
        ])
        #expect(tooMany.status == 1)
        #expect(tooMany.stdout.isEmpty)
        #expect(
            tooMany.stderrLines == [
                "error: --every 1m would print 13675680 buckets; the limit is 100000",
                "hint: narrow the window with --since and --until, or choose a longer --every"
            ])
    }

    @Test("text shows the window, the events, counts with their rates, and one row per bucket")
    func textShape() throws {
        let runner = try knownJournal()
        let text = try runner.run(["query", "rates"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.hasPrefix(
                """
                query   rates
                window  all events
                events  29

                threeDS (transactions created in the window)
                  transactions   3
                  responses      3  100.00 %  of transactions
                  frictionless   2   66.67 %  frictionlessRate: ARes Y or A, of responses
                """))
        #expect(text.stdout.contains("  activated  1  100.00 %  activationRate, of yellow"))
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
        let buckets = try runner.run(["query", "rates", "--every", "1h"])
        #expect(buckets.stdout.contains("every   1h: 1 bucket, 2026-12-03T10:00:00.000Z to 2026-12-03T11:00:00.000Z"))
        #expect(buckets.stdout.contains("2026-12-03T10:00:00.000Z      26             3       66.67 %    33.33 %"))
        #expect(buckets.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    @Test("csv is one row per window or bucket under plain column names")
    func csvShape() throws {
        let runner = try knownJournal()
        let header =
            "transactions,responses,frictionless,challenged,authenticated,abandoned,failed,frictionlessRate,"
            + "challengeRate,authenticationRate,abandonmentRate,journeys,eligible,green,red,"
            + "yellow,activated,activationRate,"
            + "otpBySMS_selected,otpBySMS_activated,otpByEmail_selected,otpByEmail_activated,customerService_selected,"
            + "customerService_activated,webService_selected,webService_activated,appToApp_selected,appToApp_activated"
        let whole = try runner.run(["query", "rates", "--format", "csv"])
        #expect(
            whole.stdoutLines == [
                "since,until,events," + header,
                ",,29,3,3,2,1,3,0,0,0.6667,0.3333,1.0000,0.0000,2,2,1,0,1,1,1.0000,1,1,0,0,0,0,0,0,0,0"
            ])
        let minutes = try runner.run([
            "query", "rates", "--format", "csv", "--every", "1m",
            "--since", "2026-12-03T09:59:00.000Z"
        ])
        #expect(minutes.stdoutLines.first == "start,end,events," + header)
        #expect(
            minutes.stdoutLines.dropFirst().map { $0.split(separator: ",").prefix(4).joined(separator: ",") } == [
                "2026-12-03T09:59:00.000Z,2026-12-03T10:00:00.000Z,0,0",
                "2026-12-03T10:00:00.000Z,2026-12-03T10:01:00.000Z,26,3"
            ])
    }

    @Test("funnel, errors, latency and idv take --every too")
    func otherQueriesTakeEvery() throws {
        let runner = try knownJournal()
        for query in ["funnel", "errors", "latency", "idv"] {
            let json = try runner.run(["query", query, "--format", "json", "--every", "1h"])
            #expect(json.status == 0, "\(query): \(json.stderr)")
            #expect(
                json.stdout.hasPrefix(
                    #"{"buckets":[{"start":"2026-12-03T10:00:00.000Z","end":"2026-12-03T11:00:00.000Z","#))
            let whole = try runner.run(["query", query, "--format", "json"])
            // One bucket holding the whole log: the bucket's numbers are the whole log's.
            #expect(json.stdout.contains(String(whole.stdout.dropFirst().dropLast(2))), "\(query)")
            for format in ["text", "csv"] {
                let result = try runner.run(["query", query, "--format", format, "--every", "15m"])
                #expect(result.status == 0, "\(query) \(format): \(result.stderr)")
                #expect(result.stdout.contains("2026-12-03T10:00:00.000Z"), "\(query) \(format)")
            }
        }
    }
}
