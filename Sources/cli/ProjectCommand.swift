import EventStore
import JournalApp
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
            ReadModels.modelsOption,
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
        let temporary = ReadModels.keepsNoReadModels(context, arguments)
        try ReadModels.withEngine(context, arguments) { store, engine in
            if arguments.flag("status") {
                try ProjectionStatusReport(engine, temporary: temporary).print(arguments.format, context)
                return
            }
            let targets = try projections(arguments)
            let progress = ProgressReporter.make(
                arguments, context, verb: "rebuilding", unit: .events, total: try? store.headPosition())
            let rebuild = try ProjectionRebuild(
                targets, engine, temporary: temporary, progress: progress, now: context.now)
            try rebuild.print(arguments.format, context)
        }
    }
}
