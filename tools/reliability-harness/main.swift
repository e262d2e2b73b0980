import Glibc

// A separate program the reliability tests start, kill with SIGKILL and race against `journal`:
// it appends to a journal through the EventStore library, the way an embedding application would.
//
//   reliability-harness append-batches --db PATH --first B --count N --batch-size K --threads T
//       Appends batches B..<B+N. Batch b holds K events: K-1 `ReliabilityProbe` events over
//       fresh streams and one on its thread's ledger stream with an exact expected version. Each
//       batch is one `append([StreamAppend])` (one transaction, shared with the other threads by
//       group commit). Prints `committed b` on stdout after each batch returns.
//   reliability-harness close-streams --db PATH --streams FILE --deadline-seconds S
//       For every stream of FILE (one per line, each a 3ds stream the tests import with 3
//       events), appends `TransactionClosed` expecting version 2, retrying until the importers
//       have written the stream; then once more with another id (a stale append that must
//       conflict) and once more with the same id (an idempotent retry). Prints one line per
//       attempt; exits 5 when any append conflicted (each conflict also on stderr), 1 on any
//       other failure or when the deadline passes.
//
// Exit codes follow the journal's: 0 success, 1 failure, 2 usage, 5 concurrency conflict.

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    guard let command = arguments.first else { throw HarnessError.usage("missing command") }
    let options = try HarnessOptions(Array(arguments.dropFirst()))
    switch command {
    case "append-batches":
        status = try BatchAppender(options).run()
    case "close-streams":
        status = try StreamCloser(options).run()
    default:
        throw HarnessError.usage("unknown command \(command)")
    }
} catch let error as HarnessError {
    Output.error("error: \(error.message)")
    status = error.status
} catch {
    Output.error("error: \(error)")
    status = 1
}
exit(status)
