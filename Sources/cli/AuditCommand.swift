enum AuditCommand {
    static let spec = CommandSpec(name: "audit", summary: "todo", details: "todo", examples: [],
                                  run: { _, _ in throw CLIError(.failure, "not yet") })
}
