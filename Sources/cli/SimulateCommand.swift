import JournalApp
import JournalCore
import Simulator

/// `journal simulate --seed N [--transactions N] [--digitizations N]`: a realistic synthetic
/// workload, appended to the journal (or written as NDJSON), the same bytes for the same arguments.
enum SimulateCommand {
    static let defaultTransactions: Int64 = 10_000
    static let defaultDigitizations: Int64 = 2_000

    static let spec = CommandSpec(
        name: "simulate",
        summary: "append a realistic, deterministic synthetic workload (3DS transactions, card digitizations)",
        options: [
            OptionSpec(
                name: "seed", value: .integer(placeholder: "N", minimum: 0),
                help: "the seed (required): the same seed, counts and profile give the same journal"),
            OptionSpec(
                name: "transactions", value: .integer(placeholder: "N", minimum: 0),
                help: "number of 3ds streams (default: \(defaultTransactions))"),
            OptionSpec(
                name: "digitizations", value: .integer(placeholder: "N", minimum: 0),
                help: "number of card streams (default: \(defaultDigitizations))"),
            OptionSpec(
                name: "profile", value: .choice(WorkloadProfile.builtInNames),
                help: "the built-in mix (default: default)"),
            OptionSpec(
                name: "profile-file", value: .text(placeholder: "FILE"),
                help: "a JSON profile whose figures replace those of the built-in profile"),
            OptionSpec(
                name: "start", value: .timeBound,
                help: "start of the simulated clock (default: 2026-11-29T08:00:00.000Z)"),
            OptionSpec(
                name: "ndjson", value: .flag,
                help: "write the events to stdout as NDJSON (the import envelope) instead of appending"),
            OptionSpec(
                name: "print-profile", value: .flag,
                help: "print the profile (every figure with its source) as JSON and exit"),
            OptionSpec(
                name: "batch-size", value: .integer(placeholder: "N", minimum: 1),
                help: "events per store transaction (default: \(SimulationAppender.defaultLoadBatchSize) "
                    + "loading a new journal, \(SimulationAppender.defaultBatchSize) otherwise)"),
            OptionSpec(
                name: "into-existing", value: .flag,
                help: "append to a journal that already holds events (refused without it)"),
            ProgressReporter.option,
            EvidenceFiles.signOption
        ],
        details: """
            Generates --transactions 3-D Secure transactions and --digitizations card
            digitization journeys through the domain's commands, so every event obeys the
            catalog's rules, and appends them in store transactions of --batch-size events.
            A SQLite journal that does not exist yet is loaded in one go: written beside its
            path (PATH.loading-XXXXXX), its id index built at the end, and renamed into place
            only when complete, so a failed or interrupted run leaves no journal at PATH.
            Journeys arrive as a Poisson process following the hour of the day, run
            concurrently (at most traffic.maxInFlight at once) with think times and network
            delays from the profile, and reach the journal interleaved in time; occurredAt is
            the device's clock, recordedAt the simulated journal clock. The whole export, hashes
            included, is the same for the same arguments on a fresh journal.

            Simulated events are fake, and a journal cannot be cleaned: every simulated event
            carries "simulated": true in its meta, and a journal that already holds events is
            refused (exit 1, nothing written) unless --into-existing is given.

            Every share and delay comes from a versioned profile whose figures cite their
            source (public figures, or assumptions marked [A]). --print-profile shows it;
            save it, change figures, and pass the file back with --profile-file (a file may
            hold any subset of the figures). Built-in profiles: \(WorkloadProfile.builtInNames.joined(separator: ", ")).

            When appending, progress (events appended, events/s; the event count is not known in
            advance) is shown on stderr when it is a terminal; --progress prints it as a plain
            line every few seconds and a final line.
            """,
        examples: [
            "journal simulate --seed 42",
            "journal simulate --seed 7 --transactions 1000000 --digitizations 200000 --db bench.db",
            "journal simulate --seed 1 --transactions 100 --digitizations 20 --ndjson > sample.ndjson",
            "journal simulate --seed 1 --profile europe --print-profile > mix.json"
        ],
        validate: { arguments throws(CLIError) in
            if arguments.flag("print-profile") { return }
            guard arguments.string("seed") != nil else {
                throw CLIError.usage("'journal simulate' needs --seed N", hint: "run 'journal simulate --help'")
            }
            if arguments.flag("ndjson") && arguments.string("batch-size") != nil {
                throw CLIError.usage("--batch-size applies to appending, not to --ndjson")
            }
            if arguments.flag("ndjson") && arguments.flag("into-existing") {
                throw CLIError.usage("--into-existing applies to appending, not to --ndjson")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let profile = try SimulateRun.profile(
            named: arguments.string("profile"), file: arguments.string("profile-file"))
        let signer = try EvidenceFiles.signer(arguments, context, option: "sign", environment: false)
        if arguments.flag("print-profile") {
            context.stdout.line(JSONWriter.string(profile.jsonValue))
            return
        }
        let simulation = try SimulateRun.simulation(
            seed: UInt64(arguments.integer("seed") ?? 0),
            transactions: Int(arguments.integer("transactions") ?? defaultTransactions),
            digitizations: Int(arguments.integer("digitizations") ?? defaultDigitizations), profile: profile,
            start: arguments.timeBound("start") ?? JourneyGenerator.defaultStart)
        if arguments.flag("ndjson") { return try SimulateRun.writeNDJSON(simulation, to: context.stdout) }
        // How many events the streams make is known only at the end: done and rate, no total.
        let summary = try SimulateRun.append(
            simulation, batchSize: arguments.integer("batch-size").map { Int($0) },
            intoExisting: arguments.flag("into-existing"), signer: signer,
            progress: ProgressReporter.make(arguments, context, verb: "simulating", unit: .events, total: nil),
            arguments: arguments, context: context)
        try summary.print(arguments.format, context)
        if let checkpoint = summary.checkpoint, arguments.format == .text {
            context.stdout.line(KeptCheckpoint.signedLine(checkpoint.kept))
        }
    }
}
