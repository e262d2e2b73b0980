import EventStore
import JournalCore

/// Opens the journal file the way each kind of command needs it. The only file that knows the
/// store's concrete type.
enum JournalAccess {
    /// For commands that only read: a missing file is an error (exit 1), never created.
    static func openForReading(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> any TransactionalEventStore {
        let path = context.journalPath(arguments)
        throw CLIError(.failure, "cannot open \(path): the SQLite store is not merged into this branch yet")
    }

    /// For commands that write: a missing file is created.
    static func openForWriting(_ context: CommandContext, _ arguments: ParsedArguments) throws
        -> any TransactionalEventStore {
        let path = context.journalPath(arguments)
        throw CLIError(.failure, "cannot open \(path): the SQLite store is not merged into this branch yet")
    }
}
