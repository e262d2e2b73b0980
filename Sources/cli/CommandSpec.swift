import JournalApp

/// One command of the table: what the parser accepts, what `--help` prints, and what runs.
struct CommandSpec: Sendable {
    var name: String
    /// One line for the overview.
    var summary: String
    var positionals: [PositionalSpec] = []
    /// The command's own options; `--db` (and `--format` when it prints results) are added.
    var options: [OptionSpec] = []
    /// True when the command prints results, so it takes `--format text|json`.
    var printsResults = true
    /// False for a command that opens no journal by `--db` (keygen, check, token, copy): it
    /// still accepts `--db` (every command does, spec §4), but its help does not list it.
    var usesDB = true
    /// Usage lines that replace the one made from the table, for a command with two forms
    /// (`journal keygen NAME --out FILE`, `journal keygen --public FILE`).
    var usages: [String]?
    /// Paragraphs for `--help`.
    var details: String
    /// Example command lines for `--help`.
    var examples: [String]
    /// Checks that need more than one argument (e.g. `STREAM` or `--all`), before any journal is
    /// opened.
    var validate: @Sendable (ParsedArguments) throws(CLIError) -> Void = { _ throws(CLIError) in }
    var run: @Sendable (ParsedArguments, CommandContext) throws -> Void

    var allOptions: [OptionSpec] { options + [.db] + (printsResults ? [.format] : []) }

    /// The options `--help` shows: all but an unused `--db`.
    var listedOptions: [OptionSpec] { options + (usesDB ? [.db] : []) + (printsResults ? [.format] : []) }

    /// `journal import FILE|- [--rejects FILE] [--db PATH] [--format text|json]`
    var synopsis: String {
        if let usages { return usages.joined(separator: "\n       ") }
        var parts = ["journal", name]
        for positional in positionals {
            parts.append(positional.isRequired ? positional.name : "[\(positional.name)]")
        }
        for option in listedOptions { parts.append(option.isRequired ? option.synopsis : "[\(option.synopsis)]") }
        return parts.joined(separator: " ")
    }
}
