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
        let format = arguments.format
        let mode =
            arguments.string("record").map(ReplayRecording.Mode.record)
            ?? arguments.string("against").map(ReplayRecording.Mode.against)
        if let path = arguments.string("bundle") {
            let bundle = try BundleStream(BundleCheckReport.verified(arguments, file: path))
            if case let .against(record) = mode {
                return try ReplayRecording.compare(bundle, against: record).print(format, context)
            }
            return try StreamReplayListing(bundle.stream, pages: bundle.page, untilPosition: until, format: format)
                .print(format, context)
        }
        let store = try JournalAccess.openForReading(context, arguments)
        let progress = { (total: Int64?) in
            ProgressReporter.make(arguments, context, verb: "replaying", unit: .events, total: total)
        }
        let report: any CommandReport
        if let name = arguments.positionals.first {
            let stream = try StreamArgument.existing(name, in: store)
            report = try StreamReplayListing(stream, in: store, untilPosition: until, format: format)
        } else if let mode {
            report = try ReplayRecording.replayAll(store, untilPosition: until, mode, progress: progress)
        } else {
            report = try ReplaySummary.replayAll(store, untilPosition: until, progress: progress)
        }
        try report.print(format, context)
    }

    /// `--record FILE` (with `--all`) and `--against FILE` (with `--all` or `--bundle`).
    private static func validateRecord(_ arguments: ParsedArguments, hint: String) throws(CLIError) {
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
}
