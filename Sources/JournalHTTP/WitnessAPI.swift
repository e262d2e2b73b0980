import EventStore
import JournalApp
import JournalCore
import Synchronization

/// The HTTP face of a ``Witness`` (C2SP tlog-witness): `POST /add-checkpoint`, and `GET /healthz`.
/// The event loops never wait: each checkpoint is checked, recorded and cosigned on the
/// witness's own thread, one at a time.
package final class WitnessAPI: StoppableHTTPHandler, Sendable {
    let witness: Witness
    let tokens: TokenFile?
    /// The largest body: 63 proof lines and a checkpoint with its signatures fit many times over.
    package let maxBodyBytes = 64 * 1024
    private let worker = WorkQueue(threads: 1)
    private let accessLog: AccessLog
    private let inFlight = Atomic<Int>(0)
    package var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    static let addCheckpointPath = "/add-checkpoint"

    package init(witness: Witness, tokens: TokenFile?, accessLog: AccessLog) {
        self.witness = witness
        self.tokens = tokens
        self.accessLog = accessLog
    }

    package func beginStopping() {}
    package func finish() { worker.stop() }

    package func head(_ request: HTTPRequest, reply: HTTPReply) -> HTTPAnswer? {
        inFlight.add(1, ordering: .relaxed)
        let isAdd = request.path == Self.addCheckpointPath
        request.annotations["route"] = isAdd ? Self.addCheckpointPath : request.path == "/healthz" ? "/healthz" : "-"
        if request.path == "/healthz" && request.method == "GET" {
            return .response(Self.text(200, "ok\n"))
        }
        if let tokens {
            guard let header = request.headers["authorization"], header.prefix(7).lowercased() == "bearer ",
                let entry = tokens.entry(forToken: String(header.dropFirst(7)).trimmingWhitespace())
            else {
                var response = Self.text(401, "a bearer token is needed: Authorization: Bearer <token>\n")
                response.headers.append(("WWW-Authenticate", "Bearer"))
                return .response(response)
            }
            request.annotations["token"] = entry.name
            guard entry.role == .append || entry.role == .admin else {
                return .response(
                    Self.text(403, "the token '\(entry.name)' (role \(entry.role.rawValue)) may not add checkpoints\n"))
            }
        }
        guard isAdd else { return .response(Self.text(404, "no such route; a witness answers POST /add-checkpoint\n")) }
        guard request.method == "POST" else {
            var response = Self.text(405, "/add-checkpoint answers POST only\n")
            response.headers.append(("Allow", "POST"))
            return .response(response)
        }
        if let length = request.headers["content-length"], let bytes = Int(length), bytes > maxBodyBytes {
            return .response(uploadRefused(request, .tooLarge))
        }
        return nil
    }

    package func respond(_ request: HTTPRequest, reply: HTTPReply) -> HTTPAnswer {
        let body = request.body
        let queued = worker.run { [witness] in
            switch witness.addCheckpoint(body: body) {
            case let .success(line):
                reply.send(Self.text(200, line))
            case let .failure(refusal):
                reply.send(Self.answer(refusal))
            }
        }
        return queued ? .later : .response(Self.text(503, "the witness is stopping; nothing was cosigned\n"))
    }

    /// The answer to a refusal: 409 carries the size cosigned, as `text/x.tlog.size`.
    static func answer(_ refusal: WitnessRefusal) -> HTTPResponse {
        switch refusal {
        case let .staleOldSize(_, cosigned):
            return HTTPResponse(status: 409, contentType: "text/x.tlog.size", body: Array("\(cosigned)\n".utf8))
        case .malformed, .oldSizeTooLarge, .notSigned, .unknownOrigin, .notConsistent, .stateFailure:
            return text(refusal.status, "\(refusal)\n")
        }
    }

    package func uploadRefused(_ request: HTTPRequest, _ reason: UploadRefusal) -> HTTPResponse {
        switch reason {
        case .tooLarge: Self.text(413, "the body is over the limit of \(maxBodyBytes) bytes\n")
        case .tooSlow: Self.text(408, "the body took too long to arrive\n")
        }
    }

    package func finished(_ request: HTTPRequest, response: HTTPResponse?, completedNormally: Bool) {
        inFlight.subtract(1, ordering: .relaxed)
        accessLog.record(
            method: request.method, route: request.annotations["route"] ?? "-", status: response?.status ?? 0,
            bytes: response?.body.count ?? 0,
            nanoseconds: SystemClock.monotonicNanoseconds() - request.startedNanoseconds,
            token: request.annotations["token"], completed: completedNormally)
    }

    package static func text(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(body.utf8))
    }
}
