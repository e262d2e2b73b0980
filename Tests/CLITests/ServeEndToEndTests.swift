import Foundation
import JournalTestSupport
import Testing

/// `journal serve` (spec §8) through the built executable on a free loopback port.
@Suite("journal serve (end to end)", .serialized)
struct ServeEndToEndTests {
    /// A `3ds` transaction's first two events as NDJSON lines, with ids and stream from `n`.
    static func transactionStart(_ n: Int) -> [String] {
        let stream = "3ds-" + LegalEvents.uuid(n, prefix: "3d5a0000")
        return [
            #"""
            {"id":"\#(LegalEvents.uuid(n, prefix: "e1000000"))","stream":"\#(stream)","type":"TransactionCreated",\#
            "occurredAt":"2026-12-03T10:00:00.000Z","data":{"directoryServerID":"A000000003",\#
            "messageVersion":"2.2.0"}}
            """#,
            #"""
            {"id":"\#(LegalEvents.uuid(n, prefix: "e2000000"))","stream":"\#(stream)",\#
            "type":"AuthRequestParametersCreated","occurredAt":"2026-12-03T10:40:00.500Z",\#
            "data":{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":2048}}
            """#
        ]
    }

    static func ids(_ reply: RawHTTP.Reply) -> [String] {
        reply.lines.compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["id"] as? String
        }
    }

    // MARK: - Starting and stopping

    @Test("serve prints its address, answers healthz, and exits 0 on SIGTERM")
    func listensAndStops() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.body == "ok\n")
        #expect(server.stop(SIGTERM) == 0)
    }

    @Test("SIGINT lets a long-poll in flight finish with an answer, then exits 0")
    func stopFinishesRequestsInFlight() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        nonisolated(unsafe) var reply: RawHTTP.Reply?
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        DispatchQueue.global().async {
            reply = try? RawHTTP.request(port: port, "GET", "/v1/events?wait=30")
            done.signal()
        }
        try server.waitUntilInFlight(1)
        #expect(server.stop(SIGINT) == 0)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(reply?.status == 200)
        #expect(reply?.body == "")
    }

    @Test("a non-loopback --listen without --tokens is a usage error (exit 2)")
    func refusesToExposeWithoutTokens() throws {
        let runner = try JournalRunner()
        let result = try runner.run(["serve", "--listen", "0.0.0.0:0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("without --tokens"))
        #expect(!runner.exists("journal.db"))
        #expect(try runner.run(["serve", "--listen", "nowhere"]).status == 2)
    }

    // MARK: - Appending

    @Test("POST /v1/events appends all or nothing and answers counts and positions")
    func appendAnswersCountsAndPositions() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        var events = LegalEvents()
        let lines = events.challenged(1) + events.green(2)
        let first = try server.append(lines)
        #expect(first.status == 200)
        #expect(first.body == #"{"appended":13,"duplicates":0,"firstPosition":1,"lastPosition":13}"# + "\n")
        let again = try server.append(lines)
        #expect(again.body == #"{"appended":0,"duplicates":13,"firstPosition":null,"lastPosition":null}"# + "\n")
        #expect(try runner.exportedObjects().count == 13)
        #expect(try runner.run(["verify"]).status == 0)
    }

    @Test("an invalid line is a 422 naming every bad line, masked, and nothing is written")
    func invalidLinesAre422AndWriteNothing() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        var events = LegalEvents()
        var lines = events.frictionless(1)
        lines[3] = lines[3].replacingOccurrences(of: #""data":{}"#, with: #""data":{"note":"4111111111111111"}"#)
        lines.append("not json 4111 1111 1111 1111")
        let reply = try server.append(lines)
        #expect(reply.status == 422)
        let errors = try #require(reply.json?["errors"] as? [[String: Any]])
        #expect(errors.map { $0["line"] as? Int } == [4, 5])
        #expect(errors[0]["stream"] as? String == "3ds-" + LegalEvents.uuid(1, prefix: "3d500000"))
        #expect(errors[0]["type"] as? String == "TransactionClosed")
        #expect(errors.allSatisfy { $0["reason"] is String })
        #expect(!reply.body.contains("4111"))
        #expect(try runner.exportedObjects().isEmpty)
    }

    @Test("a body that is not application/x-ndjson is a 415")
    func wrongContentTypeIs415() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        var events = LegalEvents()
        let reply = try server.request(
            "POST", "/v1/events", headers: ["Content-Type": "application/json"],
            body: events.frictionless(1).joined(separator: "\n"))
        #expect(reply.status == 415)
        #expect(reply.json?["error"] is String)
    }

    @Test("a body over --max-body is a 413, by its Content-Length or as it arrives, and writes nothing")
    func oversizedBodyIs413() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner, ["--max-body", "1000"])
        var events = LegalEvents()
        let reply = try server.append(events.challenged(1))
        #expect(reply.status == 413)
        #expect((reply.json?["error"] as? String)?.contains("1000 bytes") == true)
        // Chunked: no Content-Length, so the limit is found while the body arrives.
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 10)
        defer { close(fd) }
        let chunk = String(repeating: "x", count: 4000)
        _ = RawHTTP.send(
            fd,
            Array(
                ("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + String(4000, radix: 16) + "\r\n" + chunk + "\r\n").utf8))
        let answer = RawHTTP.receiveAll(fd)
        // The library cannot answer in the middle of an upload: a 413 or a closed connection.
        #expect(answer.isEmpty || RawHTTP.parse(answer)?.status == 413)
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try runner.exportedObjects().isEmpty)
    }

    @Test("a body that takes longer than --request-timeout is cut off, logged 408, and writes nothing")
    func slowUploadIsCutOff() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner, ["--request-timeout", "1"])
        let body = Array((Self.transactionStart(1).joined(separator: "\n") + "\n").utf8)
        let fd = try RawHTTP.connect(port: server.port, timeoutSeconds: 10)
        defer { close(fd) }
        _ = RawHTTP.send(
            fd,
            Array(
                ("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Length: \(body.count)\r\n\r\n").utf8))
        var sent = 0
        let started = Date()
        // A byte every 0.2 s: never silent, and 1 s is over long before the body is complete.
        while sent < body.count - 1 && Date().timeIntervalSince(started) < 8 && RawHTTP.send(fd, [body[sent]]) {
            sent += 1
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(sent < body.count - 1)
        let answer = RawHTTP.receiveAll(fd)
        #expect(answer.isEmpty || RawHTTP.parse(answer)?.status == 408)
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(server.stop() == 0)
        #expect(server.log.contains(#""status":408"#))
        #expect(try runner.exportedObjects().isEmpty)
    }

    @Test("Journal-Expected-Version: 409 when the stream is elsewhere, 400 for several streams, -1 = new")
    func expectedVersion() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        let start = Self.transactionStart(1)
        let notYet = try server.append(start, headers: ["Journal-Expected-Version": "0"])
        #expect(notYet.status == 409)
        #expect((notYet.json?["error"] as? String)?.contains("version -1") == true)
        #expect(try server.append(start, headers: ["Journal-Expected-Version": "-1"]).status == 200)
        // The same request again is a retry: all duplicates, accepted although the stream moved on.
        let retry = try server.append(start, headers: ["Journal-Expected-Version": "-1"])
        #expect(retry.status == 200)
        #expect(retry.json?["duplicates"] as? Int == 2)
        let twoStreams = try server.append(
            [start[0], Self.transactionStart(2)[0]], headers: ["Journal-Expected-Version": "-1"])
        #expect(twoStreams.status == 400)
        #expect(try server.append(Self.transactionStart(3), headers: ["Journal-Expected-Version": "x"]).status == 400)
        #expect(try runner.exportedObjects().count == 2)
    }

    // MARK: - Reading

    @Test("GET /v1/streams/{stream} gives the export lines; 404 for no such stream")
    func streamRoute() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        #expect(try runner.importLegal(events.challenged(1) + events.green(2)).status == 0)
        let server = try ServeProcess(runner)
        let stream = LegalEvents.cardStream(2)
        let reply = try server.request("GET", "/v1/streams/\(stream)")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/x-ndjson")
        #expect(reply.body == (try runner.run(["export", "--stream", stream])).stdout)
        #expect(try server.request("GET", "/v1/streams/card-" + LegalEvents.uuid(99)).status == 404)
        #expect(try server.request("GET", "/v1/streams/nonsense").status == 400)
    }

    @Test("GET /v1/events pages the log by from and limit; bad parameters are 400")
    func eventsRoute() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        #expect(try runner.importLegal(events.challenged(1) + events.green(2)).status == 0)
        let server = try ServeProcess(runner)
        let all = try server.request("GET", "/v1/events")
        #expect(all.body == (try runner.run(["export"])).stdout)
        let page = try server.request("GET", "/v1/events?from=3&limit=2")
        #expect(page.lines.count == 2)
        #expect(page.lines.first?.contains(#""position":3"#) == true)
        #expect(try server.request("GET", "/v1/events?from=100").body == "")
        for bad in ["from=0", "from=x", "limit=0", "limit=10001", "wait=-1", "colour=red", "from"] {
            let reply = try server.request("GET", "/v1/events?\(bad)")
            #expect(reply.status == 400, "\(bad)")
            #expect(reply.json?["error"] is String)
        }
    }

    @Test("a long-poll gets an event appended while it waits, before its wait ends")
    func longPollWakesOnCommit() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        #expect(try server.append(Self.transactionStart(1)).status == 200)
        nonisolated(unsafe) var reply: RawHTTP.Reply?
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        DispatchQueue.global().async {
            reply = try? RawHTTP.request(port: port, "GET", "/v1/events?from=3&wait=30")
            done.signal()
        }
        try server.waitUntilInFlight(1)
        #expect(try server.append(Self.transactionStart(2)).status == 200)
        // Arriving at all before the 30 s wait ends means the commit woke it.
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(reply.map(Self.ids) == Self.transactionStart(2).map { String($0.dropFirst(7).prefix(36)) })
    }

    @Test("GET /v1/query/{name} answers what journal query --format json prints; 400 and 404")
    func queryRoute() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        #expect(try runner.importLegal(events.challenged(1) + events.yellowOTP(2)).status == 0)
        let server = try ServeProcess(runner)
        for name in ["otp", "timeouts", "funnel"] {
            let reply = try server.request("GET", "/v1/query/\(name)?since=2026-12-01&until=2026-12-31")
            #expect(reply.status == 200)
            let cli = try runner.run([
                "query", name, "--since", "2026-12-01", "--until", "2026-12-31", "--format", "json"
            ])
            #expect(reply.body == cli.stdout)
        }
        #expect(try server.request("GET", "/v1/query/nosuch").status == 404)
        #expect(try server.request("GET", "/v1/query/otp?since=yesterday").status == 400)
        #expect(try server.request("GET", "/v1/query/otp?since=2026-12-31&until=2026-12-01").status == 400)
        #expect(try server.request("GET", "/v1/query/otp?window=all").status == 400)
    }

    @Test("GET /metrics is Prometheus text with the journal's, the server's and the domain's figures")
    func metricsRoute() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        var events = LegalEvents()
        #expect(try server.append(events.challenged(1)).status == 200)
        _ = try server.request("GET", "/nowhere")
        let reply = try server.request("GET", "/metrics")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        for line in [
            "journal_events_total 9", "journal_head_position 9",
            #"journal_http_requests_total{route="/v1/events",code="200"} 1"#,
            #"journal_http_requests_total{route="unmatched",code="404"} 1"#,
            #"journal_http_append_duration_seconds_bucket{le="+Inf"} 1"#,
            "journal_http_append_duration_seconds_count 1",
            #"journal_3ds_transactions{outcome="completedY"} 1"#,
            #"journal_otp_submissions_total{flow="3ds"} 1"#, "# TYPE journal_http_append_duration_seconds histogram"
        ] {
            #expect(reply.lines.contains(line), "\(line)")
        }
    }

    @Test(
        """
        GET / is the dashboard and links the API; unknown routes 404, wrong methods 405, evidence \
        routes 404 no checkpoint, all JSON
        """
    )
    func indexAndErrors() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        let index = try server.request("GET", "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(index.body.contains("/v1/events") && index.body.contains("/metrics"))
        #expect(index.body.contains("<svg class=\"chart\"") && index.body.contains("id=\"find-form\""))
        // Only the page's own script runs (by its hash), and the page talks to this server only.
        let policy = try #require(index.headers["content-security-policy"])
        #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-") && policy.contains("connect-src 'self'"))
        #expect(try server.request("GET", "/v2/everything").status == 404)
        let wrong = try server.request("DELETE", "/v1/events")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, POST")
        #expect(wrong.json?["error"] is String)
        for path in ["/v1/checkpoint", "/v1/proof/1", "/v1/bundle/3ds-" + LegalEvents.uuid(1)] {
            let reply = try server.request("GET", path)
            #expect(reply.status == 404)
            #expect((reply.json?["error"] as? String)?.hasPrefix("no checkpoint") == true)
        }
    }

    @Test("GET / renders the report of the window it is given, as journal report does")
    func dashboardWindow() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.frictionless(2) + events.yellowOTP(3))
        let server = try ServeProcess(runner)
        let window = "since=2026-12-03T10:00:00.000Z&until=2026-12-03T10:01:00.000Z"
        let page = try server.request("GET", "/?" + window)
        #expect(page.status == 200, "\(page.body)")
        #expect(page.body.contains("2026-12-03T10:00:00.000Z to 2026-12-03T10:01:00.000Z (excluded)"))
        let rates = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try server.request("GET", "/v1/query/rates?" + window).body.utf8))
                as? [String: Any])
        let responses = try #require((rates["threeDS"] as? [String: Any])?["responses"] as? Int)
        #expect(responses == 2)
        #expect(page.body.contains(#"data-metric="rates.threeDS.responses" data-value="\#(responses)""#))
        // The same numbers as the file journal report writes (the page adds its forms and script).
        let file = try runner.run([
            "report", "--out", runner.path("r.html"), "--since", "2026-12-03T10:00:00.000Z",
            "--until", "2026-12-03T10:01:00.000Z"
        ])
        #expect(file.status == 0)
        #expect(
            ReportEndToEndTests.metrics(page.body).map { "\($0.metric)=\($0.value)" }
                == ReportEndToEndTests.metrics(try runner.read("r.html")).map { "\($0.metric)=\($0.value)" })
        #expect(try server.request("GET", "/?since=yesterday").status == 400)
        #expect(try server.request("GET", "/?since=2026-12-04&until=2026-12-03").status == 400)
        #expect(try server.request("GET", "/?colour=blue").status == 400)
    }

    @Test("GET /v1/find answers journal find --format json, and refuses what the command refuses")
    func findRoute() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.frictionless(2) + events.yellowOTP(3))
        let server = try ServeProcess(runner)
        for (path, arguments) in [
            ("/v1/find", [String]()), ("/v1/find?category=3ds&limit=1", ["--category", "3ds", "--limit", "1"]),
            ("/v1/find?outcome=completedY", ["--outcome", "completedY"])
        ] {
            let reply = try server.request("GET", path)
            #expect(reply.status == 200, "\(path): \(reply.body)")
            #expect(reply.headers["content-type"] == "application/json")
            #expect(reply.body == (try runner.run(["find", "--format", "json"] + arguments)).stdout, "\(path)")
        }
        for path in [
            "/v1/find?outcome=nope", "/v1/find?limit=0", "/v1/find?category=tea", "/v1/find?since=soon",
            "/v1/find?frobnicate=1"
        ] {
            let reply = try server.request("GET", path)
            #expect(reply.status == 400, "\(path)")
            #expect(reply.json?["error"] is String, "\(path)")
        }
        #expect(try server.request("POST", "/v1/find").status == 405)
    }

    @Test("GET /v1/query takes every= as journal query --every does, and refuses another width")
    func queryBuckets() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.frictionless(2))
        let server = try ServeProcess(runner)
        let reply = try server.request("GET", "/v1/query/rates?every=1h")
        #expect(reply.status == 200, "\(reply.body)")
        #expect(reply.body == (try runner.run(["query", "rates", "--every", "1h", "--format", "json"])).stdout)
        #expect(reply.json?["buckets"] is [Any])
        #expect(try server.request("GET", "/v1/query/rates?every=7m").status == 400)
    }

    @Test("the evidence routes serve the latest checkpoint, a proof and a bundle that journal check accepts")
    func evidenceRoutes() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        try runner.importLegal(events.challenged(1) + events.frictionless(2))
        let key = runner.path("j.key")
        let verifier = try runner.run(["keygen", "j.example/log", "--out", key], db: false).stdout
            .trimmingCharacters(in: .newlines)
        let note = try runner.run(["checkpoint", "--key", key]).stdout
        let server = try ServeProcess(runner)
        let checkpoint = try server.request("GET", "/v1/checkpoint")
        #expect(checkpoint.status == 200)
        #expect(checkpoint.body == note)
        let proof = try server.request("GET", "/v1/proof/2")
        #expect(proof.status == 200)
        #expect(proof.body == (try runner.run(["prove", "2"])).stdout)
        #expect(try server.request("GET", "/v1/proof/999").status == 404)
        #expect(try server.request("GET", "/v1/proof/zero").status == 400)
        let stream = LegalEvents.threeDSStream(1)
        let bundle = try server.request("GET", "/v1/bundle/" + stream)
        #expect(bundle.status == 200, "\(bundle.body)")
        let file = try runner.write("served.json", bundle.body)
        #expect(try runner.run(["check", file, "--key", verifier], db: false).status == 0)
        #expect(try server.request("GET", "/v1/bundle/" + LegalEvents.threeDSStream(77)).status == 404)
    }

    // MARK: - Access

    @Test("tokens: 401 without a known token, 403 for the wrong role, healthz open; only hashes on disk")
    func tokens() throws {
        let runner = try JournalRunner()
        let file = runner.path("tokens.txt")
        func token(_ role: String, _ name: String) throws -> String {
            let result = try runner.run(["token", role, name, "--tokens", file], db: false)
            #expect(result.status == 0)
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        let reader = try token("read", "dashboard")
        let appender = try token("append", "collector")
        let admin = try token("admin", "ops")
        #expect(reader.count == 64 && reader != appender)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let stored = try runner.read("tokens.txt")
        #expect(!stored.contains(reader) && !stored.contains(appender) && stored.contains("read dashboard sha256:"))
        #expect(try runner.run(["token", "root", "x", "--tokens", file], db: false).status == 2)

        let server = try ServeProcess(runner, ["--tokens", file])
        func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.request("GET", "/v1/events").status == 401)
        // The dashboard: a program gets the JSON 401; a browser the page that asks for the token
        // (still 401, with no number of the journal in it); with the token, the dashboard.
        let plain = try server.request("GET", "/")
        #expect(plain.status == 401 && plain.json?["error"] is String)
        let shell = try server.request("GET", "/", headers: ["Accept": "text/html,application/xhtml+xml"])
        #expect(shell.status == 401)
        #expect(shell.headers["www-authenticate"] == "Bearer")
        #expect(shell.body.contains("id=\"token-form\"") && !shell.body.contains("data-metric"))
        let dashboard = try server.request("GET", "/", headers: bearer(reader).merging(["Accept": "text/html"]) { $1 })
        #expect(dashboard.status == 200 && dashboard.body.contains("data-metric=\"rates.threeDS.authenticationRate\""))
        #expect(try server.request("GET", "/v1/find", headers: bearer(reader)).status == 200)
        #expect(try server.request("GET", "/v1/find").status == 401)
        #expect(try server.request("GET", "/v1/events", headers: bearer(String(reader.reversed()))).status == 401)
        #expect(try server.request("GET", "/v1/events", headers: bearer(reader)).status == 200)
        #expect(try server.request("GET", "/v1/events", headers: bearer(appender)).status == 403)
        #expect(try server.append(Self.transactionStart(1), headers: bearer(reader)).status == 403)
        #expect(try server.append(Self.transactionStart(1), headers: bearer(appender)).status == 200)
        #expect(try server.append(Self.transactionStart(2), headers: bearer(admin)).status == 200)
        #expect(try server.request("GET", "/metrics", headers: bearer(admin)).status == 200)
        #expect(try server.request("GET", "/metrics", headers: ["Authorization": "bearer \(admin)"]).status == 200)
        #expect(server.stop() == 0)
        let log = server.log
        #expect(!log.contains(reader) && !log.contains(appender) && !log.contains(admin))
        #expect(!log.contains("deviceDataBytes"))
        let entries = log.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(entries.count == 15)
        #expect(
            entries.contains {
                $0["token"] as? String == "collector" && $0["status"] as? Int == 200
                    && $0["route"] as? String == "/v1/events" && $0["method"] as? String == "POST"
            })
        #expect(entries.allSatisfy { $0["time"] is String && $0["durationMs"] is NSNumber && $0["bytes"] is Int })
    }

    // MARK: - Crashes and hostile clients

    @Test("acknowledged means durable: 16 appenders, SIGKILL at a random moment, 3 times")
    func acknowledgedAppendsSurviveSIGKILL() throws {
        let runner = try JournalRunner()
        var acknowledged: Set<String> = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3 {
            let server = try ServeProcess(runner)
            let port = server.port
            let lock = NSLock()
            nonisolated(unsafe) var acked: [String] = []
            nonisolated(unsafe) var unanswered: [[String]] = []
            let clients = DispatchGroup()
            for client in 0..<16 {
                clients.enter()
                Thread.detachNewThread {
                    defer { clients.leave() }
                    for k in 0..<10_000 {
                        let lines = Self.transactionStart(round * 1_000_000 + client * 10_000 + k)
                        let body = Array((lines.joined(separator: "\n") + "\n").utf8)
                        guard
                            let reply = try? RawHTTP.request(
                                port: port, "POST", "/v1/events",
                                headers: ["Content-Type": "application/x-ndjson"],
                                body: body, timeoutSeconds: 10),
                            reply.status == 200
                        else {
                            lock.withLock { unanswered.append(lines) }
                            return
                        }
                        lock.withLock { acked += lines.map { String($0.dropFirst(7).prefix(36)) } }
                    }
                }
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0.5...1.5, using: &generator))
            server.stop(SIGKILL)
            #expect(clients.wait(timeout: .now() + 30) == .success)
            acknowledged.formUnion(acked)
            #expect(!acked.isEmpty)

            let restarted = try ServeProcess(runner)
            // A retry of a request that got no answer: appended or duplicates, never both.
            for lines in unanswered {
                let retry = try restarted.append(lines)
                #expect(retry.status == 200)
                let appended = retry.json?["appended"] as? Int ?? -1
                let duplicates = retry.json?["duplicates"] as? Int ?? -1
                #expect((appended == 2 && duplicates == 0) || (appended == 0 && duplicates == 2))
            }
            restarted.stop()
            let stored = Set(try runner.exportedObjects().compactMap { $0["id"] as? String })
            #expect(acknowledged.isSubset(of: stored))
            #expect(stored.count % 2 == 0) // whole requests only
            #expect(try runner.run(["verify"]).status == 0)
        }
    }

    @Test("hostile clients are answered or dropped within the limits, others are served, nothing is written")
    func hostileClients() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        let port = server.port

        // A malformed request line.
        let garbage = try RawHTTP.connect(port: port, timeoutSeconds: 10)
        _ = RawHTTP.send(garbage, Array("THIS IS NOT HTTP\r\n\r\n".utf8))
        let garbageReply = RawHTTP.receiveAll(garbage)
        close(garbage)
        #expect(RawHTTP.parse(garbageReply)?.status == 400)

        // A header line without a colon.
        let headerless = try RawHTTP.connect(port: port, timeoutSeconds: 10)
        _ = RawHTTP.send(headerless, Array("GET /healthz HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n".utf8))
        let headerlessReply = RawHTTP.receiveAll(headerless)
        close(headerless)
        #expect(RawHTTP.parse(headerlessReply)?.status == 400)

        // 1 GB announced, nothing sent.
        let liar = try RawHTTP.connect(port: port, timeoutSeconds: 10)
        _ = RawHTTP.send(
            liar,
            Array(
                ("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Length: 1073741824\r\n\r\n").utf8))
        #expect(RawHTTP.parse(RawHTTP.receiveAll(liar))?.status == 413)
        close(liar)

        // A body that stops halfway, then the client goes away.
        let body = Array((Self.transactionStart(1).joined(separator: "\n") + "\n").utf8)
        let quitter = try RawHTTP.connect(port: port, timeoutSeconds: 10)
        _ = RawHTTP.send(
            quitter,
            Array(
                ("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Length: \(body.count)\r\n\r\n").utf8) + body.prefix(body.count / 2))
        Thread.sleep(forTimeInterval: 0.2)
        close(quitter)

        // Oversized headers.
        let headers = try RawHTTP.connect(port: port, timeoutSeconds: 10)
        _ = RawHTTP.send(
            headers,
            Array(
                ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 100_000)
                    + "\r\n\r\n").utf8))
        let headersReply = RawHTTP.receiveAll(headers)
        close(headers)
        #expect(RawHTTP.parse(headersReply)?.status == 431)

        // Invalid UTF-8, deep nesting and a huge line: 422, nothing written.
        var invalid = Array(Self.transactionStart(2)[0].utf8)
        invalid.insert(0xFF, at: invalid.count - 3)
        let invalidReply = try RawHTTP.request(
            port: port, "POST", "/v1/events",
            headers: ["Content-Type": "application/x-ndjson"], body: invalid + [0x0A])
        #expect(invalidReply.status == 422)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(try server.append([deep]).status == 422)
        let huge = #"{"id":""# + String(repeating: "9", count: 2_000_000) + #""}"#
        #expect(try server.append([huge]).status == 422)

        // 200 idle connections and one client sending a byte a second; others are still served.
        var idle: [Int32] = []
        for _ in 0..<200 { idle.append(try RawHTTP.connect(port: port, timeoutSeconds: 10)) }
        let slow = try RawHTTP.connect(port: port, timeoutSeconds: 10)
        let slowDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for byte in "POST /v1/events HTTP/1.1\r\n".utf8.prefix(4) {
                _ = RawHTTP.send(slow, [byte])
                Thread.sleep(forTimeInterval: 1)
            }
            slowDone.signal()
        }
        for _ in 0..<5 {
            #expect(try server.request("GET", "/healthz", timeoutSeconds: 5).status == 200)
            #expect(try server.request("GET", "/v1/events", timeoutSeconds: 5).status == 200)
            Thread.sleep(forTimeInterval: 0.5)
        }
        slowDone.wait()
        close(slow)
        for fd in idle { close(fd) }

        #expect(try server.request("GET", "/v1/events").body == "")
        #expect(server.stop() == 0)
        #expect(try runner.exportedObjects().isEmpty)
        #expect(try runner.run(["verify"]).status == 0)
    }
}

// In the serialized suite: the private PostgreSQL server starts at its first use and inherits
// whatever descriptors the test process has open then (PostgresScratchServer spawns it without
// closing them), so a pipe of another test's `journal` running at that moment would never see
// its end.
extension ServeEndToEndTests {
    @Test(
        "on a postgres:// journal: append, read, long-poll, query and metrics, without showing the password",
        .enabled(if: !PostgresCLIServer.skipped, Comment(rawValue: PostgresCLIServer.skipReason)))
    func servesAPostgresJournal() throws {
        let runner = try JournalRunner()
        let url = try PostgresCLIServer.freshURL(password: "s3cret-pw")
        let server = try ServeProcess(runner, db: url)
        var events = LegalEvents()
        let appended = try server.append(events.challenged(1))
        #expect(appended.status == 200)
        #expect(appended.json?["appended"] as? Int == 9)
        let rejected = try server.append([#"{"id":"nope"}"#])
        #expect(rejected.status == 422)
        nonisolated(unsafe) var reply: RawHTTP.Reply?
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        let from = (appended.json?["lastPosition"] as? Int ?? 0) + 1
        DispatchQueue.global().async {
            reply = try? RawHTTP.request(port: port, "GET", "/v1/events?from=\(from)&wait=30")
            done.signal()
        }
        try server.waitUntilInFlight(1)
        #expect(try server.append(ServeEndToEndTests.transactionStart(7)).status == 200)
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(reply.map(ServeEndToEndTests.ids)?.count == 2)
        let stream = try server.request("GET", "/v1/streams/" + LegalEvents.threeDSStream(1))
        #expect(stream.lines.count == 9)
        let query = try server.request("GET", "/v1/query/otp")
        #expect(query.body == (try runner.run(["query", "otp", "--format", "json", "--db", url], db: false)).stdout)
        let metrics = try server.request("GET", "/metrics")
        #expect(metrics.lines.contains("journal_events_total 11"))
        #expect(server.stop() == 0)
        #expect(!server.log.contains("s3cret-pw"))
        #expect(try runner.run(["verify", "--db", url], db: false).status == 0)
    }
}

extension ServeEndToEndTests {
    @Test("concurrent requests share commits yet each stays all or nothing: refused ones leave no event")
    func concurrentRequestsStayAllOrNothing() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        let port = server.port
        let lock = NSLock()
        nonisolated(unsafe) var statuses: [Int: Int] = [:]
        DispatchQueue.concurrentPerform(iterations: 16) { client in
            for k in 0..<12 {
                let n = client * 100 + k
                var lines = Self.transactionStart(n)
                if k % 3 == 2 { lines[1] = lines[1].replacingOccurrences(of: "2048", with: "\"many\"") }
                let reply = try? RawHTTP.request(
                    port: port, "POST", "/v1/events",
                    headers: ["Content-Type": "application/x-ndjson"],
                    body: Array((lines.joined(separator: "\n") + "\n").utf8))
                lock.withLock { statuses[n] = reply?.status ?? 0 }
            }
        }
        #expect(statuses.count == 192)
        #expect(statuses.values.filter { $0 == 422 }.count == 64)
        #expect(statuses.values.filter { $0 == 200 }.count == 128)
        let stored = Set(try runner.exportedObjects().compactMap { $0["id"] as? String })
        let expected = Set(
            statuses.filter { $0.value == 200 }.keys.flatMap { n in
                Self.transactionStart(n).map { String($0.dropFirst(7).prefix(36)) }
            })
        #expect(stored == expected)
        #expect(try runner.run(["verify"]).status == 0)
    }
}

extension ServeEndToEndTests {
    @Test(
        """
        a request with an unreadable line among concurrent appends still names its journal-rule \
        errors and leaves the others' events
        """
    )
    func earlyRefusedRequestsAreStillJudgedAgainstTheJournal() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        let port = server.port
        let lock = NSLock()
        nonisolated(unsafe) var replies: [Int: RawHTTP.Reply] = [:]
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            for k in 0..<6 {
                let n = client * 100 + k
                var lines = Self.transactionStart(n)
                if k % 2 == 1 {
                    // Line 2 breaks a rule only the stream's state can tell; line 3 is not JSON.
                    lines[1] = lines[1].replacingOccurrences(of: "2048", with: "\"many\"")
                    lines.append("{not json")
                }
                let reply = try? RawHTTP.request(
                    port: port, "POST", "/v1/events",
                    headers: ["Content-Type": "application/x-ndjson"],
                    body: Array((lines.joined(separator: "\n") + "\n").utf8))
                lock.withLock { replies[n] = reply }
            }
        }
        #expect(replies.count == 48)
        for (n, reply) in replies {
            if n % 2 == 1 {
                #expect(reply.status == 422)
                let errors = reply.json?["errors"] as? [[String: Any]] ?? []
                #expect(errors.map { $0["line"] as? Int } == [2, 3], "\(n)")
            } else {
                #expect(reply.status == 200)
            }
        }
        let stored = Set(try runner.exportedObjects().compactMap { $0["id"] as? String })
        let expected = Set(
            replies.keys.filter { $0 % 2 == 0 }.flatMap { n in
                Self.transactionStart(n).map { String($0.dropFirst(7).prefix(36)) }
            })
        #expect(stored == expected)
        #expect(try runner.run(["verify"]).status == 0)
    }

    @Test("idle connections hold no thread of the server")
    func idleConnectionsHoldNoThread() throws {
        let runner = try JournalRunner()
        let server = try ServeProcess(runner)
        var idle: [Int32] = []
        for _ in 0..<100 { idle.append(try RawHTTP.connect(port: server.port, timeoutSeconds: 10)) }
        defer { for fd in idle { close(fd) } }
        #expect(try server.request("GET", "/healthz").status == 200)
        let threads = try FileManager.default.contentsOfDirectory(
            atPath: "/proc/\(server.process.processIdentifier)/task")
        #expect(threads.count < 20, "\(threads.count) threads with 100 idle connections")
        #expect(server.stop() == 0)
    }
}
