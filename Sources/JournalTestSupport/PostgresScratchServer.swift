import EventStore
import JournalCore
import Synchronization

/// A private, throwaway PostgreSQL server for tests, benchmarks and demos: `initdb` into a new
/// folder under /tmp, started with `pg_ctl` on 127.0.0.1 only (a free port) with trust
/// authentication for the `postgres` role, and removed by `stop()`.
///
/// As root, the server's programs run as the `postgres` user through `runuser` (`initdb` refuses
/// to run as root) and the folder is handed to that user. A watchdog process stops the server
/// and removes the folder when the process that started it ends without calling `stop()`.
///
/// ```swift
/// let server = try PostgresScratchServer.start()
/// defer { server.stop() }
/// let store = try PostgresEventStore(url: server.url())
/// ```
///
public final class PostgresScratchServer: Sendable {
    public struct StartError: Error, CustomStringConvertible, Sendable {
        public var message: String
        public var description: String { message }
    }

    public let port: Int
    /// The folder holding the cluster (`data/`), its socket and `server.log`.
    public let directory: String
    public let binDirectory: String
    private let runAsPostgres: Bool
    /// Whether `stop` has run (the first call stops the server, later ones do nothing).
    private let stopped = Mutex(false)

    private init(port: Int, directory: String, binDirectory: String, runAsPostgres: Bool) {
        self.port = port
        self.directory = directory
        self.binDirectory = binDirectory
        self.runAsPostgres = runAsPostgres
    }

    /// The default location of PostgreSQL 15's server programs on Debian.
    public static let defaultBinDirectory = "/usr/lib/postgresql/15/bin"

    /// Creates and starts a server. `settings` are passed as `-c name=value` (e.g.
    /// `["fsync": "off"]` for tests that need no durability).
    public static func start(binDirectory: String = defaultBinDirectory, settings: [String: String] = [:])
        throws(StartError) -> PostgresScratchServer
    {
        guard FileSystem.isExecutable(binDirectory + "/initdb"), FileSystem.isExecutable(binDirectory + "/pg_ctl")
        else {
            throw StartError(
                message:
                    "PostgreSQL server programs not found in \(binDirectory) (install postgresql-15: "
                    + "apt-get install -y postgresql-15)"
            )
        }
        let root = CurrentProcess.isRoot
        var owner: (user: UInt32, group: UInt32)?
        if root {
            guard let postgres = CurrentProcess.user(named: "postgres") else {
                throw StartError(message: "running as root, but there is no 'postgres' user to run the server as")
            }
            owner = postgres
        }
        let directory: String
        do {
            directory = try CurrentProcess.makeTemporaryDirectory(prefix: "/tmp/journal-pg-")
        } catch {
            throw StartError(message: "cannot create a temporary folder under /tmp: \(error)")
        }
        FileSystem.setPermissions(directory, 0o755)
        if let owner { FileSystem.setOwner(directory, user: owner.user, group: owner.group) }
        let server = PostgresScratchServer(
            port: 0, directory: directory, binDirectory: binDirectory, runAsPostgres: root)
        let initdb = server.run(
            [
                binDirectory + "/initdb", "-D", directory + "/data", "-U", "postgres", "--auth=trust",
                "-E", "UTF8", "--locale=C.UTF-8", "-N"
            ], log: directory + "/initdb.log")
        guard initdb == 0 else {
            let tail = Self.tail(of: directory + "/initdb.log")
            server.removeDirectory()
            throw StartError(message: "initdb failed (exit \(initdb)): \(tail)")
        }
        for _ in 0..<5 {
            let port = Self.freePort()
            var options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c max_connections=300"
            for (name, value) in settings.sorted(by: { $0.key < $1.key }) { options += " -c \(name)=\(value)" }
            let started = server.run(
                [
                    binDirectory + "/pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log",
                    "-w", "-t", "30", "-o", options, "start"
                ], log: directory + "/pg_ctl.log")
            if started == 0 {
                let running = PostgresScratchServer(
                    port: port, directory: directory, binDirectory: binDirectory,
                    runAsPostgres: root)
                running.startWatchdog()
                return running
            }
        }
        let tail = Self.tail(of: directory + "/server.log")
        server.removeDirectory()
        throw StartError(message: "pg_ctl could not start the server: \(tail)")
    }

    /// A connection URL for `database` (as the `postgres` role, no password); with `schema`, the
    /// session's `search_path` is that schema.
    public func url(database: String = "postgres", schema: String? = nil) -> String {
        var url = "postgresql://postgres@127.0.0.1:\(port)/\(database)"
        if let schema { url += "?options=-csearch_path%3D\(schema)" }
        return url
    }

    /// Stops the server (fast shutdown) and removes its folder. Idempotent.
    public func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = run([binDirectory + "/pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"], log: "/dev/null")
        removeDirectory()
    }

    // MARK: - Processes

    private func removeDirectory() {
        _ = ChildProgram.run(["/bin/rm", "-rf", directory], output: "/dev/null")
    }

    /// Runs a server program (as `postgres` when root) and waits; returns its exit status.
    private func run(_ arguments: [String], log: String) -> Int32 {
        if runAsPostgres,
            let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
                .first(where: FileSystem.isExecutable)
        {
            return ChildProgram.run([runuser, "-u", "postgres", "--"] + arguments, output: log)
        }
        return ChildProgram.run(arguments, output: log)
    }

    /// A shell that waits for this process to end, then stops the server and removes the folder
    /// (a no-op after a normal `stop()`).
    private func startWatchdog() {
        let stopCommand =
            (runAsPostgres ? "runuser -u postgres -- " : "")
            + "\(binDirectory)/pg_ctl -D \(directory)/data -m immediate stop"
        let script =
            "while kill -0 \(CurrentProcess.id) 2>/dev/null; do sleep 1; done; "
            + "if [ -d \(directory)/data ]; then \(stopCommand); rm -rf \(directory); fi"
        _ = ChildProgram.run(["/bin/sh", "-c", script], output: "/dev/null", wait: false)
    }

    /// A port that was free a moment ago on 127.0.0.1 (bound to port 0, read back, closed).
    static func freePort() -> Int {
        guard let (socket, port) = try? ListeningSocket.open(host: "127.0.0.1", port: 0) else { return 54329 }
        socket.close()
        return Int(port)
    }

    /// The last lines of a log, for error messages.
    static func tail(of path: String) -> String {
        guard let bytes = try? FileSystem.readFile(path, maxBytes: 64 << 20) else { return "(no log at \(path))" }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let last = lines.suffix(7).map { String(decoding: $0, as: UTF8.self).trimmingTrailingNewline }
        return last.joined(separator: " | ")
    }
}

extension String {
    fileprivate var trimmingTrailingNewline: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
