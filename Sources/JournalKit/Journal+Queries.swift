import EventStore
import JournalApp
import JournalCore
import Projections

extension Journal {
    /// Runs the read-model query `name` (`3ds-outcomes`, `challenge-funnel`, … of docs/queries.md)
    /// and returns its JSON, byte for byte what `journal query NAME --format json` prints.
    ///
    /// The read models are brought up to date from the log first and kept in the journal's own
    /// database (its SQLite file, or its PostgreSQL schema), as the command keeps them.
    ///
    /// - Parameters:
    ///   - since: events that occurred at or after this time only (default: from the first).
    ///   - until: events that occurred before this time only (default: to the last).
    /// - Throws: ``JournalError``: `.usage` for an unknown name, `.conflict` when another process
    ///   holds the read models, `.failure` otherwise.
    public func query(_ name: String, since: Timestamp? = nil, until: Timestamp? = nil) throws(JournalError)
        -> String
    {
        try reported {
            guard let query = QueryName(rawValue: name) else {
                throw CLIError.usage(
                    "unknown query '\(TextRendering.printable(name))'",
                    hint: "the queries are " + QueryName.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let engine = try ReadModels.openEngine(
                Self.context(clock: clock), ParsedArguments(command: "query", options: ["db": location]), store: store)
            defer { engine.close() }
            let output = try ReadModels.reporting { () throws(ProjectionError) in
                try engine.run(query, window: QueryWindow(since: since, until: until))
            }
            return output.json
        }
    }
}
