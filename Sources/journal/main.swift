import EventStore
import JournalApp
import JournalCommandLine
import JournalCore

// The thin entry point: run the command line, then map whatever was thrown to `error:`/`hint:`
// lines on stderr and an exit code. Nothing else in the cli calls `exit`.

let context = CommandContext.process()
var status = ExitStatus.success
do {
    try JournalCLI.run(Array(CommandLine.arguments.dropFirst()), context: context)
} catch {
    let failure = reportable(error)
    try? context.stdout.flush()
    context.stderr.write(failure.rendered)
    status = failure.status
}
do {
    try context.stdout.flush()
} catch {
    context.stderr.write(error.rendered)
    if status == .success { status = .failure }
}
try? context.stderr.flush()
CurrentProcess.exit(status.rawValue)

/// The one place where failures become exit codes.
func reportable(_ error: any Error) -> CLIError {
    switch error {
    case let error as CLIError:
        return error
    case let error as EventStoreError:
        return reportable(error)
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

func reportable(_ error: EventStoreError) -> CLIError {
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
