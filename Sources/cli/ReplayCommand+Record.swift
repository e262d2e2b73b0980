import EventStore
import JournalApp
import JournalCore
import Projections

/// `replay --all --record FILE` and `replay --all|--bundle … --against FILE` (spec §12): the
/// engine is ``ReplayRun`` (Projections); this file parses and prints.
extension ReplayCommand {
    static func validateRecord(_ arguments: ParsedArguments, hint: String) throws(CLIError) {
        let record = arguments.string("record")
        let against = arguments.string("against")
        if record != nil, against != nil {
            throw CLIError.usage("give --record or --against, not both", hint: hint)
        }
        if record != nil, !arguments.flag("all") || arguments.string("bundle") != nil {
            throw CLIError.usage("--record goes with --all", hint: hint)
        }
        if against != nil, !arguments.flag("all"), arguments.string("bundle") == nil {
            throw CLIError.usage("--against goes with --all or --bundle", hint: hint)
        }
        for path in [record, against].compactMap({ $0 }) where path.isEmpty {
            throw CLIError.usage("the record's FILE is empty", hint: hint)
        }
    }

    /// `--all` with `--record` or `--against`: one pass over the log.
    static func replayAgainstRecord(
        store: any EventStore, until: Int64, arguments: ParsedArguments, context: CommandContext
    ) throws {
        guard let scanning = store as? any EventScanning else {
            throw CLIError(.failure, "this journal's store cannot be scanned in one pass")
        }
        let run = try makeRun(arguments)
        let head = try store.headPosition()
        let progress = ProgressReporter.make(
            arguments, context, verb: "replaying", unit: .events, total: min(head, until))
        var scan = ReplayLogScan(store: scanning)
        do {
            // Up to the head as it is now: a stream's recorded end, read later, is then its last
            // event within the scan, whatever is appended meanwhile.
            try scan.feed(run, untilPosition: min(until, head)) { position in
                progress?.update(done: position, events: position)
            }
        } catch {
            run.abandon()
            progress?.finish(done: run.events, events: run.events)
            throw error
        }
        progress?.finish(done: run.events, events: run.events)
        if arguments.string("record") != nil {
            do {
                try run.finishRecord()
            } catch {
                throw CLIError(.failure, error.description)
            }
            let report: ReplayReport
            do {
                report = try ReplayReport(finalOutcomesOf: run)
            } catch let error as ReplayRecordError {
                throw CLIError(.failure, error.description)
            }
            try printReport(report, until: until, arguments: arguments, context: context)
        } else {
            try printComparison(run, arguments: arguments, context: context)
        }
    }

    /// `--bundle FILE --key VKEY --against RECORD`: the bundle's stream, checked, against the record.
    static func compare(
        bundle events: [RecordedEvent], stream: StreamName, record: String, arguments: ParsedArguments,
        context: CommandContext
    ) throws {
        let run = try makeRun(arguments, only: stream.rawValue)
        for event in events {
            let fed = event.data.withUnsafeBytes { data in
                Result { () throws(ReplayRecordError) in
                    try run.feed(
                        key: 0, name: { stream.rawValue }, position: event.position, type: event.type, data: data,
                        occurredAt: event.occurredAt)
                }
            }
            if case let .failure(error) = fed { throw CLIError(.failure, error.description) }
        }
        try printComparison(run, arguments: arguments, context: context)
    }

    private static func makeRun(_ arguments: ParsedArguments, only: String? = nil) throws(CLIError)
        -> ReplayRun<StreamFold>
    {
        do {
            if let path = arguments.string("record") {
                return try ReplayRun(.record(path: path), rules: RulesIdentifier.current)
            }
            return try ReplayRun(
                .compare(path: arguments.string("against") ?? ""), rules: RulesIdentifier.current, only: only)
        } catch {
            throw CLIError(.failure, error.description)
        }
    }

    private static func printComparison(
        _ run: ReplayRun<StreamFold>, arguments: ParsedArguments, context: CommandContext
    ) throws {
        let comparison: ReplayComparison
        do {
            comparison = try run.finishComparison()
        } catch {
            throw CLIError(.failure, error.description)
        }
        switch arguments.format {
        case .json: context.stdout.line(JSONWriter.string(.object(comparison.json())))
        case .text: for line in comparison.textLines() { context.stdout.line(line) }
        }
        guard comparison.isSame else {
            throw CLIError(
                .replayFailed,
                "the replay differs from the record: \(comparison.changed) changed, "
                    + "\(comparison.onlyNow.count) only now, \(comparison.onlyThen.count) only then",
                hint: "each changed stream's steps: 'journal replay STREAM'")
        }
    }
}
