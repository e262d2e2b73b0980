import JournalApp
import JournalCore
import Projections

/// `journal find [filters] [--limit N] [--format text|json|csv]`: the streams that match, from
/// the `streams` read model (caught up with the log first), never by scanning the log.
enum FindCommand {
    static let defaultLimit: Int64 = 100

    static let spec = CommandSpec(
        name: "find",
        summary: "find streams by start time, category, outcome, directory server or ids",
        options: [
            OptionSpec(name: "since", value: .timeBound, help: "streams that started at T or later"),
            OptionSpec(name: "until", value: .timeBound, help: "streams that started before T (T excluded)"),
            OptionSpec(
                name: "category", value: .choice(StreamFilter.categoryNames),
                help: "3ds transactions or card digitizations only"),
            OptionSpec(
                name: "outcome", value: .text(placeholder: "NAME"),
                help: "how the stream ended, 'open', or an open stream's state (names above)"),
            OptionSpec(
                name: "ds", value: .text(placeholder: "RID"),
                help: "3DS directory server ID (TransactionCreated.directoryServerID)"),
            OptionSpec(
                name: "server-trans-id", value: .text(placeholder: "ID"),
                help: "AuthResponseReceived.threeDSServerTransID"),
            OptionSpec(name: "acs-trans-id", value: .text(placeholder: "ID"), help: "AuthResponseReceived.acsTransID"),
            OptionSpec(
                name: "digital-card-id", value: .text(placeholder: "ID"),
                help: "DigitizationApproved(WithIDV).digitalCardID"),
            OptionSpec(
                name: "correlation-id", value: .text(placeholder: "ID"),
                help: "meta.correlationId of any of the stream's events"),
            OptionSpec(
                name: "limit", value: .integer(placeholder: "N", minimum: 1),
                help: "print at most N streams (default \(defaultLimit))"),
            OptionSpec(
                name: "format", value: .choice(["text", "json", "csv"]),
                help: "text, aligned for a person (default), json, or csv"),
            ReadModels.modelsOption
        ],
        printsResults: false, // takes its own --format, with csv
        details: """
            Prints the streams that match every filter given, one per line, ordered by start
            time (the occurredAt of the stream's first event), then stream name: the stream,
            when it started, its outcome and its number of events. --since and --until filter
            on the start time (T is YYYY-MM-DDTHH:MM:SS.sssZ or a date YYYY-MM-DD, midnight
            UTC). Ids are compared exactly as written.

            The outcome is the aggregate's own name for how the stream ended, or, while it is
            open, the state it is in; --outcome open matches every open stream. Names:
            \(outcomeNamesText)

            The answer comes from a read model kept in the journal's database (the 'streams'
            projection, tables pj_streams_*): the events appended since the last run are
            applied first, then the directory is searched through its indexes. No match is not
            an error: exit 0, and the text format says 'no streams match'. On a read-only
            journal the directory is built in a temporary database for the run, unless
            --models FILE keeps it.
            """,
        examples: [
            "journal find --outcome timedOut --since 2026-11-29 --until 2026-11-30",
            "journal find --server-trans-id 8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
            "journal find --category card --outcome pendingActivation --limit 20 --format json",
            "journal find --correlation-id 7f1c2a9e-0d4b-4a55-9d1e-3c2b1a0f9e8d --format csv"
        ],
        validate: { arguments throws(CLIError) in
            _ = try filter(arguments)
        },
        run: run)

    /// The outcome names, wrapped for the help text.
    static var outcomeNamesText: String { TextRendering.wrapped(StreamOutcome.names, width: 80) }

    /// The filter the arguments ask for; an unknown outcome name or an empty window is a usage
    /// error.
    static func filter(_ arguments: ParsedArguments) throws(CLIError) -> StreamFilter {
        let window = QueryWindow(since: arguments.timeBound("since"), until: arguments.timeBound("until"))
        if let since = window.since, let until = window.until, !(since < until) {
            throw CLIError.usage(
                "--since \(since) is not before --until \(until)",
                hint: "the window holds the starts at or after --since and before --until")
        }
        let outcome = arguments.string("outcome")
        if let outcome, !StreamOutcome.names.contains(outcome) {
            var hint = "the outcomes are: \(StreamOutcome.names.joined(separator: ", "))"
            if let close = StreamOutcome.names.first(where: { ArgumentParser.isClose($0, outcome) }) {
                hint = "did you mean '\(close)'? " + hint
            }
            throw CLIError.usage("unknown outcome '\(TextRendering.printable(outcome))'", hint: hint)
        }
        return StreamFilter(
            window: window, category: arguments.string("category"),
            outcome: outcome, directoryServer: arguments.string("ds"),
            serverTransID: arguments.string("server-trans-id"),
            acsTransID: arguments.string("acs-trans-id"),
            digitalCardID: arguments.string("digital-card-id"),
            correlationID: arguments.string("correlation-id"))
    }

    /// The filter and limit of `journal find`'s options given as `arguments` (`GET /v1/find`).
    static func request(_ arguments: [String]) throws(CLIError) -> (filter: StreamFilter, limit: Int) {
        let parsed = try JournalCLI.parser.parse(arguments, for: spec)
        return (try filter(parsed), Int(parsed.integer("limit") ?? defaultLimit))
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let filter = try filter(arguments)
        let limit = Int(arguments.integer("limit") ?? defaultLimit)
        let result = try ReadModels.withEngine(context, arguments) { _, engine in
            try ReadModels.reporting { () throws(ProjectionError) in try engine.find(filter, limit: limit) }
        }
        switch arguments.string("format") ?? "text" {
        case "json": context.stdout.line(JSONWriter.string(result.json))
        case "csv": result.csvLines.forEach(context.stdout.line)
        default: result.textLines(limit: limit).forEach(context.stdout.line)
        }
    }
}
