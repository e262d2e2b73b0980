import JournalApp

/// `journal state STREAM [--at-version V]`: the aggregate rebuilt from the log.
enum StateCommand {
    static let spec = CommandSpec(
        name: "state",
        summary: "show a stream's aggregate rebuilt from the log, at any version",
        positionals: [
            PositionalSpec(
                name: "STREAM", help: "3ds-<sdkTransID> or card-<digitizationID>",
                isRequired: true)
        ],
        options: [
            OptionSpec(
                name: "at-version", value: .integer(placeholder: "V", minimum: 0),
                help: "fold events 0…V only (default: the whole stream)")
        ],
        details: """
            Folds the stream's stored events, in version order, through the domain rules and
            prints the resulting aggregate: the 3DS transaction or the digitization journey.
            """,
        examples: [
            "journal state 3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",
            "journal state card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84 --at-version 3 --format json"
        ],
        validate: { arguments throws(CLIError) in try StreamArgument.check(arguments.positionals[0]) },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments)
        let stream = try StreamArgument.existing(arguments.positionals[0], in: store)
        try StreamStateReport(stream, at: arguments.integer("at-version"), in: store).print(arguments.format, context)
    }
}
