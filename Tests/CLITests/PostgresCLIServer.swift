import EventStore
import Foundation
import JournalTestSupport

/// The private PostgreSQL server of the CLI tests (same policy as the store's tests): started
/// once per test process, one fresh schema per journal, stopped at exit. In CI (`CI=true`) a
/// server that cannot start fails the tests; locally `JOURNAL_SKIP_POSTGRES=1` skips them.
enum PostgresCLIServer {
    static let skipped: Bool =
        ProcessInfo.processInfo.environment["CI"] != "true"
        && ProcessInfo.processInfo.environment["JOURNAL_SKIP_POSTGRES"] == "1"
    static let skipReason = "JOURNAL_SKIP_POSTGRES=1: PostgreSQL end-to-end tests are skipped in this local run"

    private static let shared = PostgresScratchServer.Shared(
        for: "the CLI tests", schemaPrefix: "cli", settings: ["fsync": "off", "synchronous_commit": "off"])

    /// A URL to a new, empty schema; `password` is put in the URL (the server trusts loopback
    /// and ignores it), to check that no output shows it.
    static func freshURL(password: String? = nil) throws -> String {
        var url = try shared.freshURL()
        if let password { url = url.replacingOccurrences(of: "postgres@", with: "postgres:\(password)@") }
        return url
    }
}
