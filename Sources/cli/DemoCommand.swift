enum DemoCommand {
    static let spec = CommandSpec(name: "demo", summary: "todo", details: "todo", examples: [],
                                  run: { _, _ in throw CLIError(.failure, "not yet") })
}
