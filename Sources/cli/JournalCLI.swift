import JournalApp

/// The command table and the dispatcher `main` calls.
package enum JournalCLI {
    /// Every command's name, in the order the overview lists them.
    static let names = [
        "import", "export", "audit", "state", "replay", "verify", "query", "report", "find", "project",
        "simulate", "demo", "copy", "restore", "keygen", "checkpoint", "prove", "bundle", "check", "publish",
        "serve", "token", "witness", "cosign"
    ]

    /// The command `name`. Only the command that runs is described: building every command's
    /// table of options and help would cost each start, for one command to run (docs/benchmarks-history.md,
    /// "Evidence, checked reads and the streams read model", process start).
    static func spec(named name: String) -> CommandSpec? {
        switch name {
        case "import": return ImportCommand.spec
        case "export": return ExportCommand.spec
        case "audit": return AuditCommand.spec
        case "state": return StateCommand.spec
        case "replay": return ReplayCommand.spec
        case "verify": return VerifyCommand.spec
        case "query": return QueryCommand.spec
        case "report": return ReportCommand.spec
        case "find": return FindCommand.spec
        case "project": return ProjectCommand.spec
        case "simulate": return SimulateCommand.spec
        case "demo": return DemoCommand.spec
        case "copy": return CopyCommand.spec
        case "restore": return RestoreCommand.spec
        case "keygen": return KeygenCommand.spec
        case "checkpoint": return CheckpointCommand.spec
        case "prove": return ProveCommand.spec
        case "bundle": return BundleCommand.spec
        case "check": return CheckCommand.spec
        case "publish": return PublishCommand.spec
        case "serve": return ServeCommand.spec
        case "token": return TokenCommand.spec
        case "witness": return WitnessCommand.spec
        case "cosign": return CosignCommand.spec
        default: return nil
        }
    }

    /// Every command, in the order the overview lists them (for the overview and the tests).
    static var commands: [CommandSpec] { names.compactMap(spec(named:)) }

    static let parser = ArgumentParser(names: names, spec: spec(named:))

    /// Parses `arguments` (without the program name) and runs the command.
    /// - Throws: `CLIError` for usage errors (before any journal is opened) and whatever the
    ///   command throws; `main` maps both to exit codes.
    package static func run(_ arguments: [String], context: CommandContext) throws {
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
