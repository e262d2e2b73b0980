import JournalCore

// `bench`: the release-mode benchmark suite. See BENCHMARKS.md and `bench --help`.
do {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    try Bench(options: options).run()
} catch let error as BenchError where error.step == "usage" {
    if error.reason != "help" { System.printError("error: \(error.reason)") }
    System.printError(BenchOptions.usage)
    CurrentProcess.exit(error.reason == "help" ? 0 : 2)
} catch {
    System.printError("error: \(error)")
    CurrentProcess.exit(1)
}
