import JournalApp

/// `journal import FILE|- [--rejects FILE]`: validate every line, then append, in one
/// transaction.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "validate an NDJSON file of events and append it (all or nothing)",
        positionals: [
            PositionalSpec(
                name: "FILE", help: "NDJSON events, one per line; - reads stdin",
                isRequired: true)
        ],
        options: [
            OptionSpec(
                name: "rejects", value: .text(placeholder: "FILE"),
                help: "append the valid lines and write each invalid one to FILE"),
            EvidenceFiles.signOption,
            OptionSpec(
                name: "max-line-bytes", value: .integer(placeholder: "N", minimum: 1024),
                help: "reject lines longer than N bytes (default: 1048576)"),
            ProgressReporter.option
        ],
        details: """
            Checks every line: JSON, the envelope, the event catalog, the stream's state rules
            (against the journal and the earlier lines of FILE) and sensitive data. Blank lines
            are skipped but counted. An event whose id is already in the journal (or earlier in
            FILE) with the same content is a duplicate and changes nothing, so importing a file
            twice is safe.

            Without --rejects the import is all or nothing: if any line is invalid, nothing is
            written, every invalid line is reported on stderr as
            "error: line N: <stream> <type>: <reason>", and the exit code is 3.
            With --rejects FILE the valid events are appended and each invalid line is written
            to FILE (created with mode 0600) as {"line": N, "reason": "...", "input": "<the line>"};
            exit code 3 if any. In "input", what the journal refuses to store is masked: each
            card number and each value under a forbidden key (otp, pan, cvv, ...) becomes
            "[redacted]", and in a line that is not JSON every run of 13 to 19 digits does. No
            error line or report ever shows such a value.

            The first 100 invalid lines are printed; then how many more there were, and a count
            per rule (json, envelope.unknown-key, sensitive-data, 3ds.request-counter, ...).
            --format json adds "errors" (the first 1000: line, stream, type, rule, reason),
            "moreErrors" and "byRule" when any line was rejected. A JSON array or pretty-printed
            JSON is reported once as not NDJSON, with the jq command that converts it, and
            nothing is written. A misspelt top-level key or event type gets a "did you mean";
            an impossible date (2026-02-30T...) is "not a valid date"; an id already used by
            other content names the first field that differs.

            A SQLite journal that does not exist yet is loaded in one go from a regular FILE
            (written beside its path, PATH.loading-XXXXXX, its indexes built at the end, and
            renamed into place): the same checks and the same journal. At the first invalid
            line, or an id used twice in FILE, the load is dropped and the import starts again
            in one transaction, which reports every line as above. Into a path where no journal
            was, an import that keeps nothing (exit 3), or one interrupted by SIGINT or SIGTERM
            (exit 130, 143), leaves no file there.

            Progress (bytes read of the file's size, events/s, time left) is shown on stderr
            when it is a terminal; --progress prints it as a plain line every few seconds and a
            final line, for logs and CI. stdout is the same either way.
            """,
        examples: [
            "journal import events.ndjson --db journal.db",
            "journal import - --rejects rejected.ndjson < events.ndjson",
            "journal import big.ndjson --progress 2> import.log"
        ],
        validate: { arguments throws(CLIError) in
            guard let rejects = arguments.string("rejects") else { return }
            if rejects == "-" {
                throw CLIError.usage(
                    "--rejects needs a file path ('-' is not one)", hint: "run 'journal import --help'")
            }
            if rejects == arguments.positionals.first {
                throw CLIError.usage(
                    "--rejects must name another file than the input", hint: "run 'journal import --help'")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let inputPath = arguments.positionals[0]
        let maxLine = arguments.integer("max-line-bytes").map(Int.init) ?? NDJSONLineReader.defaultMaxLineLength
        // Open the input before the journal: a missing input creates no journal.
        let reader = try NDJSONLineReader.open(path: inputPath, maxLineLength: maxLine)
        let rejectsPath = arguments.string("rejects")
        // A bad signing key fails before anything is written.
        let signer = try EvidenceFiles.signer(arguments, context, option: "sign", environment: false)
        let progress = ProgressReporter.make(arguments, context, verb: "importing", unit: .bytes, total: reader.size)
        let outcome = try ImportRun.perform(
            reader: reader, inputPath: inputPath, maxLine: maxLine, rejectsPath: rejectsPath, progress: progress,
            arguments: arguments, context: context)
        let report = try ImportReport(
            outcome, inputPath: inputPath, rejectsPath: rejectsPath, signer: signer, context, arguments)
        try report.print(arguments.format, context)
    }
}
