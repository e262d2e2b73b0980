import JournalApp

/// A failure of the front door, with the exit status `journal` gives the same failure, the
/// lines it prints after `error:` and `hint:`, and, for rejected input, each invalid line.
///
/// Messages never carry a payload's values: a card number or a value under a forbidden key is
/// masked (`[redacted]`) in every text here, as in the command line's reports.
public struct JournalError: Error, Sendable, CustomStringConvertible {
    /// The exit statuses of the `journal` command line (docs/cli.md, "Exit codes").
    public enum Status: Int32, Sendable {
        /// Any other failure: a missing journal, an I/O error, a database that is not a journal.
        case failure = 1
        /// A bad argument: a malformed stream name, a query name that does not exist.
        case usage = 2
        /// At least one line or event was rejected; nothing was written.
        case inputRejected = 3
        /// The hash chain, positions or versions do not check, or evidence does not verify.
        case integrity = 4
        /// Another writer changed the stream, or held the lock too long.
        case conflict = 5
        /// A stream's stored events no longer fold under the current rules.
        case replayFailed = 6
    }

    /// One rejected line or event, as `journal import` reports it.
    public struct Rejection: Sendable, Equatable {
        /// The line's number in the input (1 for the first), or the event's index plus one.
        public var line: Int
        /// The identifier of the rule the line breaks: `json`, `envelope.unknown-key`,
        /// `sensitive-data`, `3ds.request-counter`, … (docs/import.md).
        public var rule: String
        /// The stream the line names, when it could be read.
        public var stream: String?
        /// The event type the line names, when it could be read.
        public var type: String?
        /// Why the line was rejected, masked.
        public var reason: String

        /// The text `journal import` prints after `error: `: `line N: <stream> <type>: <reason>`.
        public var message: String
    }

    /// The exit status `journal` gives this failure.
    public var status: Status
    /// The `error:` lines of the command line, without the prefix.
    public var messages: [String]
    /// The `hint:` lines of the command line, without the prefix.
    public var hints: [String]
    /// The rejected lines of an append (the first 1,000), in input order; empty otherwise.
    public var rejections: [Rejection]

    /// The process exit code of ``status``.
    public var exitCode: Int32 { status.rawValue }

    /// The messages, one per line.
    public var description: String { messages.joined(separator: "\n") }

    init(status: Status, messages: [String], hints: [String] = [], rejections: [Rejection] = []) {
        self.status = status
        self.messages = messages
        self.hints = hints
        self.rejections = rejections
    }

    /// Whatever the layers below threw, reported as the command line reports it.
    init(_ error: any Error) {
        if let error = error as? JournalError {
            self = error
            return
        }
        let reported = CLIError.reporting(error)
        self.init(status: Status(reported.status), messages: reported.messages, hints: reported.hints)
    }
}

extension JournalError.Status {
    init(_ status: ExitStatus) {
        switch status {
        case .success, .failure: self = .failure
        case .usage: self = .usage
        case .inputRejected: self = .inputRejected
        case .integrity: self = .integrity
        case .conflict: self = .conflict
        case .replayFailed: self = .replayFailed
        }
    }
}

/// Runs `body`, turning whatever it throws into a ``JournalError``.
func reported<R>(_ body: () throws -> R) throws(JournalError) -> R {
    do {
        return try body()
    } catch {
        throw JournalError(error)
    }
}
