import EventStore
import JournalCore

/// `journal import FILE|- [--rejects FILE]`: validate every line, then append, in one
/// transaction.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        summary: "validate an NDJSON file of events and append it (all or nothing)",
        positionals: [PositionalSpec(name: "FILE", help: "NDJSON events, one per line; - reads stdin",
                                     isRequired: true)],
        options: [
            OptionSpec(name: "rejects", value: .text(placeholder: "FILE"),
                       help: "append the valid lines and write each invalid one to FILE"),
            OptionSpec(name: "max-line-bytes", value: .integer(placeholder: "N", minimum: 1024),
                       help: "reject lines longer than N bytes (default: 1048576)"),
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
            to FILE as {"line": N, "reason": "...", "input": "<the line>"}; exit code 3 if any.
            """,
        examples: [
            "journal import events.ndjson --db journal.db",
            "journal import - --rejects rejected.ndjson < events.ndjson",
        ],
        validate: { arguments throws(CLIError) in
            guard let rejects = arguments.string("rejects") else { return }
            if rejects == "-" {
                throw CLIError.usage("--rejects needs a file path ('-' is not one)", hint: "run 'journal import --help'")
            }
            if rejects == arguments.positionals.first {
                throw CLIError.usage("--rejects must name another file than the input", hint: "run 'journal import --help'")
            }
        },
        run: run)

    /// Counts for the summary.
    struct Summary {
        var lines = 0
        var appended = 0
        var duplicates = 0
        var rejected = 0
    }

    /// Thrown inside the transaction to roll it back when an all-or-nothing import found a bad line.
    private struct RollBack: Error {}

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let inputPath = arguments.positionals[0]
        let maxLine = arguments.integer("max-line-bytes").map(Int.init) ?? NDJSONLineReader.defaultMaxLineLength
        // Open the input before the journal: a missing input creates no journal.
        var reader = try NDJSONLineReader.open(path: inputPath, maxLineLength: maxLine)
        defer { reader.close() }
        let rejectsPath = arguments.string("rejects")
        let rejects = try rejectsPath.map { path throws(CLIError) in try OutputSink.create(path: path) }
        let store = try JournalAccess.openForWriting(context, arguments, bulk: true)

        var summary = Summary()
        var progress = Progress(context: context)
        var rejectLine: [UInt8] = []
        do {
            try store.write { transaction in
                var importer = Importer(transaction: transaction)
                while let line = try reader.next() {
                    summary.lines = line.number
                    progress.update(lines: line.number)
                    if line.isBlank { continue }
                    switch try importer.importLine(line) {
                    case .appended:
                        summary.appended += 1
                    case .duplicate:
                        summary.duplicates += 1
                    case let .rejected(rejection):
                        summary.rejected += 1
                        context.stderr.line("error: line \(line.number): \(rejection.report)")
                        if let rejects {
                            rejectLine.removeAll(keepingCapacity: true)
                            writeReject(line, reason: rejection.reason, into: &rejectLine)
                            rejects.write(bytes: rejectLine)
                        }
                    }
                }
                progress.finish()
                if summary.rejected > 0 && rejects == nil { throw RollBack() }
            }
        } catch is RollBack {
            // Nothing was written; fall through to the report.
        }
        progress.finish()
        try rejects?.close()
        report(summary, rolledBack: summary.rejected > 0 && rejects == nil, rejectsPath: rejectsPath,
               arguments: arguments, context: context)
        if summary.rejected > 0 {
            if let rejectsPath {
                let valid = summary.appended == 1 ? "1 valid event" : "\(summary.appended) valid events"
                throw CLIError(.inputRejected,
                               "\(summary.rejected) of \(summary.lines) lines rejected, written to "
                               + "\(Help.printable(rejectsPath)); \(valid) appended")
            }
            throw CLIError(.inputRejected, ["\(summary.rejected) of \(summary.lines) lines rejected; nothing was written"],
                           hints: ["fix those lines and import again, or pass --rejects FILE to append the valid "
                                   + "events and set the invalid lines aside"])
        }
    }

    /// `{"line":N,"reason":"…","input":"<the line as text>"}` and a line feed.
    static func writeReject(_ line: InputLine, reason: String, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"line":"#.utf8)
        out.append(contentsOf: String(line.number).utf8)
        out.append(contentsOf: #","reason":"#.utf8)
        JSONWriter.writeString(reason, into: &out)
        out.append(contentsOf: #","input":"#.utf8)
        if case .tooLong = line.problem {
            out.append(contentsOf: "null".utf8)  // never held in memory
        } else {
            // Invalid UTF-8 becomes U+FFFD so the rejects file stays valid JSON.
            JSONWriter.writeString(String(decoding: line.bytes, as: UTF8.self), into: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    private static func report(_ summary: Summary, rolledBack: Bool, rejectsPath: String?,
                               arguments: ParsedArguments, context: CommandContext) {
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["lines"] = .number(JSONNumber(summary.lines))
            object["appended"] = .number(JSONNumber(rolledBack ? 0 : summary.appended))
            object["duplicates"] = .number(JSONNumber(summary.duplicates))
            object["rejected"] = .number(JSONNumber(summary.rejected))
            object["written"] = .bool(!rolledBack)
            if let rejectsPath { object["rejectsFile"] = .string(rejectsPath) }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            if rolledBack {
                context.stdout.line("nothing written: \(summary.rejected) of \(summary.lines) lines rejected "
                                    + "(\(summary.appended) valid, \(summary.duplicates) duplicates)")
            } else if summary.appended == 0 && summary.rejected == 0 {
                context.stdout.line("nothing new: \(summary.lines) lines read, \(summary.duplicates) duplicates "
                                    + "already in the journal")
            } else {
                context.stdout.line("imported \(summary.lines) lines: \(summary.appended) appended, "
                                    + "\(summary.duplicates) duplicates, \(summary.rejected) rejected")
            }
        }
    }
}

/// A progress line on stderr, only when stderr is a terminal, at most every 50,000 lines.
private struct Progress {
    let context: CommandContext
    private var nextReport = 50_000
    private var shown = false

    init(context: CommandContext) { self.context = context }

    mutating func update(lines: Int) {
        guard context.stderrIsTerminal, lines >= nextReport else { return }
        nextReport = lines + 50_000
        shown = true
        context.stderr.write("\rimporting: \(lines) lines read…")
        try? context.stderr.flush()
    }

    mutating func finish() {
        guard shown else { return }
        shown = false
        context.stderr.write("\r\u{1B}[K")
        try? context.stderr.flush()
    }
}
