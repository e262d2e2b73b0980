import EventStore
import Foundation
import Synchronization

/// The private PostgreSQL server of the CLI tests (same policy as the store's tests): started
/// once per test process, one fresh schema per journal, stopped at exit. In CI (`CI=true`) a
/// server that cannot start fails the tests; locally `JOURNAL_SKIP_POSTGRES=1` skips them.
enum PostgresCLIServer {
    static let skipped: Bool = ProcessInfo.processInfo.environment["CI"] != "true"
        && ProcessInfo.processInfo.environment["JOURNAL_SKIP_POSTGRES"] == "1"
    static let skipReason = "JOURNAL_SKIP_POSTGRES=1: PostgreSQL end-to-end tests are skipped in this local run"

    struct Unavailable: Error, CustomStringConvertible { let description: String }

    private static let state = Mutex<(server: Result<PostgresScratchServer, Unavailable>?, schemas: Int)>((nil, 0))
    private static let running = Mutex<PostgresScratchServer?>(nil)

    static func server() throws -> PostgresScratchServer {
        try state.withLock { state -> Result<PostgresScratchServer, Unavailable> in
            if let server = state.server { return server }
            do {
                let server = try PostgresScratchServer.start(settings: ["fsync": "off", "synchronous_commit": "off"])
                running.withLock { $0 = server }
                atexit { PostgresCLIServer.running.withLock { $0 }?.stop() }
                state.server = .success(server)
            } catch {
                state.server = .failure(Unavailable(description: "cannot start the private PostgreSQL 15 server: \(error) (JOURNAL_SKIP_POSTGRES=1 skips PostgreSQL tests locally; in CI this is a failure)"))
            }
            return state.server!
        }.get()
    }

    /// A URL to a new, empty schema; `password` is put in the URL (the server trusts loopback
    /// and ignores it), to check that no output shows it.
    static func freshURL(password: String? = nil) throws -> String {
        let server = try server()
        let name = state.withLock { state -> String in
            state.schemas += 1
            return "cli\(getpid())_\(state.schemas)"
        }
        try PostgresConnection(server.url()).execute("CREATE SCHEMA \(name)")
        var url = server.url(schema: name)
        if let password { url = url.replacingOccurrences(of: "postgres@", with: "postgres:\(password)@") }
        return url
    }
}
