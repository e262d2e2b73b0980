/// The process exit codes of spec §4, plus the one this implementation adds for `replay`.
package enum ExitStatus: Int32, Sendable {
    case success = 0
    /// Any other failure: a missing journal, an I/O error, a database that is not a journal.
    case failure = 1
    /// An unknown command, option or query name, a bad option value: checked before any journal
    /// is opened.
    case usage = 2
    /// `import` rejected at least one line.
    case inputRejected = 3
    /// The hash chain, positions or versions do not check.
    case integrity = 4
    /// Another writer changed a stream we expected at a given version, or held the lock too long.
    case conflict = 5
    /// `replay`: a stream's stored events no longer fold under the current rules (added here;
    /// documented in docs/cli.md).
    case replayFailed = 6
}
