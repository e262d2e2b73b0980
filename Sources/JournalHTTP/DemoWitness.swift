import EventStore
import JournalApp
import JournalCore

/// The demo's witness: `journal witness` run in this process on a free loopback port, so that
/// the tour shows a checkpoint cosigned without a second terminal.
package final class DemoWitness {
    package let url: String
    private let server: HTTPServer
    private let api: WitnessAPI
    private let socket: FileDescriptor

    /// Starts a witness of `logs` cosigning with `signer`, its state in `statePath`; nil when
    /// libmicrohttpd cannot be loaded.
    package init?(signer: NoteSigner, logs: [NoteVerifier], statePath: String, now: @escaping @Sendable () -> Timestamp)
        throws
    {
        guard let library = try? LibMicroHTTPD.shared() else { return nil }
        let witness: Witness
        do {
            witness = try Witness(
                signer: signer, logs: logs, statePath: statePath,
                clock: { UInt64(max(1, now().millisecondsSinceEpoch / 1000)) })
        } catch {
            throw CLIError(.failure, "\(error)")
        }
        ProcessSignals.ignoreBrokenPipes()
        let (socket, bound) = try ListenAddress(host: "127.0.0.1", port: 0).listen()
        api = WitnessAPI(witness: witness, tokens: nil, accessLog: AccessLog(descriptor: -1, now: now))
        server = HTTPServer(listenSocket: socket, handler: api, library: library)
        do {
            try server.start(limits: HTTPServer.Limits(connections: 16, eventThreads: 1))
        } catch {
            socket.close()
            throw error
        }
        self.socket = socket
        url = bound.url
    }

    package func stop() {
        server.quiesce()
        server.stop(answering: WitnessAPI.text(503, "the demo's witness stopped\n"))
        socket.close()
        api.finish()
    }
}
