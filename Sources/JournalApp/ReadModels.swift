import EventStore
import JournalCore
import Projections

/// The read models of a command: the projection engine it opens and its errors as the
/// command line reports them.
package enum ReadModels {
    /// The projection engine over the journal's own database: its SQLite file, or its
    /// PostgreSQL schema (the read models' own session; the store stays read-only).
    ///
    /// `--models FILE` keeps them in a SQLite file of the user's instead. A SQLite journal that
    /// is read-only (`JournalAccess.isReadOnly`: an auditor's copy) cannot hold them: they are
    /// then built from the log in a temporary database that lasts for this run
    /// (docs/decisions/read-models-of-a-read-only-journal.md).
    package static func openEngine(
        _ context: CommandContext, _ arguments: ParsedArguments,
        store: any EventStore
    ) throws -> ProjectionEngine {
        let journal = context.journalPath(arguments)
        let source = StoreEventSource(store: store)
        if let models = arguments.string("models") {
            try JournalAccess.checkLocation(.sqlite(path: models), writing: true)
            return try reporting { () throws(ProjectionError) in
                try ProjectionEngine(databasePath: models, source: source)
            }
        }
        if keepsNoReadModels(context, arguments) {
            return try reporting { () throws(ProjectionError) in try ProjectionEngine(temporaryFor: source) }
        }
        return try reporting { () throws(ProjectionError) in try ProjectionEngine(journal: journal, source: source) }
    }

    /// True when the read models of this run live in a temporary database: no `--models`, and a
    /// SQLite journal file that is read-only.
    package static func keepsNoReadModels(_ context: CommandContext, _ arguments: ParsedArguments) -> Bool {
        guard arguments.string("models") == nil,
            case let .sqlite(path) = JournalBackend(location: context.journalPath(arguments)), path != ":memory:"
        else { return false }
        return JournalAccess.isReadOnly(path)
    }

    /// Runs `body`, turning a `ProjectionError` into the cli's error (exit 1, or 5 when locked).
    package static func reporting<R>(_ body: () throws(ProjectionError) -> R) throws(CLIError) -> R {
        do {
            return try body()
        } catch {
            switch error.code {
            case .busy:
                throw CLIError(
                    .conflict, "the read models are locked by another process: \(error.message)",
                    hint: "wait for the other process to finish, then run the command again")
            case .database:
                throw CLIError(
                    .failure, error.message,
                    hint: "the read models can be rebuilt from the log: 'journal project --rebuild'")
            case .integrity:
                throw CLIError(.integrity, error.message, hint: "run 'journal verify' to check the whole journal")
            case .tooLarge:
                throw CLIError(
                    .failure, error.message,
                    hint: "narrow the window with --since and --until, or choose a longer --every")
            case .eventStore, .unknownName, .badEvent:
                throw CLIError(.failure, error.message)
            }
        }
    }
}

extension ReadModels {
    /// Runs `body` with the journal `arguments` name opened for reading and its projection
    /// engine (`openEngine`), closed after: what `query`, `find`, `report` and `project` share.
    package static func withEngine<R>(
        _ context: CommandContext, _ arguments: ParsedArguments,
        _ body: (any TransactionalEventStore, ProjectionEngine) throws -> R
    ) throws -> R {
        let store = try JournalAccess.openForReading(context, arguments)
        let engine = try openEngine(context, arguments, store: store)
        defer { engine.close() }
        return try body(store, engine)
    }
}
