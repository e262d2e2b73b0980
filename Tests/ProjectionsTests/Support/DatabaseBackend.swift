import EventStore
import Foundation
import JournalTestSupport
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
    static let skipped: Bool =
        ProcessInfo.processInfo.environment["CI"] != "true"
        && ProcessInfo.processInfo.environment["JOURNAL_SKIP_POSTGRES"] == "1"
    static let skipReason = "JOURNAL_SKIP_POSTGRES=1: the PostgreSQL read models are skipped in this local run"

    private static let shared = PostgresScratchServer.Shared(
        for: "the projections' tests", schemaPrefix: "pj",
        settings: ["fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"])

    /// A URL whose session uses a new, empty schema.
    static func freshURL() throws -> String { try shared.freshURL() }
}
