import Domain
import EventStore
import JournalApp
import JournalCore

/// A journal a Swift program opens and writes in-process, with the guarantees of the `journal`
/// command line: every append goes through the validation of `journal import` (the envelope,
/// the event catalog, the stream's rules, the sensitive-data guard, idempotency), in one write
/// transaction, all or nothing.
///
/// ```swift
/// let journal = try Journal(opening: "journal.db")
/// let summary = try journal.append(ndjson: lines)
/// let state = try journal.state(of: "3ds-…")
/// ```
///
/// A `Journal` is a thin front door over the libraries the commands use (`JournalApp`,
/// `EventStore`, `Projections`): what it returns is what the matching command prints with
/// `--format json`, and a failure is a ``JournalError`` with the command's exit status.
/// It may be shared between threads; its writes are serialised by the store.
public final class Journal: Sendable {
    /// Where the journal is: a SQLite file path, or a `postgres://` / `postgresql://` URL.
    public let location: String
    /// The store, for reads the front door does not cover. Appending through it directly
    /// bypasses the domain rules and the guard: append through ``append(ndjson:)`` instead.
    public let store: any TransactionalEventStore
    let clock: @Sendable () -> Timestamp
    let backend: JournalBackend

    /// Opens the journal at `location`, creating an empty one there when none is yet.
    ///
    /// - Parameters:
    ///   - location: a SQLite file path (its folder must exist), or a PostgreSQL URL
    ///     (`postgres://user@host/db`; the journal lives in its own schema).
    ///   - readOnly: open an existing journal for reading only; appends then fail.
    ///   - clock: the time stamped as `recordedAt` on appended events (inject a fixed clock for
    ///     byte-identical journals in tests). Defaults to the system clock.
    /// - Throws: ``JournalError`` with status `.failure` when the location cannot hold a
    ///   journal (a folder, an unwritable folder, a database that is not a journal) or, with
    ///   `readOnly`, when no journal is there.
    public init(
        opening location: String, readOnly: Bool = false, clock: (@Sendable () -> Timestamp)? = nil
    ) throws(JournalError) {
        let now = clock ?? SystemClock.now
        let backend = JournalBackend(location: location)
        self.location = location
        self.clock = now
        self.backend = backend
        self.store = try reported {
            try JournalAccess.checkLocation(backend, writing: !readOnly)
            let context = Self.context(clock: now)
            switch JournalAccess.open(backend, reading: readOnly, context) {
            case let .success(store):
                return store
            case let .failure(error) where error.code == .missing:
                throw CLIError(.failure, "no journal at \(backend.display)")
            case let .failure(error):
                throw error
            }
        }
    }

    /// The location as the journal's messages show it: a PostgreSQL URL without its password.
    public var displayLocation: String { backend.display }

    /// A command context for the layers below: no environment (the front door is configured by
    /// its arguments, not by `JOURNAL_*` variables), and output that is never written.
    static func context(clock: @escaping @Sendable () -> Timestamp) -> CommandContext {
        CommandContext(
            environment: [:], stdout: OutputSink(descriptor: 1), stderr: OutputSink(descriptor: 2),
            stderrIsTerminal: false, now: clock)
    }
}
