import JournalApp
import JournalCore

/// What `HTTPServing` needs of the application behind a server that stops gracefully.
package protocol StoppableHTTPHandler: HTTPHandler {
    /// Requests between their headers and the end of their exchange.
    var requestsInFlight: Int { get }
    /// SIGTERM/SIGINT arrived: the server no longer accepts; waiting work should answer soon.
    func beginStopping()
    /// After the server stopped with every request answered: the handler's threads end.
    func finish()
}

/// The life of an HTTP server of the cli (`journal serve`, `journal witness`): SIGTERM and
/// SIGINT blocked before any thread starts (every thread inherits the mask; `run` takes them
/// with `sigwait`), SIGPIPE ignored, the descriptor limit raised, then listen, serve, and on a
/// signal stop accepting, drain the requests in flight, stop.
package struct HTTPServing {
    /// How long a stop waits for the requests in flight before closing their connections.
    package static let drainSeconds = 30

    private let stopSignals: ProcessSignals.StopSignals

    /// Call before any thread of the server or its handler starts.
    package init() {
        stopSignals = ProcessSignals.StopSignals()
        ProcessSignals.ignoreBrokenPipes()
        // One descriptor per connection: let the process open as many as its hard limit allows.
        ProcessSignals.raiseDescriptorLimit()
    }

    /// Listens on `address`, prints `listening on http://HOST:PORT`, serves until SIGTERM or
    /// SIGINT, then drains and stops; requests still waiting get `stoppedAnswer`.
    package func run(
        _ address: ListenAddress, handler: any StoppableHTTPHandler, library: LibMicroHTTPD,
        limits: HTTPServer.Limits, stoppedAnswer: HTTPResponse, _ context: CommandContext
    ) throws {
        let (socket, bound) = try address.listen()
        let server = HTTPServer(listenSocket: socket, handler: handler, library: library)
        do {
            try server.start(limits: limits)
        } catch {
            socket.close()
            throw error
        }
        context.stdout.line("listening on \(bound.url)")
        try context.stdout.flush()

        stopSignals.wait()
        server.quiesce()
        handler.beginStopping()
        let deadline = SystemClock.monotonicNanoseconds() + Int64(Self.drainSeconds) * 1_000_000_000
        while handler.requestsInFlight > 0 && SystemClock.monotonicNanoseconds() < deadline {
            SystemClock.sleep(nanoseconds: 10_000_000)
        }
        let drained = handler.requestsInFlight == 0
        server.stop(answering: stoppedAnswer)
        socket.close()
        // Work still running after the drain (a stalled disk) is not waited for: its requests
        // got no 200, and the process ends.
        if drained { handler.finish() }
    }
}
