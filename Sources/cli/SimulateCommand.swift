import EventStore
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
        let profile = try loadProfile(arguments)
        let signer = try EvidenceFiles.signer(arguments, context, option: "sign", environment: false)
        if arguments.flag("print-profile") {
            context.stdout.line(JSONWriter.string(profile.jsonValue))
            return
        }
        let seed = UInt64(arguments.integer("seed") ?? 0)
        let transactions = Int(arguments.integer("transactions") ?? defaultTransactions)
        let digitizations = Int(arguments.integer("digitizations") ?? defaultDigitizations)
        let start = arguments.timeBound("start") ?? JourneyGenerator.defaultStart
        let simulation: Simulation
        do {
            simulation = try Simulation(
                seed: seed, transactions: transactions, digitizations: digitizations,
                profile: profile, start: start)
        } catch {
            throw CLIError(.failure, "profile \(profile.name): \(error)")
        }

        if arguments.flag("ndjson") {
            var line: [UInt8] = []
            line.reserveCapacity(1 << 10)
            var writer = EnvelopeWriter()
            while let event = simulation.next() {
                line.removeAll(keepingCapacity: true)
                writer.write(event, into: &line)
                line.append(UInt8(ascii: "\n"))
                context.stdout.write(bytes: line)
            }
            try context.stdout.flush()
            return
        }

        // The store chooses: a new SQLite journal is loaded in one go (it appears complete or
        // not at all); an existing one, or PostgreSQL, gets ordinary appends.
        let store: any BatchAppending
        let load: (any BatchLoadWriting)?
        switch try JournalAccess.openForBulkAppend(context, arguments) {
        case let .load(newJournal):
            (store, load) = (newJournal, newJournal)
        case let .store(existing):
            try refuseRealJournal(existing, arguments, context)
            (store, load) = (existing, nil)
        }
        let batchSize =
            arguments.integer("batch-size").map { Int($0) }
            ?? (load == nil ? SimulationAppender.defaultBatchSize : SimulationAppender.defaultLoadBatchSize)
        let appender = SimulationAppender(batchSize: batchSize)
        // How many events the streams make is known only at the end: done and rate, no total.
        let progress = ProgressReporter.make(arguments, context, verb: "simulating", unit: .events, total: nil)
        let report = try appender.append(simulation, to: store) { events in
            progress?.update(done: Int64(events), events: Int64(events))
        }
        if let load {
            if progress?.style == .redrawn && report.events >= 200_000 {
                progress?.clear()
                context.stderr.write("\rbuilding the indexes of \(report.events) events…")
                try? context.stderr.flush()
            }
            try load.finish()
            if progress?.style == .redrawn && report.events >= 200_000 {
                context.stderr.write("\r\u{1B}[K")
                try? context.stderr.flush()
            }
        }
        progress?.finish(done: Int64(report.events), events: Int64(report.events))
        // Signed once the events are committed (a new journal is in place only after `finish`).
        let checkpoint = try signer.map { signer in
            (try JournalEvidence.sign(JournalAccess.openForWriting(context, arguments), with: signer), signer.name)
        }
        summarize(simulation, report, arguments: arguments, context: context, checkpoint: checkpoint)
    }

    /// Fake events must not mix into a real journal by accident (`$JOURNAL_DB` or `./journal.db`
    /// is the default, and nothing can be removed from a journal): one that already holds events
    /// is refused unless the user says `--into-existing`.
    private static func refuseRealJournal(
        _ store: any EventStore, _ arguments: ParsedArguments,
        _ context: CommandContext
    ) throws {
        guard !arguments.flag("into-existing") else { return }
        let head = try store.headPosition()
        guard head > 0 else { return }
        let location = JournalBackend(location: context.journalPath(arguments)).display
        throw CLIError(
            .failure,
            "\(location) already holds \(head) events; simulated events would mix into it "
                + "for good (a journal cannot be cleaned). Nothing was written",
            hint: "simulate into a new journal with --db PATH, or pass --into-existing to append anyway")
    }

    /// `--profile NAME` (or the file's `base`, or `default`), with `--profile-file`'s figures.
    private static func loadProfile(_ arguments: ParsedArguments) throws(CLIError) -> WorkloadProfile {
        let name = arguments.string("profile")
        guard let path = arguments.string("profile-file") else {
            // The parser only accepts built-in names.
            return WorkloadProfile.builtIn(named: name ?? "default") ?? .realistic
        }
        let bytes = try WholeFile.read(path, what: "profile file", maxBytes: 1 << 20, status: .usage)
        do {
            return try WorkloadProfile.load(file: bytes, sourceLabel: "profile file \(path)", base: name)
        } catch {
            throw CLIError(
                .usage, "profile file \(TextRendering.printable(path)): \(error)",
                hint: "'journal simulate --print-profile' prints a complete profile to start from")
        }
    }

    private static func summarize(
        _ simulation: Simulation, _ report: SimulationAppender.Report,
        arguments: ParsedArguments, context: CommandContext,
        checkpoint: (kept: StoredCheckpoint, origin: String)?
    ) {
        let statistics = simulation.statistics
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["seed"] = .number(JSONNumber(Int64(bitPattern: simulation.seed)))
            object["profile"] = .string(simulation.profile.name)
            object["transactions"] = .number(JSONNumber(statistics.transactions))
            object["digitizations"] = .number(JSONNumber(statistics.digitizations))
            object["events"] = .number(JSONNumber(report.events))
            object["written"] = .number(JSONNumber(report.written))
            object["storeTransactions"] = .number(JSONNumber(report.transactions))
            object["peakInFlight"] = .number(JSONNumber(statistics.peakInFlight))
            object["deferredArrivals"] = .number(JSONNumber(statistics.deferredArrivals))
            object["firstRecordedAt"] = statistics.firstRecordedAt.map { .string($0.description) } ?? .null
            object["lastRecordedAt"] = statistics.lastRecordedAt.map { .string($0.description) } ?? .null
            object["outcomes"] = .object(sortedCounts(statistics.outcomes))
            object["eventTypes"] = .object(sortedCounts(statistics.eventTypes))
            if let checkpoint {
                object["checkpoint"] = .object(
                    JournalEvidence.checkpointJSON(checkpoint.kept, origin: checkpoint.origin))
            }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let out = context.stdout
            let duplicates = report.events - report.written
            out.line(
                "simulated \(TextRendering.counted(statistics.transactions, "3DS transaction")) and "
                    + "\(TextRendering.counted(statistics.digitizations, "card digitization")) "
                    + "(seed \(simulation.seed), profile \(simulation.profile.name)): "
                    + "\(TextRendering.counted(report.written, "event")) appended"
                    + " in \(TextRendering.counted(report.transactions, "store transaction"))"
                    + (duplicates > 0 ? " (\(duplicates) were already in the journal)" : ""))
            if let first = statistics.firstRecordedAt, let last = statistics.lastRecordedAt {
                out.line("  simulated time  \(first) … \(last)")
            }
            out.line(
                "  concurrency     at most \(statistics.peakInFlight) journeys in flight"
                    + (statistics.deferredArrivals > 0
                        ? ", \(statistics.deferredArrivals) arrivals waited for a slot" : ""))
            for category in ["3ds", "card"] {
                let entries = sortedCounts(statistics.outcomes).entries.filter { $0.key.hasPrefix(category + ".") }
                guard !entries.isEmpty else { continue }
                let text = entries.map { entry in
                    "\(entry.key.dropFirst(category.count + 1)) \(statistics.outcomes[entry.key] ?? 0)"
                }.joined(separator: ", ")
                out.line("  \(category == "3ds" ? "3DS outcomes " : "card outcomes")   \(text)")
            }
            if let checkpoint { CheckpointCommand.printSigned(checkpoint.kept, context) }
        }
    }

    private static func sortedCounts(_ counts: [String: Int]) -> JSONObject {
        var object = JSONObject()
        for key in counts.keys.sorted() {
            object.appendUnchecked(key: key, value: .number(JSONNumber(counts[key] ?? 0)))
        }
        return object
    }
}
