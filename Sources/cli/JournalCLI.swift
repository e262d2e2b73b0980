/// The command table and the dispatcher `main` calls.
enum JournalCLI {
    /// Every command, in the order the overview lists them.
    static let commands: [CommandSpec] = [
        ImportCommand.spec,
        ExportCommand.spec,
        AuditCommand.spec,
        StateCommand.spec,
        ReplayCommand.spec,
        VerifyCommand.spec,
        QueryCommand.spec,
        ReportCommand.spec,
        FindCommand.spec,
        ProjectCommand.spec,
        SimulateCommand.spec,
        DemoCommand.spec,
        CopyCommand.spec,
        KeygenCommand.spec,
        CheckpointCommand.spec,
        ProveCommand.spec,
        BundleCommand.spec,
        CheckCommand.spec,
        ServeCommand.spec,
        TokenCommand.spec
    ]

    static let parser = ArgumentParser(commands: commands)

    /// Parses `arguments` (without the program name) and runs the command.
    /// - Throws: `CLIError` for usage errors (before any journal is opened) and whatever the
    ///   command throws; `main` maps both to exit codes.
    static func run(_ arguments: [String], context: CommandContext) throws {
        switch try parser.parse(arguments) {
        case let .help(name):
            if let name, let spec = parser.command(named: name) {
                context.stdout.write(Help.command(spec))
            } else {
                context.stdout.write(Help.overview(commands))
            }
        case .version:
            VersionCommand.run(context)
        case let .run(parsed):
            guard let spec = parser.command(named: parsed.command) else {
                // The parser only returns commands of the table.
                preconditionFailure("parsed an unknown command \(parsed.command)")
            }
            try spec.run(parsed, context)
        }
    }
}
