import EventStore
import Foundation
import Testing

/// `journal serve`'s replay route and what the dashboard states about the log it shows, through
/// the built executable on a free loopback port. (The page's script runs in BrowserTests.)
@Suite("journal serve: the replay route and the dashboard's as-of (end to end)", .serialized)
struct DashboardEndToEndTests {
    static let broken = LegalEvents.threeDSStream(7)

    /// Legal streams, then through the library (which applies no domain rule) a stream that
    /// folds one event and then fails.
    func journal() throws -> JournalRunner {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.yellowOTP(2))
        let store = try SQLiteEventStore(path: runner.database)
        try store.append([
            StreamAppend(
                stream: try StreamName(Self.broken), expectedVersion: .noStream,
                events: [
                    LegalEvents.unchecked(
                        1, "TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#),
                    LegalEvents.unchecked(2, "TransactionCreated", #"{"directoryServerID":"A000000003"}"#)
                ])
        ])
        return runner
    }

    @Test("GET /v1/replay/{stream} answers exactly what journal replay STREAM --format json prints")
    func replayRoute() throws {
        let runner = try journal()
        let server = try ServeProcess(runner)
        for stream in [LegalEvents.threeDSStream(1), LegalEvents.cardStream(2)] {
            let command = try runner.run(["replay", stream, "--format", "json"])
            #expect(command.status == 0, "\(command.stderr)")
            let reply = try server.request("GET", "/v1/replay/" + stream)
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.headers["content-type"] == "application/json")
            #expect(reply.body == command.stdout)
            let steps = try #require(reply.json?["steps"] as? [[String: Any]])
            #expect(steps.count == (stream.hasPrefix("3ds") ? 9 : 8))
            #expect(steps.allSatisfy { $0["state"] is [String: Any] })
        }
        // A stream that no longer folds: the command exits 6 with its JSON; the route answers it, 200.
        let command = try runner.run(["replay", Self.broken, "--format", "json"])
        #expect(command.status == 6)
        let reply = try server.request("GET", "/v1/replay/" + Self.broken)
        #expect(reply.status == 200)
        #expect(reply.body == command.stdout)
        #expect(reply.json?["ok"] as? Bool == false)
        #expect(reply.json?["failedAtVersion"] as? Int == 1)
    }

    @Test("GET /v1/replay: 404 for no such stream, 400 for a bad name or a parameter, 405 for POST, all JSON")
    func replayRouteErrors() throws {
        let runner = try journal()
        let server = try ServeProcess(runner)
        let missing = try server.request("GET", "/v1/replay/" + LegalEvents.threeDSStream(99))
        #expect(missing.status == 404)
        #expect((missing.json?["error"] as? String)?.hasPrefix("no stream 3ds-") == true)
        let bad = try server.request("GET", "/v1/replay/nonsense")
        #expect(bad.status == 400)
        #expect((bad.json?["error"] as? String)?.contains("is not a stream name") == true)
        let parameter = try server.request("GET", "/v1/replay/" + LegalEvents.threeDSStream(1) + "?until=3")
        #expect(parameter.status == 400)
        #expect(parameter.json?["error"] is String)
        let post = try server.request(
            "POST", "/v1/replay/" + LegalEvents.threeDSStream(1), headers: ["Content-Type": "application/json"],
            body: "{}")
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET")
        #expect(try server.request("GET", "/metrics").body.contains(#"route="/v1/replay/{stream}",code="404""#))
    }

    @Test("the dashboard states the head, its time, the checkpoint and its signer, and links the replay route")
    func dashboardAsOf() throws {
        let runner = try journal()
        #expect(try runner.run(["keygen", "dash.example/journal", "--out", runner.path("k")]).status == 0)
        #expect(try runner.run(["checkpoint", "--key", runner.path("k")]).status == 0)
        let server = try ServeProcess(runner)
        let page = try server.request("GET", "/")
        #expect(page.status == 200, "\(page.body)")
        let head = try #require(try runner.exportedObjects().last)
        let asOf = try #require(ReportAsOfEndToEndTests.element(page.body, id: "as-of"))
        #expect(asOf.contains(#"data-head="19""#))
        #expect(asOf.contains(#"data-recorded-at="\#(try #require(head["recordedAt"] as? String))""#))
        let checkpoint = try #require(ReportAsOfEndToEndTests.element(page.body, id: "checkpoint"))
        #expect(checkpoint.contains(#"data-size="19""#) && checkpoint.contains("signed by dash.example/journal"))
        #expect(page.body.contains(#"id="checkpoint-signature""#))
        #expect(page.body.contains(#"id="verifier-key""#))
        #expect(page.body.contains("<code>GET /v1/replay/{stream}</code>"))
        #expect(page.body.contains(#"<th scope="col">state after</th>"#))
        #expect(page.body.contains(#"<th scope="col">data</th>"#))
        // The page's one script checks the signature with WebCrypto's Ed25519 and asks the replay route.
        #expect(page.body.contains("crypto.subtle.verify({ name: 'Ed25519' }"))
        #expect(page.body.contains("'/v1/replay/' + encodeURIComponent(name)"))
    }

    @Test("the dashboard of a log whose head event was changed is an error naming its position")
    func dashboardOfAChangedHead() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.green(2))
        try runner.tamper(replacing: "dc-2", with: "dc-9")
        let server = try ServeProcess(runner)
        let page = try server.request("GET", "/")
        #expect(page.status >= 400)
        #expect((page.json?["error"] as? String)?.contains("position 13") == true, "\(page.body)")
    }
}

// In the serialized suite: the private PostgreSQL server starts at its first use and inherits
// whatever descriptors the test process has open then (see ServeEndToEndTests).
extension DashboardEndToEndTests {
    @Test(
        "on a postgres:// journal: the report's as-of lines and the replay route answer as on SQLite",
        .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
    func sameOnPostgres() throws {
        let runner = try JournalRunner()
        let simulated = try runner.run(["simulate", "--seed", "3", "--transactions", "20", "--digitizations", "10"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let url = try PostgresCLIServer.freshURL(password: "s3cret-pw")
        let copy = try runner.run(["copy", "--from", runner.database, "--to", url], db: false)
        #expect(copy.status == 0, "\(copy.stderr)")
        let report = ["report", "--out", runner.path("pg.html"), "--db", url]
        #expect(try runner.run(report, db: false).status == 0)
        #expect(try runner.run(["report", "--out", runner.path("sqlite.html")]).status == 0)
        #expect(try runner.read("pg.html") == (try runner.read("sqlite.html")))
        // Signed on PostgreSQL (a copy keeps no checkpoint): the checkpoint line names it.
        #expect(try runner.run(["keygen", "pg.example/journal", "--out", runner.path("k")]).status == 0)
        #expect(try runner.run(["checkpoint", "--key", runner.path("k"), "--db", url], db: false).status == 0)
        #expect(try runner.run(report, db: false).status == 0)
        let html = try runner.read("pg.html")
        #expect(try #require(ReportAsOfEndToEndTests.element(html, id: "simulated")).contains(#"data-simulated="all""#))
        let checkpoint = try #require(ReportAsOfEndToEndTests.element(html, id: "checkpoint"))
        #expect(checkpoint.contains("signed by pg.example/journal"), "\(checkpoint)")
        #expect(try #require(ReportAsOfEndToEndTests.element(html, id: "integrity")).contains("tree of the latest"))

        let stream = try #require(try runner.exportedObjects().first?["stream"] as? String)
        let server = try ServeProcess(runner, db: url)
        let reply = try server.request("GET", "/v1/replay/" + stream)
        #expect(reply.status == 200)
        #expect(reply.body == (try runner.run(["replay", stream, "--format", "json"])).stdout)
        let page = try server.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.body.contains(try #require(ReportAsOfEndToEndTests.element(html, id: "as-of"))))
        #expect(server.stop() == 0)
        #expect(!server.log.contains("s3cret-pw"))
    }
}
