import CMicroHTTPD
import JournalApp
import JournalCore
import Synchronization

// The one place the cli calls libmicrohttpd (through `LibMicroHTTPD`, the library opened when
// serve starts). Everything else of `journal serve` sees `HTTPRequest`, `HTTPResponse`,
// `HTTPReply` and `HTTPHandler`, plain Swift values.
//
// Threading (docs/decisions/serve-threading.md): a few event-loop threads (epoll, one per
// core) read requests and write answers for every connection; they never wait. A handler that
// cannot answer at once (an append waiting for its group's commit, a long-poll, a read of the
// store) answers `.later` and sends its `HTTPReply` from another thread: meanwhile the
// connection is suspended (MHD_suspend_connection), so it holds no thread, and the reply resumes
// it. A client sending a byte a second or holding an idle connection costs a socket and a
// little memory, never a thread.

/// A request whose headers have arrived; the body follows in `body` before `respond` is called.
package final class HTTPRequest: Sendable {
    let method: String
    /// The path, percent-decoded by the library, without the query.
    let path: String
    /// Header names lowercased; for a repeated header, the last value.
    let headers: [String: String]
    /// Query arguments in the order given, percent-decoded; `nil` for `?flag` without `=`.
    let arguments: [(name: String, value: String?)]
    /// CLOCK_MONOTONIC when the headers arrived, in nanoseconds.
    let startedNanoseconds: Int64
    /// What changes after the headers: the body as it arrives, and the annotations. Behind a
    /// lock only so that the request may be handed to another thread; one thread at a time
    /// changes it.
    private struct Changing: Sendable {
        var body: [UInt8] = []
        var annotations: [String: String] = [:]
    }

    private let changing = Mutex(Changing())

    /// The body received so far (only for handlers that asked for it).
    var body: [UInt8] { changing.withLock { $0.body } }

    fileprivate func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        changing.withLock { $0.body.append(contentsOf: bytes) }
    }

    fileprivate func dropBody() {
        changing.withLock { $0.body = [] }
    }

    init(
        method: String, path: String, headers: [String: String], arguments: [(name: String, value: String?)],
        startedNanoseconds: Int64
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.arguments = arguments
        self.startedNanoseconds = startedNanoseconds
    }

    /// What the application decided to remember about the request for its access log (the
    /// route pattern, the token's name).
    var annotations: [String: String] {
        get { changing.withLock { $0.annotations } }
        set { changing.withLock { $0.annotations = newValue } }
    }
}

package struct HTTPResponse: Sendable {
    var status: Int
    var contentType: String
    var body: [UInt8]
    var headers: [(String, String)] = []
}

/// What a handler does with a request.
package enum HTTPAnswer: Sendable {
    /// Answer with this response now.
    case response(HTTPResponse)
    /// The handler keeps the request's `HTTPReply` and calls `send` once, later, on any thread.
    /// The connection waits without holding a server thread.
    case later
}

/// The answer to one request, sent once from any thread (`HTTPAnswer.later`). Sends after the
/// first, and sends after the server stopped, are ignored.
package final class HTTPReply: Sendable {
    fileprivate enum Phase {
        /// The handler is being called on the event-loop thread.
        case handling
        /// The connection is suspended until `send`.
        case suspended
        /// `send` resumed the connection; the event loop queues `pending` next.
        case resumed
        /// The response is queued (or the server gave up on the request).
        case done
    }

    fileprivate struct Progress: Sendable {
        var phase = Phase.handling
        var pending: HTTPResponse?
    }

    /// Changed with the server's `suspensions` lock held too, so that a send and a suspension
    /// never cross.
    fileprivate let progress = Mutex(Progress())
    fileprivate let connection: LibraryHandle
    /// Strong: a reply may be sent by a thread that outlives the request, even the server.
    fileprivate let server: HTTPServer

    fileprivate init(connection: OpaquePointer, server: HTTPServer) {
        self.connection = LibraryHandle(connection)
        self.server = server
    }

    func send(_ response: HTTPResponse) {
        server.deliver(response, to: self)
    }
}

/// The application behind the server. Called on the event-loop threads, concurrently; no call
/// may block (hand the `HTTPReply` to a thread of your own and answer `.later`).
package protocol HTTPHandler: AnyObject, Sendable {
    /// The headers are in: answer (an error, a GET), or nil to receive the body and then be
    /// asked `respond`.
    func head(_ request: HTTPRequest, reply: HTTPReply) -> HTTPAnswer?
    /// The whole body has arrived.
    func respond(_ request: HTTPRequest, reply: HTTPReply) -> HTTPAnswer
    /// The answer to an upload stopped while it arrives: its body grew over `maxBodyBytes`, or
    /// it took longer than `Limits.uploadSeconds`.
    func uploadRefused(_ request: HTTPRequest, _ reason: UploadRefusal) -> HTTPResponse
    /// The exchange is over: `response` is what was queued (nil when the connection ended
    /// first), `sentBytes` its body's size.
    func finished(_ request: HTTPRequest, response: HTTPResponse?, completedNormally: Bool)
    var maxBodyBytes: Int { get }
}

package enum UploadRefusal: Sendable {
    case tooLarge
    case tooSlow
}

/// A library handle (a connection, the daemon) kept as its address: a token only handed back to
/// the library, never read through by Swift, as a file descriptor is a number.
private struct LibraryHandle: Sendable, Hashable {
    let address: UInt

    init(_ pointer: OpaquePointer) { address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) }

    var pointer: OpaquePointer { OpaquePointer(bitPattern: address)! }
}

/// A libmicrohttpd daemon on a listening socket the caller made.
package final class HTTPServer: Sendable {
    package struct Limits: Sendable {
        /// Open connections at once; more are refused at accept.
        var connections = 2_000
        /// Seconds a connection may stay silent (idle keep-alive, a stalled upload) before it
        /// is closed.
        var idleTimeoutSeconds = 30
        /// Per-connection memory for the request line and headers (a larger header block is
        /// refused by the library with 431 or 413).
        var headerMemoryBytes = 32 * 1024
        /// Seconds from a request's headers to the end of its body: a client that keeps sending
        /// a byte at a time (never silent long enough for `idleTimeoutSeconds`) is cut off.
        package var uploadSeconds = 60
        /// Event-loop threads, each serving its share of the connections.
        var eventThreads = HTTPServer.defaultEventThreads

        package init(connections: Int = 2_000, eventThreads: Int = HTTPServer.defaultEventThreads) {
            self.connections = connections
            self.eventThreads = eventThreads
        }
    }

    /// One per online core, at most 4: the loops only parse HTTP and copy bytes.
    static var defaultEventThreads: Int { max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// One request from its headers to the end of its exchange: the `con_cls` of the library.
    private final class Exchange {
        let request: HTTPRequest
        let reply: HTTPReply
        /// What was queued: the answer the access log and metrics report.
        var response: HTTPResponse?
        var overLimit = false
        /// `respond` was called (the body is complete).
        var responding = false
        init(request: HTTPRequest, reply: HTTPReply) {
            self.request = request
            self.reply = reply
        }
    }

    private let handler: any HTTPHandler
    private let listenSocket: FileDescriptor
    private let mhd: LibMicroHTTPD
    /// The daemon (`LibraryHandle`'s address), 0 before `start` and after `stop`.
    private let daemonAddress = Atomic<UInt>(0)
    private let uploadNanoseconds = Atomic<Int64>(60_000_000_000)

    private struct Suspensions: Sendable {
        var suspended: [ObjectIdentifier: HTTPReply] = [:]
        /// Set by `stop`: the answer to every request still waiting, and to any that would wait.
        var stopAnswer: HTTPResponse?
    }

    /// Held while any reply's progress changes; the library's suspend and resume are called
    /// under it, so that `stop` never finds a connection half resumed.
    private let suspensions = Mutex(Suspensions())

    /// - Parameter library: the loaded libmicrohttpd (`LibMicroHTTPD.shared()`).
    package init(listenSocket: FileDescriptor, handler: any HTTPHandler, library: LibMicroHTTPD) {
        self.listenSocket = listenSocket
        self.handler = handler
        mhd = library
    }

    /// Starts the daemon's threads.
    package func start(limits: Limits) throws(CLIError) {
        uploadNanoseconds.store(Int64(limits.uploadSeconds) * 1_000_000_000, ordering: .relaxed)
        let flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenSocket.rawValue), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: limits.connections, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: limits.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: limits.headerMemoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil)
        ]
        if limits.eventThreads > 1 {
            options.insert(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: limits.eventThreads, ptr_value: nil), at: 0)
        }
        // unsafe: the context pointer is this server, unretained; the daemon stops (`stop()`)
        // before the server can go away, so the callbacks never see a dangling pointer.
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = options.withUnsafeMutableBufferPointer { items in
            cmhd_start_daemon(
                mhd.startDaemon, flags, HTTPServer.access, context, HTTPServer.completed, items.baseAddress)
        }
        guard let started else {
            throw CLIError(.failure, "cannot start the HTTP server (libmicrohttpd refused its options)")
        }
        daemonAddress.store(LibraryHandle(started).address, ordering: .releasing)
    }

    /// The running daemon, nil before `start` and after `stop`.
    private var daemon: OpaquePointer? {
        OpaquePointer(bitPattern: daemonAddress.load(ordering: .acquiring))
    }

    /// Stops accepting connections; those already open go on.
    package func quiesce() {
        guard let daemon else { return }
        _ = mhd.quiesceDaemon(daemon)
    }

    /// Stops the daemon: gives `answer` to the requests still waiting for theirs (the library
    /// cannot close a suspended connection), closes every connection and joins its threads.
    package func stop(answering answer: HTTPResponse) {
        guard let daemon else { return }
        suspensions.withLock { suspensions in
            suspensions.stopAnswer = answer
            for reply in suspensions.suspended.values {
                reply.progress.withLock { $0 = HTTPReply.Progress(phase: .resumed, pending: answer) }
                mhd.resumeConnection(reply.connection.pointer)
            }
            suspensions.suspended.removeAll()
        }
        mhd.stopDaemon(daemon)
        daemonAddress.store(0, ordering: .releasing)
    }

    /// `HTTPReply.send`: resumes the connection if it is suspended, or leaves the answer for
    /// the handler's caller on the event loop to queue.
    fileprivate func deliver(_ response: HTTPResponse, to reply: HTTPReply) {
        suspensions.withLock { suspensions in
            let phase = reply.progress.withLock { progress in
                let phase = progress.phase
                switch phase {
                case .handling:
                    progress.pending = response
                case .suspended:
                    progress = HTTPReply.Progress(phase: .resumed, pending: response)
                case .resumed, .done:
                    break
                }
                return phase
            }
            guard phase == .suspended else { return }
            suspensions.suspended[ObjectIdentifier(reply)] = nil
            mhd.resumeConnection(reply.connection.pointer)
        }
    }

    /// After a handler answered `.later` on the event loop: the answer if it came already (or
    /// 503 once the server stops), else the connection is suspended until it comes.
    private func wait(for exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        let reply = exchange.reply
        let ready: HTTPResponse? = suspensions.withLock { suspensions in
            let ready = reply.progress.withLock { progress in
                let ready = progress.pending ?? suspensions.stopAnswer
                progress.phase = ready == nil ? .suspended : .done
                return ready
            }
            if ready == nil {
                mhd.suspendConnection(connection)
                suspensions.suspended[ObjectIdentifier(reply)] = reply
            }
            return ready
        }
        guard let ready else { return .YES }
        return queue(ready, on: connection, for: exchange)
    }

    /// The reply is done: a send from now on is dropped.
    private func markDone(_ reply: HTTPReply) {
        suspensions.withLock { _ in reply.progress.withLock { $0.phase = .done } }
    }

    /// Called again by the library for a resumed connection: the answer `deliver` left.
    private func resumedAnswer(_ exchange: Exchange) -> HTTPResponse? {
        let reply = exchange.reply
        return suspensions.withLock { _ in
            reply.progress.withLock { progress in
                guard progress.phase == .resumed, let response = progress.pending else { return nil }
                progress.phase = .done
                return response
            }
        }
    }

    private func answer(_ answer: HTTPAnswer, on connection: OpaquePointer, for exchange: Exchange) -> MHD_Result {
        switch answer {
        case let .response(response):
            markDone(exchange.reply)
            return queue(response, on: connection, for: exchange)
        case .later:
            return wait(for: exchange, on: connection)
        }
    }

    // MARK: - Callbacks (C function pointers: no captures, the server comes back as `context`)

    private static let access: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, uploadData, uploadSize, connectionContext in
        // unsafe: every pointer comes from the library and is valid for this call only; the
        // Exchange behind `connectionContext` is retained until `completed` releases it.
        guard let context, let connection, let uploadSize, let connectionContext else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        guard let stored = connectionContext.pointee else {
            let request = HTTPRequest(
                method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
                headers: values(server.mhd, connection, kind: .HEADER_KIND, lowercased: true)
                    .reduce(into: [:]) { $0[$1.name] = $1.value ?? "" },
                arguments: values(server.mhd, connection, kind: .GET_ARGUMENT_KIND, lowercased: false),
                startedNanoseconds: SystemClock.monotonicNanoseconds())
            let exchange = Exchange(request: request, reply: HTTPReply(connection: connection, server: server))
            connectionContext.pointee = Unmanaged.passRetained(exchange).toOpaque()
            guard let answer = server.handler.head(request, reply: exchange.reply) else { return .YES }
            exchange.responding = true
            return server.answer(answer, on: connection, for: exchange)
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0 // consumed (or discarded)
            if exchange.overLimit || exchange.response != nil || exchange.responding { return .YES }
            let tooLarge = exchange.request.body.count + count > server.handler.maxBodyBytes
            if tooLarge
                || SystemClock.monotonicNanoseconds() - exchange.request.startedNanoseconds
                    > server.uploadNanoseconds.load(ordering: .relaxed)
            {
                exchange.overLimit = true
                exchange.request.dropBody()
                // The library refuses a response in the middle of an upload; closing the
                // connection stops the upload at once instead of reading the rest.
                let response = server.handler.uploadRefused(exchange.request, tooLarge ? .tooLarge : .tooSlow)
                if server.queue(response, on: connection, for: exchange) == .YES { return .YES }
                exchange.response = response
                return .NO
            }
            if let uploadData {
                UnsafeRawBufferPointer(start: uploadData, count: count).withMemoryRebound(to: UInt8.self) {
                    exchange.request.appendBody($0)
                }
            }
            return .YES
        }
        if exchange.response != nil { return .YES }
        if exchange.responding {
            // Resumed: the answer is in. (Called without one only if the library asks again
            // before the resume, which it does not for a suspended connection.)
            guard let response = server.resumedAnswer(exchange) else { return .YES }
            return server.queue(response, on: connection, for: exchange)
        }
        exchange.responding = true
        return server.answer(
            server.handler.respond(exchange.request, reply: exchange.reply), on: connection, for: exchange)
    }

    private static let completed: MHD_RequestCompletedCallback = { context, _, connectionContext, termination in
        // unsafe: releases the Exchange retained in `access`; the library calls this once per
        // request, after which `connectionContext` is not used again.
        guard let context, let connectionContext, let stored = connectionContext.pointee else { return }
        connectionContext.pointee = nil
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeRetainedValue()
        // A reply sent after this (the connection closed first) finds it done and is dropped.
        server.markDone(exchange.reply)
        server.handler.finished(
            exchange.request, response: exchange.response,
            completedNormally: termination == .REQUEST_TERMINATED_COMPLETED_OK)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, for exchange: Exchange) -> MHD_Result {
        // unsafe: .RESPMEM_MUST_COPY makes the library copy the body before this returns.
        let made = response.body.withUnsafeBytes { raw in
            mhd.createResponseFromBuffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { mhd.destroyResponse(made) }
        _ = mhd.addResponseHeader(made, "Content-Type", response.contentType)
        for (name, value) in response.headers { _ = mhd.addResponseHeader(made, name, value) }
        let result = mhd.queueResponse(connection, UInt32(response.status), made)
        if result == .YES { exchange.response = response }
        return result
    }

    /// Every header or query argument of the request, in order.
    private static func values(_ mhd: LibMicroHTTPD, _ connection: OpaquePointer, kind: MHD_ValueKind, lowercased: Bool)
        -> [(name: String, value: String?)]
    {
        final class Collected {
            var items: [(name: String, value: String?)] = []
            var lowercased = false
        }
        let collected = Collected()
        collected.lowercased = lowercased
        // unsafe: `collected` outlives the call, which invokes the iterator synchronously.
        withExtendedLifetime(collected) {
            _ = mhd.getConnectionValues(
                connection, kind,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                    let name = String(cString: key)
                    collected.items.append(
                        (collected.lowercased ? name.lowercased() : name, value.map { String(cString: $0) }))
                    return .YES
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.items
    }
}

/// The listening socket `journal serve` hands to the daemon, made here so that `--listen` with
/// port 0 can report the port the kernel chose.
package struct ListenAddress: Sendable, Equatable {
    var host: String
    var port: UInt16

    /// `HOST:PORT` or `[IPv6]:PORT`; HOST is an IP address or `localhost`.
    package init(parsing text: String) throws(CLIError) {
        let usage = CLIError.usage(
            "--listen takes HOST:PORT (an IP address or localhost, and a port 0-65535), "
                + "got '\(TextRendering.printable(text))'", hint: "e.g. --listen 127.0.0.1:8080")
        guard let colon = text.lastIndex(of: ":") else { throw usage }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = UInt16(text[text.index(after: colon)...]), !host.isEmpty else { throw usage }
        if host == "localhost" { host = "127.0.0.1" }
        guard ListeningSocket.family(of: host) != nil else { throw usage }
        self.host = host
        self.port = port
    }

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// 127.0.0.0/8 or ::1.
    package var isLoopback: Bool { ListeningSocket.isLoopback(host) }

    /// `http://HOST:PORT` (brackets around an IPv6 address).
    package var url: String { "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// Binds and listens; returns the socket and the address with the port actually bound.
    package func listen() throws(CLIError) -> (socket: FileDescriptor, bound: ListenAddress) {
        do {
            let (socket, port) = try ListeningSocket.open(host: host, port: port)
            return (socket, ListenAddress(host: host, port: port))
        } catch {
            throw CLIError(
                .failure, "cannot listen on \(url): \(error.call): \(error.errno)",
                hint: "choose another --listen address or port (port 0 picks a free one)")
        }
    }
}
