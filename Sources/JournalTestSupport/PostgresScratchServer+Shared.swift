import EventStore
import JournalCore
import Synchronization

extension PostgresScratchServer {
    /// One private server for a whole test process, the policy every test target follows:
    /// started on first use (a failure to start is kept and thrown to every caller, so in CI
    /// each PostgreSQL test fails with the reason), one fresh schema per caller of
    /// ``freshURL()``, stopped when the process exits.
    public final class Shared: Sendable {
        public struct Unavailable: Error, CustomStringConvertible {
            public let description: String
        }

        private let users: String
        private let schemaPrefix: String
        private let settings: [String: String]
        private let state = Mutex<(server: Result<PostgresScratchServer, Unavailable>?, schemas: Int)>((nil, 0))

        /// - Parameters:
        ///   - users: who it is for, in the message when it cannot start ("the CLI tests").
        ///   - schemaPrefix: the start of each fresh schema's name (the process id and a count follow).
        ///   - settings: server settings (`fsync` off and the like: tests need no durability).
        public init(for users: String, schemaPrefix: String, settings: [String: String]) {
            self.users = users
            self.schemaPrefix = schemaPrefix
            self.settings = settings
        }

        /// The running server, started on first call.
        public func server() throws -> PostgresScratchServer {
            try state.withLock { state -> Result<PostgresScratchServer, Unavailable> in
                if let server = state.server { return server }
                do {
                    let server = try PostgresScratchServer.start(settings: settings)
                    Self.stopAtExit(server)
                    state.server = .success(server)
                } catch {
                    state.server = .failure(
                        Unavailable(
                            description:
                                "cannot start the private PostgreSQL 15 server for \(users): \(error) "
                                + "(JOURNAL_SKIP_POSTGRES=1 skips PostgreSQL tests locally; in CI this is a failure)"
                        ))
                }
                return state.server!
            }.get()
        }

        /// A URL whose session uses a new, empty schema.
        public func freshURL() throws -> String {
            let server = try server()
            let name = state.withLock { state -> String in
                state.schemas += 1
                return "\(schemaPrefix)\(CurrentProcess.id)_\(state.schemas)"
            }
            try PostgresConnection(server.url()).execute("CREATE SCHEMA \(name)")
            return server.url(schema: name)
        }

        private static let running = Mutex<[PostgresScratchServer]>([])

        private static func stopAtExit(_ server: PostgresScratchServer) {
            let first = running.withLock { servers in
                servers.append(server)
                return servers.count == 1
            }
            if first {
                CurrentProcess.atExit {
                    for server in Shared.running.withLock({ $0 }) { server.stop() }
                }
            }
        }
    }
}
