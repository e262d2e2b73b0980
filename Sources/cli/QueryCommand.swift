import JournalApp
import Projections

/// `journal query NAME [--since T] [--until T] [--every 1m|5m|15m|1h|1d] [--format text|json|csv]`:
/// an analytics query, answered from read models kept in the journal's database (caught up with
/// the log first), for the whole window or once per time bucket.
enum QueryCommand {
    static let formatOption = OptionSpec(
        name: "format", value: .choice(["text", "json", "csv"]),
        help: "text, for a person (default), json (docs/spec.md §5, §7), or csv (one row per record)")

    static let spec = CommandSpec(
        name: "query",
        summary: "analytics from the read models: " + QueryName.allCases.map(\.rawValue).joined(separator: ", "),
        positionals: [
            PositionalSpec(
                name: "NAME", help: QueryName.allCases.map(\.rawValue).joined(separator: "|"),
                isRequired: true)
        ],
        options: [
            OptionSpec(name: "since", value: .timeBound, help: "count events with occurredAt ≥ T (T included)"),
            OptionSpec(name: "until", value: .timeBound, help: "count events with occurredAt < T (T excluded)"),
            OptionSpec(
                name: "every", value: .choice(BucketWidth.allCases.map(\.rawValue)),
                help: "one answer per UTC-aligned bucket of 1m, 5m, 15m, 1h or 1d"),
            formatOption,
            ReadModels.modelsOption
        ],
        printsResults: false, // takes its own --format, with csv
        details: """
            Counts the events whose occurredAt lies in the window (--since included, --until
            excluded; T is YYYY-MM-DDTHH:MM:SS.sssZ or a date YYYY-MM-DD, midnight UTC). What
            describes a counted event or stream (the method selected before a submission, the
            stream's directory server, the last screen's UI type, the final outcome) comes from
            the stream's whole history, whatever the window. 'rates' counts cohorts instead:
            the streams whose first event (TransactionCreated, EligibilityChecked) lies in the
            window; a rate is rounded to 4 decimals, half to even, null over 0.

            --every 1m|5m|15m|1h|1d answers once per UTC-aligned bucket of that length, in
            time order, empty buckets included (JSON: {"buckets": [{"start", "end", ...}]});
            without --since the buckets start at the first data (for rates: the earliest
            stream start), without --until they end after the last. At most 100,000 buckets.

            Text shows shares beside counts, durations as 1.2 s or 4 h 2 min, directory
            servers by scheme (Visa A000000003) and tables within 100 columns. CSV has one row
            per record (the window or a bucket, then one per key of each per-key map) under
            plain column names; --format json keeps the documented shapes.

            The read models live in the journal's database (tables pj_*). The query first
            applies the events appended since the last run (cheap when nothing is new), then
            answers from the read model, never by scanning the log. A read-only journal (an
            auditor's copy: a file or folder this user may not write, a read-only mount, a
            file without write permission) cannot hold them: the query then builds them in a
            temporary database for this run (a full pass over the log each time), or keeps
            them in the SQLite file --models FILE names, where the next query finds them.

            Queries:
            \(QueryName.allCases.map { "  \($0.rawValue.padding(11))\($0.summary)" }.joined(separator: "\n"))
            """,
        examples: [
            "journal query otp",
            "journal query timeouts --since 2026-11-01 --until 2026-12-01 --format json",
            "journal query funnel --format csv",
            "journal query rates --since 2026-11-29 --until 2026-11-30 --every 1h --format json"
        ],
        validate: { arguments throws(CLIError) in _ = try name(arguments) },
        run: run)

    static func name(_ arguments: ParsedArguments) throws(CLIError) -> QueryName {
        let text = arguments.positionals[0]
        guard let name = QueryName(rawValue: text) else {
            let names = QueryName.allCases.map(\.rawValue)
            var hint = "the queries are: \(names.joined(separator: ", "))"
            if let close = names.first(where: { ArgumentParser.isClose($0, text) }) {
                hint = "did you mean '\(close)'? " + hint
            }
            throw CLIError.usage("unknown query '\(TextRendering.printable(text))'", hint: hint)
        }
        return name
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let name = try name(arguments)
        let window = QueryWindow(since: arguments.timeBound("since"), until: arguments.timeBound("until"))
        let every = arguments.string("every").flatMap(BucketWidth.init(rawValue:))
        let output = try ReadModels.withEngine(context, arguments) { _, engine in
            try ReadModels.reporting { () throws(ProjectionError) in
                if let every { return try engine.run(name, window: window, every: every) }
                return try engine.run(name, window: window)
            }
        }
        switch arguments.string("format") ?? "text" {
        case "json": context.stdout.line(output.json)
        case "csv": context.stdout.write(output.csv)
        default: context.stdout.write(output.text)
        }
    }
}
