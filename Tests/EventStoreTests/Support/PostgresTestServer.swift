import EventStore
import JournalTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The private PostgreSQL server of this test process (`PostgresScratchServer.Shared`): started
/// on first use, one fresh schema per store, stopped when the process exits.
///
/// - In CI (`CI=true`) a server that cannot start fails every PostgreSQL test with the reason.
/// - Locally the same, unless `JOURNAL_SKIP_POSTGRES=1`: then the PostgreSQL backend is left out
///   of the suite and `PostgresAvailabilityTests` reports it as skipped with that reason.
enum PostgresTestServer {
    static var inCI: Bool { environment("CI") == "true" }

    /// True when this run leaves PostgreSQL out (only outside CI).
    static let skipped: Bool = !inCI && environment("JOURNAL_SKIP_POSTGRES") == "1"

    static let skipReason = "JOURNAL_SKIP_POSTGRES=1: the PostgreSQL backend is skipped in this local run"

    private static let shared = PostgresScratchServer.Shared(
        for: "the tests", schemaPrefix: "t",
        settings: ["fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"])

    /// The running server, started on first call (fsync off: tests need no durability).
    static func server() throws -> PostgresScratchServer { try shared.server() }

    /// A URL whose session uses a new, empty schema: a fresh journal for one test.
    static func freshURL() throws -> String { try shared.freshURL() }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
