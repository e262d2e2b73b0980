enum ReplayCommand {
    static let spec = CommandSpec(name: "replay", summary: "todo", details: "todo", examples: [],
                                  run: { _, _ in throw CLIError(.failure, "not yet") })
}
