import EventStore
import JournalApp
import JournalCore

/// `journal replay STREAM | --all [--until-position P]`: rebuild aggregates event by event.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "rebuild aggregates event by event; --all checks every stream and prints a digest",
        positionals: [PositionalSpec(name: "STREAM", help: "the stream to replay (or --all)", isRequired: false)],
        options: [
            OptionSpec(name: "all", value: .flag, help: "replay every stream; print a digest of all final states"),
            OptionSpec(
                name: "until-position", value: .integer(placeholder: "P", minimum: 0),
                help: "stop after position P (P included)"),
            ProgressReporter.option,
            OptionSpec(
                name: "bundle", value: .text(placeholder: "FILE"),
                help: "replay the stream of a bundle, checked with --key first; no journal is opened"),
            EvidenceFiles.verifierKeyOption,
            WitnessKeys.keyOption,
            WitnessKeys.quorumOption,
            OptionSpec(
                name: "record", value: .text(placeholder: "FILE"),
                help: "with --all: also write a record of every stream's states to FILE (mode 0600)"),
            OptionSpec(
                name: "against", value: .text(placeholder: "FILE"),
                help: "with --all or --bundle: compare with a record; exit 6 when anything differs")
        ],
        details: """
            Folds the stored events through the current domain rules, one by one. For a STREAM it
            prints every step (version, position, occurredAt, type, the state after it) and the
            final state. With --all it checks every stream and prints the SHA-256 digest of all
            final states, in stream-name order: the same log gives the same output, byte for
            byte, on every run and machine.

            A stream whose stored events no longer fold (a rule changed, say) is reported with
            the first failing version and the reason, and the exit code is 6. An event whose
            stored hash does not check stops the replay with exit 4, naming its position.

            --bundle FILE --key VKEY replays a bundle ('journal bundle') without the journal:
            the bundle is checked as 'journal check' does (exit 4 on any failure), then its
            stream is replayed with exactly the output 'journal replay STREAM' gives on the
            journal it came from. --witness-key VKEY and --quorum N also require the
            bundle's checkpoint to carry valid cosignatures of N of those witnesses.

            --record FILE (with --all) also writes a record of the replay: each stream's state
            after each version, and the rules identifier ('journal --version'). --against FILE
            replays and compares with such a record, stream by stream and version by version:
            it prints 'compared S streams: C changed, A only now, R only then (rules THEN →
            NOW)', then each changed stream at its first differing version with each field that
            differs (before → after), or how a side fails there; exit 0 when nothing differs, 6
            when something does. See docs/replay.md.

            With --all, progress (events replayed of the journal's events, events/s, time left)
            is shown on stderr when it is a terminal; --progress prints it as a plain line every
            few seconds and a final line.
            """,
        examples: [
            "journal replay 3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",
            "journal replay --all --until-position 5000 --format json",
            "journal replay --bundle evidence.json --key journal.vkey",
            "journal replay --all --record before.rec",
            "journal replay --all --against before.rec"
        ],
        validate: { arguments throws(CLIError) in
            let hint = "run 'journal replay --help'"
            try WitnessKeys.validate(arguments)
            if arguments.integer("quorum") != nil && arguments.string("bundle") == nil {
                throw CLIError.usage("--witness-key and --quorum go with --bundle", hint: hint)
            }
            try validateRecord(arguments, hint: hint)
            if arguments.string("bundle") != nil {
                guard arguments.positionals.isEmpty, !arguments.flag("all") else {
                    throw CLIError.usage(
                        "--bundle replays the bundle's stream: give no STREAM and no --all", hint: hint)
                }
                guard arguments.string("key") != nil else {
                    throw CLIError.usage("--bundle needs the verifier key: --key VKEY", hint: hint)
                }
                return
            }
            if arguments.string("key") != nil { throw CLIError.usage("--key goes with --bundle", hint: hint) }
            switch (arguments.positionals.first, arguments.flag("all")) {
            case (nil, false): throw CLIError.usage("give a STREAM or --all", hint: hint)
            case (.some, true): throw CLIError.usage("give a STREAM or --all, not both", hint: hint)
            case let (.some(stream), false): try StreamArgument.check(stream)
            case (nil, true): break
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let until = arguments.integer("until-position") ?? .max
        if let path = arguments.string("bundle") {
            let verified = try CheckCommand.verified(arguments, file: path)
            let events = try verified.events.map { event throws(CLIError) in try RecordedEvent(leaf: event.object) }
            let stream = try StreamName(verified.stream)
            if let record = arguments.string("against") {
                try compare(bundle: events, stream: stream, record: record, arguments: arguments, context: context)
                return
            }
            try replayOne(
                stream,
                pages: { version, limit in
                    let start = Int(clamping: max(0, version))
                    return start < events.count ? Array(events[start..<min(events.count, start + limit)]) : []
                }, until: until, arguments: arguments, context: context)
            return
        }
        let store = try JournalAccess.openForReading(context, arguments)
        if let name = arguments.positionals.first {
            let stream = try StreamArgument.existing(name, in: store)
            try replayOne(
                stream,
                pages: { version, limit in
                    try store.read(stream: stream, from: version, direction: .forward, limit: limit)
                }, until: until, arguments: arguments, context: context)
        } else if arguments.string("record") != nil || arguments.string("against") != nil {
            try replayAgainstRecord(store: store, until: until, arguments: arguments, context: context)
        } else {
            try replayAll(store: store, until: until, arguments: arguments, context: context)
        }
    }

    /// Prints every step of one stream's fold: the events come from the journal, or from a
    /// checked bundle (`replay --bundle`), with the same output.
    static func replayOne(
        _ stream: StreamName, pages: (_ fromVersion: Int64, _ limit: Int) throws -> [RecordedEvent],
        until: Int64, arguments: ParsedArguments, context: CommandContext
    ) throws {
        var steps: [JSONValue] = []
        var rows: [[String]] = [["version", "position", "occurredAt", "type", "state after"]]
        let outcome = try StreamReplay.fold(stream, pages: pages, untilPosition: until) { event, fold in
            switch arguments.format {
            case .json:
                steps.append(StreamReplay.stepJSON(event, fold))
            case .text:
                rows.append([
                    String(event.version), String(event.position), event.occurredAt.description, event.type,
                    fold.stepDescription
                ])
            }
        }
        switch arguments.format {
        case .json:
            context.stdout.line(JSONWriter.string(StreamReplay.json(stream, outcome, steps: steps)))
        case .text:
            context.stdout.line("replay of \(stream): \(outcome.events) events")
            for line in TextRendering.table(rows, rightAligned: [0, 1]) { context.stdout.line("  " + line) }
            if let failure = outcome.failure {
                context.stdout.line(
                    "  FAILS at version \(failure.version) (position \(failure.position)): "
                        + failure.reason)
            }
            context.stdout.line(outcome.failure == nil ? "final state:" : "state before the failure:")
            for line in TextRendering.keyValueLines(outcome.summary) { context.stdout.line(line) }
        }
        if let failure = outcome.failure {
            throw CLIError(.replayFailed, "\(stream) no longer folds at version \(failure.version): \(failure.reason)")
        }
    }

    private static func replayAll(
        store: any EventStore, until: Int64, arguments: ParsedArguments,
        context: CommandContext
    ) throws {
        let head = try store.headPosition()
        let progress = ProgressReporter.make(
            arguments, context, verb: "replaying", unit: .events,
            total: min(head, until))
        var report = ReplayReport()
        defer {
            let done = Int64(report.events)
            progress?.finish(done: done, events: done)
        }
        try report.replay(store, untilPosition: until) { done in progress?.update(done: done, events: done) }
        try printReport(report, until: until, arguments: arguments, context: context)
    }

    /// Prints what `replay --all` found (exit 6 when a stream no longer folds).
    static func printReport(
        _ report: ReplayReport, until: Int64, arguments: ParsedArguments, context: CommandContext
    ) throws {
        let streams = report.streams
        let events = report.events
        let failures = report.failures
        let hex = report.finish()
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["ok"] = .bool(failures.isEmpty)
            object["streams"] = .number(JSONNumber(streams))
            object["events"] = .number(JSONNumber(events))
            if until != .max { object["untilPosition"] = .number(JSONNumber(until)) }
            object["failures"] = .array(
                failures.map { item in
                    var failure = JSONObject()
                    failure["stream"] = .string(item.stream.rawValue)
                    failure["version"] = .number(JSONNumber(item.failure.version))
                    failure["position"] = .number(JSONNumber(item.failure.position))
                    failure["reason"] = .string(item.failure.reason)
                    return .object(failure)
                })
            object["digest"] = .string("sha256:" + hex)
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let scope = until == .max ? "" : " up to position \(until)"
            let streamCount = streams == 1 ? "1 stream" : "\(streams) streams"
            let failed = failures.count == 1 ? "1 no longer folds" : "\(failures.count) no longer fold"
            context.stdout.line(
                "replayed \(streamCount), \(events) events\(scope): "
                    + (failures.isEmpty ? "every stream folds" : failed))
            for item in failures {
                context.stdout.line(
                    "  FAILS \(item.stream) at version \(item.failure.version) "
                        + "(position \(item.failure.position)): \(item.failure.reason)")
            }
            context.stdout.line("digest of all final states: sha256:\(hex)")
        }
        if !failures.isEmpty {
            throw CLIError(
                .replayFailed,
                failures.map {
                    "\($0.stream) no longer folds at version \($0.failure.version): "
                        + $0.failure.reason
                },
                hints: ["'journal replay STREAM' shows every step up to the failure"])
        }
    }
}
