import EventStore
import JournalApp
import JournalCore

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
        let lastVersion = try store.lastVersion(of: stream) ?? 0
        let atVersion = arguments.integer("at-version") ?? lastVersion
        guard atVersion <= lastVersion else {
            throw CLIError(.failure, "\(stream) has versions 0…\(lastVersion); there is no version \(atVersion)")
        }
        let outcome = try StreamReplay.fold(stream, in: store, through: atVersion)
        if let failure = outcome.failure {
            throw CLIError(
                .replayFailed, "\(stream) no longer folds at version \(failure.version): \(failure.reason)",
                hint: "'journal replay \(stream)' shows every step up to the failure")
        }
        switch arguments.format {
        case .json:
            var object = JSONObject()
            object["stream"] = .string(stream.rawValue)
            object["version"] = .number(JSONNumber(atVersion))
            object["lastVersion"] = .number(JSONNumber(lastVersion))
            object["state"] = .object(outcome.summary)
            context.stdout.line(JSONWriter.string(.object(object)))
        case .text:
            let of = atVersion == lastVersion ? "the last" : "of 0…\(lastVersion)"
            context.stdout.line("\(stream) at version \(atVersion) (\(of))")
            for line in TextRendering.keyValueLines(outcome.summary) { context.stdout.line(line) }
        }
    }
}
