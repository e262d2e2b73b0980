import JournalApp

/// The texts of `journal --help` and `journal COMMAND --help`.
enum Help {
    static func overview(_ commands: [CommandSpec]) -> String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        var text = """
            usage: journal COMMAND [ARGUMENTS] [--db PATH] [--format text|json]

            An event-sourced, tamper-evident journal of 3-D Secure transactions and card
            digitizations.

            commands:

            """
        for command in commands {
            text += "  " + command.name.padding(width) + command.summary + "\n"
        }
        text += """

            Every command takes --db PATH (default: $JOURNAL_DB, else journal.db in the current
            folder) and --help; 'journal --version' prints the version of the journal, of its
            file format and of the SQLite, OpenSSL and LZ4 libraries in use. Exit codes: 0 success, 1 failure, 2 \
            usage error, 3 input rejected,
            4 integrity violation, 5 concurrency conflict, 6 a stream no longer replays.

            Start with:  journal demo --db /tmp/demo.db

            """
        return text
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = "usage: \(spec.synopsis)\n\n\(spec.details)\n"
        var rows: [(String, String)] = spec.positionals.map { ($0.name, $0.help) }
        rows += spec.listedOptions.map { ($0.synopsis, $0.help) }
        rows.append(("-h, --help", "show this help"))
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        text += "\narguments and options:\n"
        for (name, help) in rows { text += "  " + name.padding(width) + help + "\n" }
        text += "\nexample\(spec.examples.count > 1 ? "s" : ""):\n"
        for example in spec.examples { text += "  " + example + "\n" }
        return text
    }
}
