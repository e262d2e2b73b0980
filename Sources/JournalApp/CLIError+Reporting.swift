import EventStore

extension CLIError {
    /// The one place where failures become the errors a front end reports, with their exit
    /// statuses: the `journal` executable and the embedding front door (`JournalKit`) both map
    /// what was thrown through here, so a failure gets the same status whichever reports it.
    package static func reporting(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError:
            return error
        case let error as EventStoreError:
            return reporting(error)
        case let error as MirrorError:
            return CLIError(error.kind == .integrity ? .integrity : .failure, error.message)
        case let error as RestoreError:
            return CLIError(
                error.kind == .integrity ? .integrity : .failure, error.message,
                hint: "nothing was kept")
        default:
            return CLIError(.failure, "\(error)")
        }
    }

    /// A store's error as the command line reports it: exit 4 for integrity, 5 for a conflict
    /// or a lock held too long, 1 otherwise.
    package static func reporting(_ error: EventStoreError) -> CLIError {
        switch error.code {
        case .integrity:
            return CLIError(
                .integrity, error.message,
                hint: "run 'journal verify' for the first bad position")
        case .conflict:
            return CLIError(
                .conflict, "concurrency conflict: \(error.message)",
                hint: "another writer changed the journal; run the command again")
        case .busy:
            return CLIError(
                .conflict, error.message,
                hint: "wait for the other process to finish, then run the command again")
        case .missing:
            return CLIError(
                .failure, error.message,
                hint: "create one with 'journal import FILE' or 'journal simulate --seed 1', or pass --db PATH")
        case .notAJournal:
            return CLIError(.failure, error.message, hint: "check the --db path or $JOURNAL_DB")
        default:
            return CLIError(.failure, error.message)
        }
    }
}
