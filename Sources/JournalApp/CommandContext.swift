import JournalCore

/// What a command may touch outside its arguments: the environment, the standard streams and
/// the clock. `main` builds the real one; nothing else reads globals.
package final class CommandContext {
    package let environment: ProcessEnvironment
    package let stdout: OutputSink
    package let stderr: OutputSink
    /// True when stderr is a terminal (progress is shown without `--progress` only then).
    package let stderrIsTerminal: Bool
    /// The wall clock, for `recordedAt`.
    package let now: @Sendable () -> Timestamp
    /// A monotonic clock in nanoseconds, for progress rates and estimates (never in output that
    /// tests compare).
    package let monotonicNanoseconds: @Sendable () -> Int64

    package init(
        environment: ProcessEnvironment, stdout: OutputSink, stderr: OutputSink, stderrIsTerminal: Bool,
        now: @escaping @Sendable () -> Timestamp,
        monotonicNanoseconds: @escaping @Sendable () -> Int64 = SystemClock.monotonicNanoseconds
    ) {
        self.environment = environment
        self.stdout = stdout
        self.stderr = stderr
        self.stderrIsTerminal = stderrIsTerminal
        self.now = now
        self.monotonicNanoseconds = monotonicNanoseconds
    }

    /// `--db PATH`, else `$JOURNAL_DB`, else `journal.db` in the current folder.
    package func journalPath(_ arguments: ParsedArguments) -> String {
        if let path = arguments.string("db") { return path }
        if let path = environment["JOURNAL_DB"], !path.isEmpty { return path }
        return "journal.db"
    }

    /// The real process context.
    package static func process() -> CommandContext {
        CommandContext(
            environment: .process, stdout: OutputSink(descriptor: 1),
            stderr: OutputSink(descriptor: 2, capacity: 1 << 12),
            stderrIsTerminal: FileDescriptor.standardError.isTerminal, now: SystemClock.now)
    }
}
