import CSpawn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program run by this process (`posix_spawn`), its standard input `/dev/null` and its
/// output and errors appended to a file: the PostgreSQL server programs. The test support's one
/// direct use of the C library (`posix_spawn_file_actions_addclosefrom_np` comes from CSpawn,
/// whose header would change the C library's types for all of JournalCore).
enum ChildProgram {
    /// Runs `arguments` (the program's path first) with this process's environment; with
    /// `wait`, waits for it and returns its exit status (-1 when it did not exit normally), else
    /// returns 0 at once. -1 when the program cannot be started.
    static func run(_ arguments: [String], output: String, wait: Bool = true) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process reaches the child: a server (or its watchdog) that
        // inherited the write end of another child's output pipe, opened by another thread at
        // the same moment, would keep that pipe open and its reader waiting forever.
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
}
