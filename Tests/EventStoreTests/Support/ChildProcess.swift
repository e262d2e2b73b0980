#if canImport(Glibc)
    import Glibc
#endif

/// A child process of a test, with its output in a file.
struct ChildProcess {
    let pid: pid_t
    let outputPath: String

    /// The folder of the test binary: SwiftPM puts the package's executables next to it.
    static var productsDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "."
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    static func spawn(_ arguments: [String], output: String) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard rc == 0 else { throw SpawnError(description: "cannot start \(arguments[0]): errno \(rc)") }
        return ChildProcess(pid: pid, outputPath: output)
    }

    /// Waits for the exit; returns the exit status (-1 when killed by a signal) and the output.
    func wait() -> (status: Int32, output: String) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        var output = ""
        if let file = fopen(outputPath, "r") {
            var buffer = [CChar](repeating: 0, count: 4096)
            while fgets(&buffer, Int32(buffer.count), file) != nil {
                output += String(
                    decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            fclose(file)
        }
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : -1, output)
    }

    struct SpawnError: Error, CustomStringConvertible { let description: String }
}
