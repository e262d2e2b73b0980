import EventStore
import JournalApp
import JournalCore
import Projections

/// `journal project --status | --rebuild [NAME]`: the read models behind `journal query`.
enum ProjectCommand {
    static let names = ProjectionName.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "project",
        summary: "show the read models' checkpoints and lag, or rebuild them from the log",
        positionals: [
            PositionalSpec(
                name: "NAME",
                help: "with --rebuild: \(names.joined(separator: "|")) or a query name "
                    + "(default: all)", isRequired: false)
        ],
        options: [
            OptionSpec(name: "status", value: .flag, help: "each projection's checkpoint, the log's head and the lag"),
            OptionSpec(
                name: "rebuild", value: .flag,
                help: "rebuild from position 1 into fresh tables, swapped in when complete"),
            modelsOption,
            ProgressReporter.option
        ],
        details: """
            The projections (\(names.joined(separator: ", "))) are read models kept in the journal's
            database, each with a checkpoint (the last position applied, written in the same
            transaction as the model) and the code version that built it. 'journal query'
            catches them up before answering; a projection built by another code version
            rebuilds itself.

            --status prints, per projection: its code version and the version it was built
            with, its table generation, its checkpoint, the log's head and the lag between them,
            and the checkpoint of a rebuild in progress, if any.

            --rebuild [NAME] rebuilds one projection (or the ones a query reads, or all) into a
            new generation of tables; queries keep reading the old tables until the new ones
            reach the head. An interrupted rebuild resumes where it stopped. Its progress
            (log position reached of the head, events/s, time left) is shown on stderr when it
            is a terminal; --progress prints it as a plain line every few seconds and a final
            line.

            --models FILE keeps the read models in a SQLite file of your own instead of the
            journal (created 0600 when missing): the way to keep them for a journal you may only
            read. Without it, the read models of a read-only journal are built in a temporary
            database that lasts for the run (--status then shows them never built).
            """,
        examples: [
            "journal project --status", "journal project --rebuild", "journal project --rebuild 3ds --format json"
        ],
        validate: { arguments throws(CLIError) in
            guard arguments.flag("status") != arguments.flag("rebuild") else {
                throw CLIError.usage("give exactly one of --status and --rebuild", hint: "run 'journal project --help'")
            }
            if arguments.flag("status"), let name = arguments.positionals.first {
                throw CLIError.usage(
                    "unexpected argument '\(TextRendering.printable(name))' with --status",
                    hint: "NAME goes with --rebuild")
            }
            _ = try projections(arguments)
        },
        run: run)

    /// The projections NAME stands for (all when absent).
    static func projections(_ arguments: ParsedArguments) throws(CLIError) -> [ProjectionName] {
        guard let text = arguments.positionals.first else { return ProjectionName.allCases }
        if let name = ProjectionName(rawValue: text) { return [name] }
        if let query = QueryName(rawValue: text) {
            return ProjectionName.allCases.filter { name in
                // The projections a query reads, in engine order.
                query.readsProjection(name)
            }
        }
        throw CLIError.usage(
            "unknown projection '\(TextRendering.printable(text))'",
            hint: "the projections are: \(names.joined(separator: ", ")); a query name also works")
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let engine = try ReadModels.openEngine(context, arguments, store: store)
        defer { engine.close() }
        let temporary = ReadModels.keepsNoReadModels(context, arguments)
        if arguments.flag("status") {
            let status = try ReadModels.reporting { () throws(ProjectionError) in try engine.status() }
            printStatus(status, format: arguments.format, temporary: temporary, context)
            return
        }
        let targets = try projections(arguments)
        let progress = ProgressReporter.make(
            arguments, context, verb: "rebuilding", unit: .events,
            total: try? store.headPosition())
        var reached: Int64 = 0
        engine.onBatch = { position in
            reached = position
            progress?.update(done: position, events: position)
        }
        let started = context.now()
        let events = try ReadModels.reporting { () throws(ProjectionError) in try engine.rebuild(targets) }
        engine.onBatch = nil
        progress?.finish(done: max(reached, events), events: events)
        let milliseconds = max(0, context.now().millisecondsSinceEpoch - started.millisecondsSinceEpoch)
        let status = try ReadModels.reporting { () throws(ProjectionError) in try engine.status() }
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["rebuilt"] = .array(targets.map { .string($0.rawValue) })
            object["events"] = .number(JSONNumber(events))
            object["milliseconds"] = .number(JSONNumber(milliseconds))
            object["head"] = .number(JSONNumber(status.first?.head ?? 0))
            if temporary { object["temporary"] = .bool(true) }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let rate = milliseconds > 0 ? " (\(events * 1000 / milliseconds) events/s)" : ""
            context.stdout.line(
                "rebuilt \(targets.map(\.rawValue).joined(separator: ", ")): "
                    + "\(events) events in \(milliseconds) ms\(rate)")
            printStatus(status, format: .text, temporary: temporary, context)
        }
    }

    /// `temporary`: the read models of a read-only journal, built for this run only.
    static func printStatus(
        _ status: [ProjectionStatus], format: OutputFormat, temporary: Bool, _ context: CommandContext
    ) {
        switch format {
        case .json:
            var object = JSONObject()
            object["head"] = .number(JSONNumber(status.first?.head ?? 0))
            object["projections"] = .array(
                status.map { projection in
                    var entry = JSONObject()
                    entry["name"] = .string(projection.name.rawValue)
                    entry["codeVersion"] = .number(JSONNumber(projection.codeVersion))
                    entry["builtVersion"] = projection.builtVersion.map { .number(JSONNumber($0)) } ?? .null
                    entry["generation"] = .number(JSONNumber(projection.generation))
                    entry["checkpoint"] = .number(JSONNumber(projection.checkpoint))
                    entry["lag"] = .number(JSONNumber(projection.lag))
                    entry["rebuildCheckpoint"] = projection.rebuildCheckpoint.map { .number(JSONNumber($0)) } ?? .null
                    return .object(entry)
                })
            if temporary { object["temporary"] = .bool(true) }
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            var rows = [["projection", "version", "generation", "checkpoint", "head", "lag", "state"]]
            for p in status {
                let state: String
                if p.builtVersion == nil {
                    state = p.rebuildCheckpoint.map { "building (at \($0))" } ?? "never built"
                } else if p.stale {
                    state = "built by version \(p.builtVersion ?? 0): rebuilds on next use"
                } else if let rebuilding = p.rebuildCheckpoint {
                    state = "rebuilding (at \(rebuilding))"
                } else {
                    state = p.lag == 0 ? "up to date" : "behind"
                }
                rows.append([
                    p.name.rawValue, "\(p.codeVersion)", "\(p.generation)", "\(p.checkpoint)", "\(p.head)",
                    "\(p.lag)", state
                ])
            }
            for line in TextRendering.table(rows, rightAligned: [1, 2, 3, 4, 5]) { context.stdout.line(line) }
            if temporary {
                context.stdout.line("the journal is read-only: its read models are built from the log in a temporary")
                context.stdout.line("database for each run (query, find, report, project); --models FILE keeps them")
            }
        }
    }

    /// `--models FILE`, for `query` and `project`.
    static let modelsOption = OptionSpec(
        name: "models", value: .text(placeholder: "FILE"),
        help: "keep the read models in this SQLite file instead of the journal (for a read-only journal)")
}
