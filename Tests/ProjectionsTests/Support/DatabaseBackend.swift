import EventStore
import Foundation
import Synchronization
import Testing

/// Where a test keeps its read models: the same test bodies run against both engines, the way
/// the store's conformance suite runs against each backend.
struct DatabaseBackend: Sendable, CustomTestStringConvertible {
    let name: String
    /// A fresh, empty journal database: a SQLite file path or a PostgreSQL URL.
    let makeLocation: @Sendable () throws -> String

    var testDescription: String { name }

    static let sqlite = DatabaseBackend(name: "SQLite") {
        "/tmp/projections-test-\(UInt64.random(in: 0...UInt64.max)).db"
    }

    /// A fresh schema on this test process's private PostgreSQL server.
    static let postgres = DatabaseBackend(name: "PostgreSQL") { try PostgresProjectionsServer.freshURL() }

    /// Every backend the read-model tests run against (PostgreSQL unless this local run skips it).
    static let all: [DatabaseBackend] = [.sqlite] + (PostgresProjectionsServer.skipped ? [] : [.postgres])
}

/// The private PostgreSQL server of the projections' tests (the store's policy): started once
/// per test process, one fresh schema per database, stopped at exit. In CI (`CI=true`) a server
/// that cannot start fails every PostgreSQL test with the reason; locally
/// `JOURNAL_SKIP_POSTGRES=1` leaves PostgreSQL out (the "PostgreSQL read models" suite shows as
/// skipped with that reason).
enum PostgresProjectionsServer {
    static let skipped: Bool = ProcessInfo.processInfo.environment["CI"] != "true"
        && ProcessInfo.processInfo.environment["JOURNAL_SKIP_POSTGRES"] == "1"
    static let skipReason = "JOURNAL_SKIP_POSTGRES=1: the PostgreSQL read models are skipped in this local run"

    struct Unavailable: Error, CustomStringConvertible { let description: String }

    private static let state = Mutex<(server: Result<PostgresScratchServer, Unavailable>?, schemas: Int)>((nil, 0))
    private static let running = Mutex<PostgresScratchServer?>(nil)

    static func server() throws -> PostgresScratchServer {
        try state.withLock { state -> Result<PostgresScratchServer, Unavailable> in
            if let server = state.server { return server }
            do {
                let server = try PostgresScratchServer.start(settings: ["fsync": "off", "synchronous_commit": "off",
                                                                        "full_page_writes": "off"])
                running.withLock { $0 = server }
                atexit { PostgresProjectionsServer.running.withLock { $0 }?.stop() }
                state.server = .success(server)
            } catch {
                state.server = .failure(Unavailable(description: "cannot start the private PostgreSQL 15 server for the projections' tests: \(error) (JOURNAL_SKIP_POSTGRES=1 skips PostgreSQL tests locally; in CI this is a failure)"))
            }
            return state.server!
        }.get()
    }

    /// A URL whose session uses a new, empty schema.
    static func freshURL() throws -> String {
        let server = try server()
        let name = state.withLock { state -> String in
            state.schemas += 1
            return "pj\(getpid())_\(state.schemas)"
        }
        try PostgresConnection(server.url()).execute("CREATE SCHEMA \(name)")
        return server.url(schema: name)
    }
}
