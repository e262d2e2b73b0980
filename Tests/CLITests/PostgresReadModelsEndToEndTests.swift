import Foundation
import Testing

/// `journal query` and `journal project` on a PostgreSQL URL: the read models live in
/// PostgreSQL tables of the journal's schema and answer exactly what they answer on SQLite.
@Suite(
    "PostgreSQL read models end to end",
    .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
struct PostgresReadModelsEndToEndTests {
    static let secret = "n0t-in-0utput"
    static let queries = ["otp", "timeouts", "funnel", "challenges", "errors", "idv", "latency", "rates"]

    private func expectNoSecret(_ result: JournalRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stdout.contains(Self.secret), "stdout shows the password", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains(Self.secret), "stderr shows the password", sourceLocation: sourceLocation)
    }

    /// A simulated journal in SQLite, copied to a fresh PostgreSQL schema.
    private func journalOnBothBackends(_ runner: JournalRunner) throws -> String {
        let simulated = try runner.run(["simulate", "--seed", "11", "--transactions", "60", "--digitizations", "40"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let url = try PostgresCLIServer.freshURL(password: Self.secret)
        let copy = try runner.run(["copy", "--from", runner.database, "--to", url], db: false)
        #expect(copy.status == 0, "\(copy.stderr)")
        return url
    }

    @Test func everyQueryPrintsOnPostgreSQLWhatItPrintsOnSQLite() throws {
        let runner = try JournalRunner()
        let url = try journalOnBothBackends(runner)
        let windows: [[String]] = [
            [], ["--since", "2026-11-29T08:00:00.000Z", "--until", "2026-11-29T08:30:00.000Z"],
            ["--every", "1h"], ["--since", "2026-11-29T08:07:30.500Z", "--every", "5m"]
        ]
        for query in Self.queries {
            for window in windows {
                for format in ["text", "json", "csv"] {
                    let arguments = ["query", query, "--format", format] + window
                    let onPostgres = try runner.run(arguments + ["--db", url], db: false)
                    let onSQLite = try runner.run(arguments)
                    #expect(onPostgres.status == 0, "\(arguments): \(onPostgres.stderr)")
                    #expect(onPostgres.stdout == onSQLite.stdout, "\(arguments)")
                    #expect(!onPostgres.stdout.isEmpty)
                    expectNoSecret(onPostgres)
                }
            }
        }
    }

    @Test("journal report writes on PostgreSQL the very bytes it writes on SQLite")
    func reportIsTheSameOnBothBackends() throws {
        let runner = try JournalRunner()
        let url = try journalOnBothBackends(runner)
        for window in [[], ["--since", "2026-11-29T08:00:00.000Z", "--until", "2026-11-29T08:30:00.000Z"]] {
            let onPostgres = try runner.run(
                ["report", "--out", runner.path("pg.html"), "--db", url] + window, db: false)
            let onSQLite = try runner.run(["report", "--out", runner.path("sqlite.html")] + window)
            #expect(onPostgres.status == 0, "\(onPostgres.stderr)")
            #expect(onSQLite.status == 0, "\(onSQLite.stderr)")
            expectNoSecret(onPostgres)
            #expect(try runner.read("pg.html") == (try runner.read("sqlite.html")), "\(window)")
        }
    }

    @Test func projectStatusAndRebuildWorkOnPostgreSQLAndMatchSQLite() throws {
        let runner = try JournalRunner()
        let url = try journalOnBothBackends(runner)
        // Never built yet: the same status on both.
        let before = try runner.run(["project", "--status", "--db", url], db: false)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout == (try runner.run(["project", "--status"])).stdout)
        #expect(before.stdout.contains("never built"))
        // Rebuild all, twice: generations 1 then 2, up to date, the same answers.
        for generation in 1...2 {
            let rebuilt = try runner.run(["project", "--rebuild", "--db", url], db: false)
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            #expect(rebuilt.stdoutLines.first?.hasPrefix("rebuilt events, 3ds, card, streams: ") == true)
            expectNoSecret(rebuilt)
            #expect(try runner.run(["project", "--rebuild"]).status == 0)
            let status = try runner.run(["project", "--status", "--format", "json", "--db", url], db: false)
            #expect(status.stdout == (try runner.run(["project", "--status", "--format", "json"])).stdout)
            #expect(status.stdout.contains(#""generation":\#(generation)"#))
            #expect(status.stdout.contains(#""lag":0"#))
        }
        // One projection, named by a query that reads it.
        let one = try runner.run(["project", "--rebuild", "idv", "--format", "json", "--db", url], db: false)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains(#""rebuilt":["events","card"]"#))
        let json = ["query", "idv", "--format", "json"]
        #expect(try runner.run(json + ["--db", url], db: false).stdout == (try runner.run(json)).stdout)
    }

    @Test("find prints on PostgreSQL what it prints on SQLite, for every filter and format")
    func findMatchesSQLite() throws {
        let runner = try JournalRunner()
        let url = try journalOnBothBackends(runner)
        // Ids to look for, from the journal itself.
        var serverTransID = ""
        var acsTransID = ""
        var digitalCardID = ""
        var start = ""
        for event in try runner.exportedObjects() {
            let data = event["data"] as? [String: Any] ?? [:]
            if serverTransID.isEmpty, let id = data["threeDSServerTransID"] as? String {
                serverTransID = id
                acsTransID = data["acsTransID"] as? String ?? ""
            }
            if digitalCardID.isEmpty, let id = data["digitalCardID"] as? String { digitalCardID = id }
            if start.isEmpty, event["version"] as? Int == 0, event["position"] as? Int ?? 0 > 30 {
                start = event["occurredAt"] as? String ?? ""
            }
        }
        let filters: [[String]] = [
            [], ["--limit", "7"], ["--category", "card"], ["--outcome", "open"], ["--outcome", "closed"],
            ["--outcome", "pendingActivation"], ["--ds", "A000000003"], ["--server-trans-id", serverTransID],
            ["--acs-trans-id", acsTransID], ["--digital-card-id", digitalCardID], ["--since", start],
            ["--until", start, "--category", "3ds"], ["--correlation-id", "none"]
        ]
        var matched = 0
        for filter in filters {
            for format in ["text", "json", "csv"] {
                let arguments = ["find", "--format", format] + filter
                let onPostgres = try runner.run(arguments + ["--db", url], db: false)
                let onSQLite = try runner.run(arguments)
                #expect(onPostgres.status == 0, "\(arguments): \(onPostgres.stderr)")
                #expect(onPostgres.stdout == onSQLite.stdout, "\(arguments)")
                expectNoSecret(onPostgres)
                if format == "csv" { matched += onSQLite.stdoutLines.count - 1 }
            }
        }
        #expect(matched > 100)
        // Appended events are applied first on PostgreSQL too; a rebuild answers the same.
        var events = LegalEvents()
        var lines = events.challenged(1)
        lines[4] = lines[4].replacingOccurrences(of: #""data":"#, with: #""meta":{"correlationId":"order-1"},"data":"#)
        let more = try runner.ndjson("more.ndjson", lines)
        #expect(try runner.run(["import", more, "--db", url], db: false).status == 0)
        let found = try runner.run(["find", "--acs-trans-id", "acs-1", "--format", "json", "--db", url], db: false)
        #expect(found.stdout.contains(#""outcome":"completedY","events":9"#), "\(found.stdout)")
        let correlated = try runner.run(
            ["find", "--correlation-id", "order-1", "--format", "csv", "--db", url], db: false)
        #expect(
            correlated.stdoutLines.count == 2 && correlated.stdout.contains(LegalEvents.threeDSStream(1)),
            "\(correlated.stdout)")
        #expect(try runner.run(["project", "--rebuild", "streams", "--db", url], db: false).status == 0)
        #expect(
            try runner.run(["find", "--acs-trans-id", "acs-1", "--format", "json", "--db", url], db: false).stdout
                == found.stdout)
    }

    @Test func aQueryOnPostgreSQLAppliesTheEventsAppendedSinceTheLastOne() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let all = events.events(atLeast: 120)
        let first = try runner.ndjson("first.ndjson", Array(all.prefix(60)))
        let second = try runner.ndjson("second.ndjson", Array(all.dropFirst(60)))
        let url = try PostgresCLIServer.freshURL(password: Self.secret)
        for file in [first, second] {
            #expect(try runner.run(["import", file, "--db", url], db: false).status == 0)
            #expect(try runner.run(["import", file]).status == 0)
            for query in ["otp", "timeouts"] {
                let onPostgres = try runner.run(["query", query, "--db", url], db: false)
                #expect(onPostgres.status == 0, "\(onPostgres.stderr)")
                #expect(onPostgres.stdout == (try runner.run(["query", query])).stdout)
            }
        }
        let status = try runner.run(["project", "--status", "--db", url], db: false)
        #expect(status.stdout == (try runner.run(["project", "--status"])).stdout)
    }

    @Test func aQueryOnAnUnreachableServerFailsWithoutShowingThePassword() throws {
        let runner = try JournalRunner()
        for command in [["query", "otp"], ["project", "--status"]] {
            let url = "postgresql://app:\(Self.secret)@127.0.0.1:1/journal"
            let result = try runner.run(command + ["--db", url], db: false)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: "))
            #expect(result.stderr.contains("app:***@127.0.0.1:1"))
            expectNoSecret(result)
        }
    }
}
