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

/// The one place where failures become exit codes (shared with the embedding front door).
func reportable(_ error: any Error) -> CLIError { CLIError.reporting(error) }
