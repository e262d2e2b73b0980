#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The bench's POSIX calls, in one place: files, monotonic time, child processes with rusage.

/// A file opened for writing (created or truncated).
final class OutputFile {
    private var descriptor: Int32
    let path: String

    init(path: String) throws(BenchError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchError("open \(path)", String(cString: strerror(errno))) }
    }

    func write(_ bytes: [UInt8]) throws(BenchError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            guard written > 0 else { throw BenchError("write \(path)", String(cString: strerror(errno))) }
            offset += written
        }
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

enum System {
    /// Writes `text` to standard error.
    static func printError(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        bytes.withUnsafeBytes { raw in _ = Glibc.write(2, raw.baseAddress, raw.count) }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// CPU seconds (user + system) this process has used, all threads.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }

    /// Size of a file in bytes (0 when missing).
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func remove(_ path: String) { _ = unlink(path) }

    /// Removes a journal and its WAL/SHM side files.
    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { remove(path + suffix) }
    }

    static func makeDirectory(_ path: String) throws(BenchError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw BenchError("mkdir \(path)", String(cString: strerror(errno)))
        }
    }

    /// A fresh private directory under `$TMPDIR` (default /tmp).
    static func temporaryDirectory(prefix: String) throws(BenchError) -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("mkdtemp", String(cString: strerror(errno)))
        }
        return String(cString: result)
    }

    static func removeTree(_ path: String) {
        _ = runQuietly(["/bin/rm", "-rf", path])
    }

    /// The directory holding this executable (`/proc/self/exe`).
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    static func loadAverage() -> [Double] {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) == 3 ? loads : []
    }

    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What a finished child did.
    struct ChildResult {
        var status: Int32
        var seconds: Double
        /// CPU seconds (user + system) the child used.
        var cpuSeconds: Double
        /// Peak resident set size of the child, in bytes (`ru_maxrss`).
        var maxRSSBytes: Int64
    }

    /// Runs `arguments` (argv[0] is a path), stdout to `stdoutPath` (or inherited), stderr to
    /// `stderrPath` (or inherited), and waits for it with `wait4` to read its peak memory.
    static func run(
        _ arguments: [String], stdoutPath: String? = nil,
        stderrPath: String? = nil
    ) throws(BenchError) -> ChildResult {
        let start = now()
        let pid = try spawn(arguments, stdoutPath: stdoutPath, stderrPath: stderrPath)
        return try wait(for: pid, name: arguments[0], since: start)
    }

    /// Starts `arguments` (argv[0] is a path) without waiting for it; `wait(for:)` or
    /// `terminate` reaps it.
    static func spawn(_ arguments: [String], stdoutPath: String? = nil, stderrPath: String? = nil)
        throws(BenchError) -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard rc == 0 else { throw BenchError("spawn \(arguments[0])", String(cString: strerror(rc))) }
        return pid
    }

    /// Waits for the child `pid` (started at `start`) with `wait4`.
    static func wait(for pid: pid_t, name: String, since start: Double) throws(BenchError) -> ChildResult {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait \(name)", String(cString: strerror(errno))) }
        }
        let elapsed = now() - start
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildResult(
            status: exit, seconds: elapsed,
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), maxRSSBytes: Int64(usage.ru_maxrss) * 1024)
    }

    /// Sends SIGTERM to the child `pid` and waits for it.
    static func terminate(_ pid: pid_t, name: String) throws(BenchError) -> ChildResult {
        let start = now()
        _ = kill(pid, SIGTERM)
        return try wait(for: pid, name: name, since: start)
    }

    /// CPU seconds (user + system, every thread) a running process has used so far, from
    /// `/proc/PID/stat` (clock ticks); nil when it cannot be read.
    static func processCPUSeconds(_ pid: pid_t) -> Double? {
        guard let text = readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces, so it ends at the last ')'): state is
        // field 3, utime and stime fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func sleep(seconds: Double) { _ = usleep(UInt32(seconds * 1e6)) }

    @discardableResult
    static func runQuietly(_ arguments: [String]) -> Int32 {
        (try? run(arguments, stdoutPath: "/dev/null", stderrPath: "/dev/null").status) ?? -1
    }
}

/// How long a step took, on the wall clock and in CPU time: on a shared machine the CPU rate
/// (events / CPU seconds) says what the code costs whatever the load, the wall rate what a user
/// saw. Appends wait for fsync, so their CPU rate is only a bound.
struct Timing {
    var events: Int
    var wall: Double
    var cpu: Double
    var eps: Double { Double(events) / wall }
    var cpuEPS: Double { cpu > 0 ? Double(events) / cpu : 0 }

    /// Starts a measurement; `finish` ends it.
    static func start() -> (wall: Double, cpu: Double) { (System.now(), System.cpuSeconds()) }

    init(events: Int, since start: (wall: Double, cpu: Double)) {
        self.events = events
        wall = System.now() - start.wall
        cpu = System.cpuSeconds() - start.cpu
    }

    init(events: Int, wall: Double, cpu: Double) {
        self.events = events
        self.wall = wall
        self.cpu = cpu
    }
}

/// Medians and percentiles.
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile (`fraction` in 0...1).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}
