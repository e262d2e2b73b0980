import EventStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The private PostgreSQL server of this test process: started on first use, one fresh schema
/// per store, stopped when the process exits.
///
/// - In CI (`CI=true`) a server that cannot start fails every PostgreSQL test with the reason.
/// - Locally the same, unless `JOURNAL_SKIP_POSTGRES=1`: then the PostgreSQL backend is left out
///   of the suite and `PostgresAvailabilityTests` reports it as skipped with that reason.
enum PostgresTestServer {
    static var inCI: Bool { environment("CI") == "true" }

    /// True when this run leaves PostgreSQL out (only outside CI).
    static let skipped: Bool = !inCI && environment("JOURNAL_SKIP_POSTGRES") == "1"

    static let skipReason = "JOURNAL_SKIP_POSTGRES=1: the PostgreSQL backend is skipped in this local run"

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private static let state = Synchronization.Mutex<(server: Result<PostgresScratchServer, Unavailable>?, schemas: Int)>((nil, 0))

    /// The running server, started on first call (fsync off: tests need no durability).
    static func server() throws -> PostgresScratchServer {
        let result = state.withLock { state -> Result<PostgresScratchServer, Unavailable> in
            if let server = state.server { return server }
            let started: Result<PostgresScratchServer, Unavailable>
            do {
                let server = try PostgresScratchServer.start(settings: ["fsync": "off", "synchronous_commit": "off",
                                                                        "full_page_writes": "off"])
                started = .success(server)
                stopAtExit(server)
            } catch {
                started = .failure(Unavailable(description: "cannot start the private PostgreSQL 15 server for the tests: \(error) (set JOURNAL_SKIP_POSTGRES=1 to skip PostgreSQL tests locally; in CI this is a failure)"))
            }
            state.server = started
            return started
        }
        return try result.get()
    }

    /// A URL whose session uses a new, empty schema: a fresh journal for one test.
    static func freshURL() throws -> String {
        let server = try server()
        let name = state.withLock { state -> String in
            state.schemas += 1
            return "t\(getpid())_\(state.schemas)"
        }
        let admin = try PostgresConnection(server.url())
        try admin.execute("CREATE SCHEMA \(name)")
        return server.url(schema: name)
    }

    private static func stopAtExit(_ server: PostgresScratchServer) {
        running.withLock { $0 = server }
        atexit {
            let server = PostgresTestServer.running.withLock { $0 }
            server?.stop()
        }
    }

    private static let running = Synchronization.Mutex<PostgresScratchServer?>(nil)

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
