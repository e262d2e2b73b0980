import EventStore
import JournalApp
import JournalCore
import JournalReport
import Projections
import Synchronization

/// The HTTP API of spec §8 over one store opened for writing. Called on the server's event
/// loops, which must not wait: appends go to the writer thread, which shares transactions among
/// concurrent requests (`AppendBatcher`); reads go to a few worker threads (`readers`), queries
/// to one read-model engine behind a lock; long-polls that find nothing wait in `LongPolls`.
package final class JournalAPI: StoppableHTTPHandler, Sendable {
    let store: any TransactionalEventStore
    let tokens: TokenFile?
    package let maxBodyBytes: Int
    let metrics = ServeMetrics()
    private let batcher: AppendBatcher
    private let readers: WorkQueue
    private let longPolls: LongPolls
    private let projections: ProjectionAccess
    private let accessLog: AccessLog
    /// `GET /v1/find`'s parameters as `--name value` arguments to the filter and limit they ask
    /// for, checked as `journal find` checks its options (the command line gives it).
    private let findRequest: FindRequest
    /// Set on SIGTERM/SIGINT: long-polls answer at once.
    let stopping = Atomic<Bool>(false)
    /// Requests between their headers and the end of their exchange.
    let inFlight = Atomic<Int>(0)
    package var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// The longest `wait` of `GET /v1/events`, in seconds.
    static let maxWaitSeconds = 60.0
    static let defaultLimit = 1_000
    static let maxLimit = 10_000
    /// Threads answering reads: the store's readers work in parallel, the read models one at a
    /// time, so a slow query leaves a thread for the log and the streams.
    static let readerThreads = 2

    /// What `findRequest` makes of the parameters of `GET /v1/find`.
    package typealias FindRequest = @Sendable ([String]) throws(CLIError) -> (filter: StreamFilter, limit: Int)

    package init(
        store: any TransactionalEventStore, projections: ProjectionAccess, tokens: TokenFile?, maxBodyBytes: Int,
        accessLog: AccessLog, findRequest: @escaping FindRequest
    ) {
        self.store = store
        self.batcher = AppendBatcher(store: store)
        self.readers = WorkQueue(threads: Self.readerThreads)
        self.longPolls = LongPolls(store: store, answer: { Self.exportLines($0) }, failure: { Self.failure($0) })
        self.projections = projections
        self.tokens = tokens
        self.maxBodyBytes = maxBodyBytes
        self.accessLog = accessLog
        self.findRequest = findRequest
    }

    /// SIGTERM/SIGINT: waiting long-polls answer now, new ones at once; appends and reads go on
    /// while the requests in flight drain.
    package func beginStopping() {
        stopping.store(true, ordering: .relaxed)
        longPolls.stop()
    }

    /// After the server stopped: the writer finishes what is queued, the threads end.
    package func finish() {
        batcher.stop()
        readers.stop()
    }

    // MARK: - HTTPHandler

    package func head(_ request: HTTPRequest, reply: HTTPReply) -> HTTPAnswer? {
        inFlight.add(1, ordering: .relaxed)
        let (route, parameter) = APIRoute.match(request.path)
        request.annotations["route"] = route.rawValue
        if route == .healthz && request.method == "GET" {
            return .response(
                HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: Array("ok\n".utf8)))
        }
        if let tokens {
            // The scheme is case-insensitive (RFC 9110); the token is compared exactly.
            guard let header = request.headers["authorization"], header.prefix(7).lowercased() == "bearer ",
                let entry = tokens.entry(forToken: String(header.dropFirst(7)).trimmingWhitespace())
            else {
                // A browser cannot send the header when it opens the page: it gets, still with
                // 401, the dashboard's shell, which asks for the token and sends it from script.
                if route == .index && request.method == "GET" && (request.headers["accept"] ?? "").contains("text/html")
                {
                    var response = HTTPResponse(
                        status: 401, contentType: "text/html; charset=utf-8",
                        body: Array(DashboardPage.locked.utf8))
                    response.headers.append(("WWW-Authenticate", "Bearer"))
                    response.headers.append(("Content-Security-Policy", DashboardPage.contentSecurityPolicy))
                    return .response(response)
                }
                let presented = request.headers["authorization"].map { $0.prefix(7).lowercased() == "bearer " } ?? false
                var response = Self.error(
                    401,
                    presented
                        ? "the bearer token is not known: it is not in the server's tokens file (or was revoked)"
                        : "a bearer token is needed: Authorization: Bearer <token>")
                response.headers.append(("WWW-Authenticate", "Bearer"))
                return .response(response)
            }
            request.annotations["token"] = entry.name
            guard
                route == .unmatched || !route.methods.contains(request.method)
                    || entry.role.allows(method: request.method, route: route)
            else {
                return .response(
                    Self.error(
                        403,
                        "the token '\(entry.name)' (role \(entry.role.rawValue)) may not "
                            + "\(request.method) \(route.rawValue)"))
            }
        }
        guard route != .unmatched else {
            return .response(Self.error(404, "no such route; the API is described at GET /"))
        }
        guard route.methods.contains(request.method) else {
            var response = Self.error(405, "\(route.rawValue) answers \(route.methods.joined(separator: ", ")) only")
            response.headers.append(("Allow", route.methods.joined(separator: ", ")))
            return .response(response)
        }
        if request.method == "POST" { return checkAppend(request).map { .response($0) } }
        // Reads wait for the store or the read models: a worker answers, the event loop goes on.
        let queued = readers.run { [self] in
            if let response = read(route, parameter, request, reply: reply) { reply.send(response) }
        }
        return queued ? .later : .response(Self.stoppingAnswer)
    }

    /// A GET of `route`; nil when a long-poll took `reply` to answer later.
    private func read(_ route: APIRoute, _ parameter: String?, _ request: HTTPRequest, reply: HTTPReply)
        -> HTTPResponse?
    {
        do {
            // Every answer drawn from the log first checks that no events are gone from its end.
            switch route {
            case .healthz, .metrics, .unmatched: break
            case .index, .find, .events, .stream, .query, .checkpoint, .proof, .bundle, .replay:
                try store.checkForCuts()
            }
            switch route {
            case .index: return try dashboard(request)
            case .find: return try find(request)
            case .healthz:
                return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: Array("ok\n".utf8))
            case .metrics: return try metricsResponse()
            case .events: return try events(request, reply: reply)
            case .stream: return try stream(parameter ?? "")
            case .query: return try query(parameter ?? "", request)
            case .checkpoint, .proof, .bundle: return try evidence(route, parameter)
            case .replay: return try replay(parameter ?? "", request)
            case .unmatched: return Self.error(404, "no such route")
            }
        } catch {
            return Self.failure(error)
        }
    }

    package func respond(_ request: HTTPRequest, reply: HTTPReply) -> HTTPAnswer {
        let expected = request.annotations["expectedVersion"].flatMap { Int64($0) }
        let prepared: EventsAppend.Request
        switch EventsAppend.prepare(body: request.body, expectedVersion: expected) {
        case let .success(value): prepared = value
        case let .failure(refusal): return .response(Self.error(400, refusal.reason))
        }
        let started = request.startedNanoseconds
        let submitted = batcher.submit(prepared) { [metrics] result in
            reply.send(Self.appendResponse(result, startedNanoseconds: started, metrics: metrics))
        }
        return submitted ? .later : .response(Self.stoppingAnswer)
    }

    /// The answer to an append once its group's commit returned (or it was refused).
    private static func appendResponse(
        _ result: Result<EventsAppend.Outcome, any Error>, startedNanoseconds: Int64,
        metrics: ServeMetrics
    ) -> HTTPResponse {
        do {
            switch try result.get() {
            case let .committed(appended, duplicates, first, last):
                let seconds = Double(SystemClock.monotonicNanoseconds() - startedNanoseconds) / 1e9
                metrics.append(seconds: seconds, appended: appended, duplicates: duplicates)
                var object = JSONObject()
                object["appended"] = .number(JSONNumber(appended))
                object["duplicates"] = .number(JSONNumber(duplicates))
                object["firstPosition"] = first.map { .number(JSONNumber($0)) } ?? .null
                object["lastPosition"] = last.map { .number(JSONNumber($0)) } ?? .null
                return Self.json(200, .object(object))
            case let .rejected(errors):
                var object = JSONObject()
                errors.addJSON(to: &object)
                return Self.json(422, .object(object))
            case let .versionMismatch(reason):
                return Self.error(409, reason)
            case let .badRequest(reason):
                return Self.error(400, reason)
            }
        } catch {
            return Self.failure(error)
        }
    }

    /// The answer while the server stops and takes no more work.
    static var stoppingAnswer: HTTPResponse {
        error(503, "the server is stopping; nothing was done")
    }

    package func uploadRefused(_ request: HTTPRequest, _ reason: UploadRefusal) -> HTTPResponse {
        switch reason {
        case .tooLarge:
            return Self.error(
                413, "the body is over the limit of \(maxBodyBytes) bytes (--max-body); nothing was written")
        case .tooSlow:
            return Self.error(408, "the body took longer than --request-timeout to arrive; nothing was written")
        }
    }

    package func finished(_ request: HTTPRequest, response: HTTPResponse?, completedNormally: Bool) {
        inFlight.subtract(1, ordering: .relaxed)
        let route = request.annotations["route"] ?? APIRoute.unmatched.rawValue
        let status = response?.status ?? 0
        metrics.request(route: route, status: status)
        accessLog.record(
            method: request.method, route: route, status: status, bytes: response?.body.count ?? 0,
            nanoseconds: SystemClock.monotonicNanoseconds() - request.startedNanoseconds,
            token: request.annotations["token"], completed: completedNormally)
    }

    // MARK: - Routes

    /// `POST /v1/events` once its headers are in: what can be refused before the body arrives.
    private func checkAppend(_ request: HTTPRequest) -> HTTPResponse? {
        let mediaType =
            (request.headers["content-type"] ?? "").split(separator: ";").first
            .map { String($0).trimmingWhitespace().lowercased() } ?? ""
        guard mediaType == "application/x-ndjson" else {
            return Self.error(415, "POST /v1/events takes Content-Type: application/x-ndjson (one event per line)")
        }
        if let length = request.headers["content-length"], let bytes = Int(length), bytes > maxBodyBytes {
            return uploadRefused(request, .tooLarge)
        }
        if let text = request.headers["journal-expected-version"] {
            guard let version = Int64(text.trimmingWhitespace()), version >= -1 else {
                return Self.error(
                    400,
                    "Journal-Expected-Version takes a version (an integer, -1 for a stream "
                        + "that must not exist)")
            }
            request.annotations["expectedVersion"] = String(version)
        }
        return nil
    }

    /// `GET /v1/events?from=P&limit=N&wait=S`
    private func events(_ request: HTTPRequest, reply: HTTPReply) throws -> HTTPResponse? {
        let parameters: [String: String]
        switch Self.parameters(request, allowed: ["from", "limit", "wait"]) {
        case let .success(values): parameters = values
        case let .failure(response): return response.response
        }
        var from: Int64 = 1
        var limit = Self.defaultLimit
        var wait = 0.0
        if let text = parameters["from"] {
            guard let value = Int64(text), value >= 1 else {
                return Self.error(400, "from takes a position (1, 2, 3, ...)")
            }
            from = value
        }
        if let text = parameters["limit"] {
            guard let value = Int(text), (1...Self.maxLimit).contains(value) else {
                return Self.error(400, "limit takes a number of events from 1 to \(Self.maxLimit)")
            }
            limit = value
        }
        if let text = parameters["wait"] {
            guard let value = Double(text), value.isFinite, value >= 0 else {
                return Self.error(400, "wait takes a number of seconds (at most \(Int(Self.maxWaitSeconds)))")
            }
            wait = min(value, Self.maxWaitSeconds)
        }
        let found = try store.readAll(from: from, limit: limit)
        if found.isEmpty && wait > 0 && !stopping.load(ordering: .relaxed) {
            let deadline = SystemClock.monotonicNanoseconds() + Int64(wait * 1e9)
            if longPolls.add(from: from, limit: limit, deadline: deadline, reply: reply) { return nil }
            // Stopping meanwhile: answer with what there is, as a stop does.
            return Self.exportLines(try store.readAll(from: from, limit: limit))
        }
        return Self.exportLines(found)
    }

    /// `GET /v1/streams/{stream}`
    private func stream(_ name: String) throws -> HTTPResponse {
        if let problem = Envelope.streamNameProblem(name) {
            return Self.error(400, "'\(Self.shown(name))' is not a stream name: \(problem)")
        }
        let stream = try StreamName(name)
        var events: [RecordedEvent] = []
        var version: Int64 = 0
        while true {
            let page = try store.read(stream: stream, from: version, direction: .forward, limit: 1_000)
            events += page
            guard page.count == 1_000, let last = page.last else { break }
            version = last.version + 1
        }
        guard !events.isEmpty else { return Self.error(404, "no stream \(Self.shown(name)) in the journal") }
        return Self.exportLines(events)
    }

    /// `GET /v1/replay/{stream}`: what `journal replay STREAM --format json` prints (200 also
    /// when the stream no longer folds: the answer says where and why, as the command's does).
    private func replay(_ name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        if case let .failure(refusal) = Self.parameters(request, allowed: []) { return refusal.response }
        if let problem = Envelope.streamNameProblem(name) {
            return Self.error(400, "'\(Self.shown(name))' is not a stream name: \(problem)")
        }
        let stream = try StreamName(name)
        guard try store.lastVersion(of: stream) != nil else {
            return Self.error(404, "no stream \(Self.shown(name)) in the journal")
        }
        return Self.json(200, try StreamReplay.json(stream, in: store).json)
    }

    /// `GET /v1/query/{name}?since=T&until=T&every=D`
    private func query(_ text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        guard let name = QueryName(rawValue: text) else {
            return Self.error(
                404,
                "unknown query '\(Self.shown(text))'; the queries are "
                    + QueryName.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let parameters: [String: String]
        switch Self.parameters(request, allowed: ["since", "until", "every"]) {
        case let .success(values): parameters = values
        case let .failure(response): return response.response
        }
        var bounds: [String: Timestamp] = [:]
        for key in ["since", "until"] {
            guard let value = parameters[key] else { continue }
            guard let bound = Timestamp(queryBound: value) else {
                return Self.error(
                    400, "\(key) takes YYYY-MM-DDTHH:MM:SS.sssZ or YYYY-MM-DD, got '\(Self.shown(value))'")
            }
            bounds[key] = bound
        }
        if let since = bounds["since"], let until = bounds["until"], since >= until {
            return Self.error(400, "since is not before until (since is included, until excluded)")
        }
        var every: BucketWidth?
        if let text = parameters["every"] {
            guard let width = BucketWidth(rawValue: text) else {
                return Self.error(
                    400,
                    "every takes " + BucketWidth.allCases.map(\.rawValue).joined(separator: ", ")
                        + ", got '\(Self.shown(text))'")
            }
            every = width
        }
        let window = QueryWindow(since: bounds["since"], until: bounds["until"])
        let output = try projections.with { engine in
            if let every { return try engine.run(name, window: window, every: every) }
            return try engine.run(name, window: window)
        }
        return HTTPResponse(status: 200, contentType: "application/json", body: Array((output.json + "\n").utf8))
    }

    /// `GET /v1/checkpoint`, `/v1/proof/{position}`, `/v1/bundle/{stream}`: what `checkpoint
    /// --list`, `prove` and `bundle` give, against the latest checkpoint the journal keeps.
    private func evidence(_ route: APIRoute, _ parameter: String?) throws -> HTTPResponse {
        guard let signed = try JournalEvidence.latestCheckpoint(store) else {
            return Self.error(404, "no checkpoint: the journal keeps none yet ('journal checkpoint --key FILE')")
        }
        switch route {
        case .proof:
            guard let position = parameter.flatMap({ Int64($0) }), position >= 1 else {
                return Self.error(400, "a proof is of a position (1, 2, 3, ...)")
            }
            guard position <= signed.checkpoint.size else {
                return Self.error(
                    404,
                    "position \(position) is not in the latest checkpoint's tree of "
                        + "\(signed.checkpoint.size) events")
            }
            let proof = try JournalEvidence.inclusion(of: position, against: signed, in: store)
            return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: Array(proof.text.utf8))
        case .bundle:
            let name = parameter ?? ""
            if let problem = Envelope.streamNameProblem(name) {
                return Self.error(400, "'\(Self.shown(name))' is not a stream name: \(problem)")
            }
            let stream = try StreamName(name)
            guard let first = try store.read(stream: stream, from: 0, direction: .forward, limit: 1).first,
                first.position <= signed.checkpoint.size
            else {
                return Self.error(404, "no stream \(Self.shown(name)) in the latest checkpoint's tree")
            }
            let bundle = try JournalEvidence.bundle(stream, against: signed, in: store)
            return HTTPResponse(
                status: 200, contentType: "application/json", body: Array((bundle.jsonText + "\n").utf8))
        case .checkpoint:
            return HTTPResponse(
                status: 200, contentType: "text/plain; charset=utf-8", body: Array(signed.noteText.utf8))
        case .index, .healthz, .metrics, .events, .stream, .query, .find, .replay, .unmatched:
            return Self.error(404, "no such route")
        }
    }

    /// `GET /metrics`
    private func metricsResponse() throws -> HTTPResponse {
        let head = try store.headPosition()
        let figures = try projections.with { engine in
            let funnel = try engine.funnel(.all)
            let otp = try engine.otp(.all)
            return ServeMetrics.JournalFigures(
                events: try engine.eventCount(.all), head: head,
                threeDSOutcomes: funnel.outcomes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                threeDSOTPSubmissions: otp.threeDSSubmissions, cardOTPSubmissions: otp.tokenizationSubmissions,
                inFlight: inFlight.load(ordering: .relaxed))
        }
        return HTTPResponse(
            status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
            body: Array(metrics.render(figures).utf8))
    }

    // MARK: - Answers

    static func exportLines(_ events: [RecordedEvent]) -> HTTPResponse {
        var body: [UInt8] = []
        for event in events {
            event.exportLine(into: &body)
            body.append(0x0A)
        }
        return HTTPResponse(status: 200, contentType: "application/x-ndjson", body: body)
    }

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "application/json", body: Array((JSONWriter.string(value) + "\n").utf8))
    }

    /// `{"error": "<reason>"}`
    package static func error(_ status: Int, _ reason: String) -> HTTPResponse {
        var object = JSONObject()
        object["error"] = .string(reason)
        return json(status, .object(object))
    }

    /// A failure of the store or the read models: 503 when another process holds the lock,
    /// 500 otherwise. Their messages name positions and streams, never payload values.
    static func failure(_ error: any Error) -> HTTPResponse {
        switch error {
        case let error as EventStoreError:
            switch error.code {
            case .busy: return Self.error(503, "the journal is locked by another process: \(error.message)")
            case .conflict: return Self.error(409, "concurrency conflict: \(error.message)")
            case .integrity: return Self.error(500, "integrity violation: \(error.message)")
            case .readOnly: return Self.error(403, error.message)
            default: return Self.error(500, error.message)
            }
        case let error as ProjectionError:
            return Self.error(error.code == .busy ? 503 : 500, error.message)
        default:
            return Self.error(500, "\(error)")
        }
    }

    /// A user-typed value fit for an error message: what §3.3 forbids masked, control
    /// characters escaped, at most 80 characters.
    static func shown(_ text: String) -> String { TextRendering.printable(SensitiveData.maskedText(text)) }

    private struct Refusal: Error { var response: HTTPResponse }

    /// The query arguments; 400 for one not in `allowed`, one without a value, or one given twice.
    private static func parameters(_ request: HTTPRequest, allowed: [String]) -> Result<[String: String], Refusal> {
        var values: [String: String] = [:]
        for (name, value) in request.arguments {
            guard allowed.contains(name) else {
                return .failure(
                    Refusal(
                        response: error(
                            400,
                            "unknown parameter '\(shown(name))'; this route takes "
                                + allowed.joined(separator: ", "))))
            }
            guard let value, !value.isEmpty else {
                return .failure(Refusal(response: error(400, "the parameter \(name) needs a value")))
            }
            guard values[name] == nil else {
                return .failure(Refusal(response: error(400, "the parameter \(name) is given twice")))
            }
            values[name] = value
        }
        return .success(values)
    }

    /// The `since` and `until` of a request (400 for a malformed or empty window).
    private static func window(_ parameters: [String: String]) -> Result<QueryWindow, Refusal> {
        var bounds: [String: Timestamp] = [:]
        for key in ["since", "until"] {
            guard let value = parameters[key] else { continue }
            guard let bound = Timestamp(queryBound: value) else {
                return .failure(
                    Refusal(
                        response: error(
                            400,
                            "\(key) takes YYYY-MM-DDTHH:MM:SS.sssZ or YYYY-MM-DD, "
                                + "got '\(shown(value))'")))
            }
            bounds[key] = bound
        }
        if let since = bounds["since"], let until = bounds["until"], since >= until {
            return .failure(
                Refusal(response: error(400, "since is not before until (since is included, until excluded)")))
        }
        return .success(QueryWindow(since: bounds["since"], until: bounds["until"]))
    }

    /// `GET /?since=T&until=T`: the dashboard, rendered from the read models now.
    private func dashboard(_ request: HTTPRequest) throws -> HTTPResponse {
        let window: QueryWindow
        switch Self.parameters(request, allowed: ["since", "until"]).flatMap(Self.window) {
        case let .success(value): window = value
        case let .failure(refusal): return refusal.response
        }
        let asOf = try JournalAsOf.read(from: store)
        let data = try projections.with { engine in try ReportData.load(engine, window: window, asOf: asOf) }
        return HTTPResponse(
            status: 200, contentType: "text/html; charset=utf-8",
            body: Array(DashboardPage.page(data).utf8),
            headers: [("Content-Security-Policy", DashboardPage.contentSecurityPolicy)])
    }

    /// `GET /v1/find?since=T&until=T&category=C&outcome=O&ds=RID&…&limit=N`: `journal find
    /// --format json` (an extension of spec §8), its parameters checked as the command's.
    private func find(_ request: HTTPRequest) throws -> HTTPResponse {
        let names = [
            "since", "until", "category", "outcome", "ds", "server-trans-id", "acs-trans-id", "digital-card-id",
            "correlation-id", "limit"
        ]
        let parameters: [String: String]
        switch Self.parameters(request, allowed: names) {
        case let .success(values): parameters = values
        case let .failure(response): return response.response
        }
        var arguments: [String] = []
        for name in names { if let value = parameters[name] { arguments += ["--\(name)", value] } }
        let request: (filter: StreamFilter, limit: Int)
        do {
            request = try findRequest(arguments)
        } catch {
            return Self.error(400, error.messages.first ?? "bad parameter")
        }
        let result = try projections.with { engine in try engine.find(request.filter, limit: request.limit) }
        return Self.json(200, result.json)
    }
}
