enum StateCommand {
    static let spec = CommandSpec(name: "state", summary: "todo", details: "todo", examples: [],
                                  run: { _, _ in throw CLIError(.failure, "not yet") })
}
