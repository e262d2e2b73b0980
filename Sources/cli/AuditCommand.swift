import JournalApp

/// `journal audit STREAM`: a stream's history for a person, with a per-event integrity mark.
enum AuditCommand {
    static let spec = CommandSpec(
        name: "audit",
        summary: "show a stream's history: versions, positions, times, key fields, hash checks",
        positionals: [
            PositionalSpec(
                name: "STREAM", help: "3ds-<sdkTransID> or card-<digitizationID>",
                isRequired: true)
        ],
        details: """
            Prints one line per event, in version order: version, position, occurredAt (device or
            server time), recordedAt (journal time), type, the key fields (counters, UI type,
            action, transStatus, method, reason, …) and whether the event's hash checks (✓ or ✗).
            An event with a meta object (correlationId, platform, sdkVersion, …) is followed by
            an indented line 'meta {…}' with it as compact JSON; with --format json each event
            has a "meta" key ({} when the event has none). Exit code 4 when any hash does not
            check.
            """,
        examples: [
            "journal audit 3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",
            "journal audit card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84 --format json"
        ],
        validate: { arguments throws(CLIError) in try StreamArgument.check(arguments.positionals[0]) },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let store = try JournalAccess.openForReading(context, arguments, verifiesReads: false)
        let audit = try StreamAudit(StreamArgument.existing(arguments.positionals[0], in: store), in: store)
        try audit.print(arguments.format, context)
    }
}
