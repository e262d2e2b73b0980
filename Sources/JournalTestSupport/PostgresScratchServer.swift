import CSpawn
import EventStore
import JournalCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        guard access(binDirectory + "/initdb", X_OK) == 0, access(binDirectory + "/pg_ctl", X_OK) == 0 else {
            throw StartError(
                message:
                    "PostgreSQL server programs not found in \(binDirectory) (install postgresql-15: "
                    + "apt-get install -y postgresql-15)"
            )
        }
        let root = geteuid() == 0
        var owner: (uid: uid_t, gid: gid_t)?
        if root {
            guard let entry = getpwnam("postgres") else {
                throw StartError(message: "running as root, but there is no 'postgres' user to run the server as")
            }
            owner = (entry.pointee.pw_uid, entry.pointee.pw_gid)
        }
        var template = Array("/tmp/journal-pg-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw StartError(message: "cannot create a temporary folder under /tmp")
        }
        let directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        chmod(directory, 0o755)
        if let owner { chown(directory, owner.uid, owner.gid) }
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
        _ = Self.spawn(["/bin/rm", "-rf", directory], log: "/dev/null")
    }

    /// Runs a server program (as `postgres` when root) and waits; returns its exit status.
    private func run(_ arguments: [String], log: String) -> Int32 {
        if runAsPostgres,
            let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
                .first(where: { (path: String) in access(path, X_OK) == 0 })
        {
            return Self.spawn([runuser, "-u", "postgres", "--"] + arguments, log: log)
        }
        return Self.spawn(arguments, log: log)
    }

    /// A shell that waits for this process to end, then stops the server and removes the folder
    /// (a no-op after a normal `stop()`).
    private func startWatchdog() {
        let stopCommand =
            (runAsPostgres ? "runuser -u postgres -- " : "")
            + "\(binDirectory)/pg_ctl -D \(directory)/data -m immediate stop"
        let script =
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; "
            + "if [ -d \(directory)/data ]; then \(stopCommand); rm -rf \(directory); fi"
        _ = Self.spawn(["/bin/sh", "-c", script], log: "/dev/null", wait: false)
    }

    static func spawn(_ arguments: [String], log: String, wait: Bool = true) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process reaches the child: a server (or its watchdog) that
        // inherited the write end of another child's output pipe, opened by a thread of the
        // tests at the same moment, would keep that pipe open and its reader waiting forever.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard rc == 0 else { return -1 }
        guard wait else { return 0 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros: exit code in bits 8…15 when the low 7 bits are 0.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    /// A port that was free a moment ago on 127.0.0.1 (bind to port 0, read it back, close).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return 54329 }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : 54329
    }

    /// The last lines of a log, for error messages.
    static func tail(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "(no log at \(path))" }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 1024)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
            lines.append(String(decoding: bytes, as: UTF8.self).trimmingTrailingNewline)
            if lines.count > 6 { lines.removeFirst() }
        }
        return lines.joined(separator: " | ")
    }
}

extension String {
    fileprivate var trimmingTrailingNewline: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
