import EventStore
import JournalApp
import JournalCore

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

    /// Counts for the summary.
    struct Summary {
        var lines = 0
        var appended = 0
        var duplicates = 0
        var rejected = 0
        /// Set when the input turned out not to be NDJSON (reading stopped there).
        var notNDJSON: NotNDJSON?
        /// The line that showed it.
        var notNDJSONLine = 0
    }

    /// Thrown inside the transaction to roll it back when an all-or-nothing import found a bad
    /// line, or the input is not NDJSON.
    private struct RollBack: Error {}

    /// Thrown by an import into a new journal's load at its first invalid line: the load is
    /// abandoned and the import starts again in the store's write transaction, which reports
    /// every line exactly (an invalid line may hold an id used earlier in the input, which only
    /// the store's lookup tells).
    private struct LeaveLoad: Error {}

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let inputPath = arguments.positionals[0]
        let maxLine = arguments.integer("max-line-bytes").map(Int.init) ?? NDJSONLineReader.defaultMaxLineLength
        // Open the input before the journal: a missing input creates no journal.
        let reader = try NDJSONLineReader.open(path: inputPath, maxLineLength: maxLine)
        let size = reader.size
        var input = PreparedLines(reader: reader)
        defer { input.close() }
        var bytesConsumed: Int64 = 0
        let rejectsPath = arguments.string("rejects")
        // A bad signing key fails before anything is written.
        let signer = try EvidenceFiles.signer(arguments, context, option: "sign", environment: false)
        var rejects = try rejectsPath.map { path throws(CLIError) in try OutputSink.create(path: path) }
        // A load of a new journal may have to read the input again (an id it holds twice): only
        // a regular file can be. Other input goes through a store (`importThroughStore`).
        let target =
            FileSystem.entry(at: inputPath) == .file ? try JournalAccess.openForImport(context, arguments) : nil

        var summary = Summary()
        var errors = ImportErrorReport()
        let progress = ProgressReporter.make(arguments, context, verb: "importing", unit: .bytes, total: size)
        let parser = JSONParser()
        var rejectLine: [UInt8] = []

        func reject(_ line: InputLine, _ rejection: Importer.Rejection, print: Bool = true) {
            summary.rejected += 1
            if let text = errors.record(line: line.number, rejection), print {
                progress?.clear()
                context.stderr.line("error: " + text)
            }
            if let rejects {
                rejectLine.removeAll(keepingCapacity: true)
                writeReject(line, reason: rejection.reason, parser: parser, into: &rejectLine)
                rejects.write(bytes: rejectLine)
            }
        }
        func notNDJSON(_ line: InputLine, _ kind: NotNDJSON) {
            summary.notNDJSON = kind
            summary.notNDJSONLine = line.number
            // Said once, at the end, with the hint.
            reject(line, Importer.Rejection(reason: kind.reason, rule: NotNDJSON.rule), print: false)
        }

        /// Every line of `input` through `importer`; throws `RollBack` when nothing may be kept.
        func importLines(_ importer: inout Importer) throws {
            var seenNonBlank = false
            // A first line that opens an object and stops: pretty-printed JSON if the next
            // line goes on with a key, else an ordinary invalid line.
            var held: (line: InputLine, rejection: Importer.Rejection)?
            var next = try input.next()
            reading: while let chunk = next {
                next = nil
                bytesConsumed = chunk.bytesConsumed
                for prepared in chunk.lines {
                    let line = prepared.line
                    summary.lines = line.number
                    if line.number & 0xFF == 0 {
                        progress?.update(done: bytesConsumed, events: Int64(line.number))
                    }
                    if case .blank = prepared.content { continue }
                    let first = !seenNonBlank
                    seenNonBlank = true
                    if let pending = held {
                        held = nil
                        if NotNDJSON.continuesObject(line) {
                            notNDJSON(pending.line, .prettyPrinted)
                            break reading
                        }
                        reject(pending.line, pending.rejection)
                    }
                    switch try importer.importPrepared(prepared) {
                    case .appended:
                        summary.appended += 1
                    case .duplicate:
                        summary.duplicates += 1
                    case let .rejected(rejection):
                        if importer.isLoad { throw LeaveLoad() }
                        if first && NotNDJSON.isArrayStart(line, rule: rejection.rule, reason: rejection.reason) {
                            notNDJSON(line, .jsonArray)
                            break reading
                        }
                        if first && rejection.rule == "json"
                            && NotNDJSON.isPartialObject(line, reason: rejection.reason)
                        {
                            held = (line, rejection)
                        } else {
                            reject(line, rejection)
                        }
                    }
                }
                next = try input.next(after: chunk)
            }
            if let held { reject(held.line, held.rejection) }
            if summary.notNDJSON != nil || (summary.rejected > 0 && rejects == nil) { throw RollBack() }
        }

        /// The import in one write transaction of `store`.
        func importThrough(_ store: any TransactionalEventStore) throws {
            do {
                try store.write { transaction in
                    var importer = Importer(transaction: transaction)
                    try importLines(&importer)
                }
            } catch is RollBack {
                // Nothing was written; fall through to the report.
            }
        }

        /// Set when the import made no journal at a path where none was (nothing to sign).
        var keptNoJournal = false
        /// The import in one write transaction of a store: for a SQLite path where no journal is
        /// yet, of a new journal that gets the path only if the import keeps something (else
        /// nothing is left there: spec §9). Returns the store to sign in (nil: the journal
        /// at its path).
        func importThroughStore() throws -> (any TransactionalEventStore)? {
            guard let new = try JournalAccess.openNewForWriting(context, arguments) else {
                let opened = try JournalAccess.openForWriting(context, arguments, bulk: true)
                try importThrough(opened)
                return opened
            }
            do {
                guard let store = new.store else { throw NewJournalFile.over(new.path) }
                try importThrough(store)
            } catch {
                new.abandon()
                throw error
            }
            let rolledBack = summary.notNDJSON != nil || (summary.rejected > 0 && rejects == nil)
            if !rolledBack && (summary.appended > 0 || summary.rejected == 0) {
                try new.keep()
            } else {
                new.abandon()
                keptNoJournal = true
            }
            return nil
        }

        // The store the checkpoint is signed in (opened after a load, when asked for).
        var store: (any TransactionalEventStore)?
        switch target {
        case nil:
            store = try importThroughStore()
        case let .store(opened)?:
            store = opened
            try importThrough(opened)
        case let .load(load)?:
            do {
                var importer = Importer(load: load)
                try importLines(&importer)
                try load.finish()
            } catch is RollBack {
                // Nothing was written: no journal is left at the path.
                load.abandon()
            } catch let error where error is LeaveLoad || (error as? EventStoreError)?.code == .duplicateIDConflict {
                // An invalid line, or an id that occurs twice in the input: the load wrote
                // nothing, said nothing, and the import starts again in the store's write
                // transaction, which tells an idempotent duplicate from other content under the
                // same id and reports each line as it is (docs/decisions/import-load.md).
                load.abandon()
                input.close()
                input = PreparedLines(reader: try NDJSONLineReader.open(path: inputPath, maxLineLength: maxLine))
                summary = Summary()
                errors = ImportErrorReport()
                bytesConsumed = 0
                if let rejectsPath {
                    try rejects?.close()
                    rejects = try OutputSink.create(path: rejectsPath)
                }
                store = try importThroughStore()
            } catch {
                load.abandon()
                throw error
            }
        }
        progress?.finish(done: bytesConsumed, events: Int64(summary.lines))
        try rejects?.close()
        let rolledBack = summary.notNDJSON != nil || (summary.rejected > 0 && rejects == nil)
        let checkpoint = try signer.flatMap { signer in
            rolledBack || keptNoJournal
                ? nil
                : (
                    try JournalEvidence.sign(
                        store ?? JournalAccess.openExistingForWriting(context, arguments), with: signer),
                    signer.name
                )
        }
        report(
            summary, errors: errors, rolledBack: rolledBack, rejectsPath: rejectsPath,
            arguments: arguments, context: context, checkpoint: checkpoint)
        if let kind = summary.notNDJSON {
            throw CLIError(
                .inputRejected, ["line \(summary.notNDJSONLine): - -: \(kind.reason); nothing was written"],
                hints: [kind.hint(input: inputPath)])
        }
        if summary.rejected > 0 {
            let more = errors.summaryLines
            if let rejectsPath {
                let valid = summary.appended == 1 ? "1 valid event" : "\(summary.appended) valid events"
                throw CLIError(
                    .inputRejected,
                    more + [
                        "\(summary.rejected) of \(TextRendering.counted(summary.lines, "line")) rejected, written to "
                            + "\(TextRendering.printable(rejectsPath)); \(valid) appended"
                    ])
            }
            throw CLIError(
                .inputRejected,
                more + [
                    "\(summary.rejected) of \(TextRendering.counted(summary.lines, "line")) rejected; "
                        + "nothing was written"
                ],
                hints: [
                    "fix those lines and import again, or pass --rejects FILE to append the valid "
                        + "events and set the invalid lines aside"
                ])
        }
    }

    /// `{"line":N,"reason":"…","input":"<the line as text>"}` and a line feed. The input is
    /// masked as spec §4 says (``SensitiveData/maskedLine(_:isJSON:)``); the reason is
    /// masked already.
    static func writeReject(_ line: InputLine, reason: String, parser: JSONParser, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"line":"#.utf8)
        out.append(contentsOf: String(line.number).utf8)
        out.append(contentsOf: #","reason":"#.utf8)
        JSONWriter.writeString(reason, into: &out)
        out.append(contentsOf: #","input":"#.utf8)
        if case .tooLong = line.problem {
            out.append(contentsOf: "null".utf8) // never held in memory
        } else {
            // Invalid UTF-8 becomes U+FFFD so the rejects file stays valid JSON.
            let parsed = line.problem == nil ? try? parser.parse(line.bytes) : nil
            JSONWriter.writeString(SensitiveData.maskedLine(line.bytes, isJSON: parsed), into: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    private static func report(
        _ summary: Summary, errors: ImportErrorReport, rolledBack: Bool, rejectsPath: String?,
        arguments: ParsedArguments, context: CommandContext,
        checkpoint: (kept: StoredCheckpoint, origin: String)?
    ) {
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["lines"] = .number(JSONNumber(summary.lines))
            object["appended"] = .number(JSONNumber(rolledBack ? 0 : summary.appended))
            object["duplicates"] = .number(JSONNumber(summary.duplicates))
            object["rejected"] = .number(JSONNumber(summary.rejected))
            object["written"] = .bool(!rolledBack)
            if let rejectsPath { object["rejectsFile"] = .string(rejectsPath) }
            if summary.notNDJSON != nil { object["notNDJSON"] = .bool(true) }
            if summary.rejected > 0 { errors.addJSON(to: &object) }
            if let checkpoint {
                object["checkpoint"] = .object(
                    JournalEvidence.checkpointJSON(checkpoint.kept, origin: checkpoint.origin))
            }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            if summary.notNDJSON != nil {
                context.stdout.line("nothing written: the input is not NDJSON (see line \(summary.notNDJSONLine))")
            } else if rolledBack {
                context.stdout.line(
                    "nothing written: \(summary.rejected) of \(TextRendering.counted(summary.lines, "line")) rejected "
                        + "(\(summary.appended) valid, \(TextRendering.counted(summary.duplicates, "duplicate")))")
            } else if summary.appended == 0 && summary.rejected == 0 {
                context.stdout.line(
                    "nothing new: \(TextRendering.counted(summary.lines, "line")) read, "
                        + "\(TextRendering.counted(summary.duplicates, "duplicate")) already in the journal")
            } else {
                context.stdout.line(
                    "imported \(TextRendering.counted(summary.lines, "line")): \(summary.appended) appended, "
                        + "\(TextRendering.counted(summary.duplicates, "duplicate")), \(summary.rejected) rejected")
            }
            if let checkpoint { CheckpointCommand.printSigned(checkpoint.kept, context) }
        }
    }
}
