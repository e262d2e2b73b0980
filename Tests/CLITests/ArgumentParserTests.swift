import Testing

@testable import JournalApp
@testable import JournalCommandLine

@Suite("Argument parser")
struct ArgumentParserTests {
    let parser = JournalCLI.parser

    func parsed(_ arguments: [String]) throws -> ParsedArguments {
        guard case let .run(parsed) = try parser.parse(arguments) else {
            Issue.record("expected a command to run for \(arguments)")
            return ParsedArguments(command: "")
        }
        return parsed
    }

    func usageError(_ arguments: [String]) -> CLIError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func optionsWorkInAnyOrderAroundTheCommand() throws {
        let expected = ParsedArguments(
            command: "import", positionals: ["events.ndjson"],
            options: ["db": "j.db", "rejects": "bad.ndjson", "format": "json"])
        #expect(
            try parsed(["import", "events.ndjson", "--db", "j.db", "--rejects", "bad.ndjson", "--format", "json"])
                == expected)
        #expect(
            try parsed(["--db", "j.db", "import", "--format=json", "--rejects=bad.ndjson", "events.ndjson"])
                == expected)
        #expect(
            try parsed(["--format", "json", "--db=j.db", "import", "--rejects", "bad.ndjson", "events.ndjson"])
                == expected)
    }

    @Test func dashIsAPositionalAndDoubleDashEndsOptions() throws {
        #expect(try parsed(["import", "-"]).positionals == ["-"])
        #expect(try parsed(["import", "--", "--odd-name.ndjson"]).positionals == ["--odd-name.ndjson"])
    }

    @Test func typedValuesAreReadBack() throws {
        let arguments = try parsed(["replay", "--all", "--until-position", "42"])
        #expect(arguments.flag("all"))
        #expect(arguments.integer("until-position") == 42)
        #expect(arguments.format == .text)
    }

    @Test(arguments: [
        (["import"], "missing FILE for 'journal import'"),
        (["imprt", "x"], "unknown command 'imprt'"),
        (["import", "x", "--bogus"], "unknown option '--bogus' for 'journal import'"),
        (["import", "x", "-q"], "unknown option '-q' for 'journal import'"),
        (["import", "x", "y"], "unexpected argument 'y' for 'journal import'"),
        (["import", "x", "--db"], "option '--db PATH' needs a value"),
        (["import", "x", "--db", "a", "--db", "b"], "option '--db' given twice"),
        (["verify", "--format", "yaml"], "option '--format' takes text or json, not 'yaml'"),
        (["export", "--from-position", "-1"], "option '--from-position' takes an integer P ≥ 0, not '-1'"),
        (["export", "--format", "json"], "unknown option '--format' for 'journal export'"),
        (["state", "3ds-x"], "'3ds-x' is not a stream name"),
        (["replay"], "give a STREAM or --all"),
        (["replay", "--all", "card-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b"], "give a STREAM or --all, not both"),
        (["replay", "--all=yes"], "option '--all' takes no value"),
        (["--db", "x.db"], "no command given"),
        (["import", "in.ndjson", "--rejects", "-"], "--rejects needs a file path"),
        (["import", "in.ndjson", "--rejects", "in.ndjson"], "--rejects must name another file than the input")
    ])
    func mistakesAreUsageErrorsWithAHint(arguments: [String], message: String) {
        let error = usageError(arguments)
        #expect(error?.status == .usage)
        #expect(error?.messages.first?.hasPrefix(message) == true, "\(String(describing: error?.messages))")
        #expect(error?.hints.isEmpty == false)
    }

    @Test func noArgumentsPrintsTheUsageWithTheError() {
        let error = usageError([])
        #expect(error?.status == .usage)
        #expect(error?.preamble?.hasPrefix("usage: journal COMMAND") == true)
        #expect(error?.rendered.contains("error: no command given\nhint: ") == true)
    }

    @Test func helpWinsAnywhereOnTheLine() throws {
        #expect(try parser.parse(["import", "--bogus", "--help"]) == .help(command: "import"))
        #expect(try parser.parse(["-h", "verify"]) == .help(command: "verify"))
        #expect(try parser.parse(["--help"]) == .help(command: nil))
        #expect(try parser.parse(["help", "export"]) == .help(command: "export"))
    }

    @Test func everyListedNameLeadsToTheCommandOfThatNameAndNoOtherNameDoes() {
        #expect(JournalCLI.commands.map(\.name) == JournalCLI.names)
        #expect(Set(JournalCLI.names).count == JournalCLI.names.count)
        #expect(JournalCLI.spec(named: "imports") == nil)
        #expect(parser.command(named: "Import") == nil)
    }

    @Test func everyCommandHasHelpWithAnExample() {
        for command in JournalCLI.commands {
            let text = Help.command(command)
            #expect(text.hasPrefix("usage: journal \(command.name)"))
            // Listed where the command opens a journal by it (every command accepts it).
            #expect(text.contains("--db PATH") == command.usesDB, "\(command.name)")
            #expect(text.contains("-h, --help"))
            #expect(!command.examples.isEmpty, "\(command.name) has no example")
            for example in command.examples { #expect(example.hasPrefix("journal \(command.name)")) }
        }
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrderAndOthersStillRefuseASecond() throws {
        let arguments = try parsed([
            "cosign", "--witness", "http://a", "--witness-key", "ka", "--witness=http://b", "--witness-key", "kb"
        ])
        #expect(arguments.strings("witness") == ["http://a", "http://b"])
        #expect(arguments.strings("witness-key") == ["ka", "kb"])
        #expect(arguments.strings("key").isEmpty)
        #expect(
            usageError(["cosign", "--witness", "http://a", "--key", "a", "--key", "b"])?.messages
                == ["option '--key' given twice"])
    }

    @Test func misspeltOptionsGetASuggestion() {
        let error = usageError(["import", "x", "--reject", "r"])
        #expect(error?.hints.first?.hasPrefix("did you mean '--rejects'?") == true)
    }

    @Test func userTextIsEchoedSafely() {
        #expect(TextRendering.printable("a\u{1B}[31mb") == "a\\u{1b}[31mb")
        #expect(TextRendering.printable(String(repeating: "x", count: 100)).count == 81)
    }
}
