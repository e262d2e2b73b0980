import JournalApp
import JournalHTTP

/// `journal token ROLE NAME --tokens FILE`: adds a bearer token for `journal serve` and prints
/// it once.
enum TokenCommand {
    static let spec = CommandSpec(
        name: "token",
        summary: "add a bearer token for 'journal serve' (read, append or admin) and print it once",
        positionals: [
            PositionalSpec(
                name: "ROLE", help: "read (every GET), append (POST /v1/events) or admin (everything)",
                isRequired: true),
            PositionalSpec(
                name: "NAME", help: "who holds it, for the access log (1-64 of A-Z a-z 0-9 . _ -)",
                isRequired: true)
        ],
        options: [
            OptionSpec(
                name: "tokens", value: .text(placeholder: "FILE"),
                help: "the tokens file 'journal serve --tokens FILE' reads (created with mode 0600)",
                isRequired: true)
        ],
        printsResults: false,
        usesDB: false,
        details: """
            Makes a random 32-byte token, appends "<role> <name> sha256:<hex SHA-256 of the
            token>" to FILE and prints the token (64 hex digits) on stdout. Only its hash is
            stored: the token cannot be shown again, so keep it now. A NAME already in FILE is
            refused (exit 1, nothing written). A running server reads FILE
            when it starts. To revoke a token, delete its line and restart the server.
            """,
        examples: [
            "journal token append collector-eu1 --tokens tokens.txt",
            "journal token read dashboard --tokens tokens.txt"
        ],
        validate: { arguments throws(CLIError) in
            guard TokenRole(rawValue: arguments.positionals[0]) != nil else {
                throw CLIError.usage(
                    "unknown role '\(TextRendering.printable(arguments.positionals[0]))'",
                    hint: "the roles are read, append and admin")
            }
            guard TokenFile.isName(arguments.positionals[1]) else {
                throw CLIError.usage(
                    "'\(TextRendering.printable(arguments.positionals[1]))' is not a token name",
                    hint: "use 1 to 64 of A-Z a-z 0-9 . _ -")
            }
            guard arguments.string("tokens") != nil else {
                throw CLIError.usage("journal token needs --tokens FILE", hint: "e.g. --tokens tokens.txt")
            }
        },
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        guard let role = TokenRole(rawValue: arguments.positionals[0]), let path = arguments.string("tokens") else {
            return
        }
        let token = try TokenFile.newToken()
        try TokenFile.append(
            role: role, name: arguments.positionals[1], digest: TokenFile.digest(of: token), path: path)
        context.stdout.line(token)
    }
}
