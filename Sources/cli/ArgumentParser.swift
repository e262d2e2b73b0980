import JournalApp
import JournalCore

/// One option of a command, as the parser and the help text see it.
struct OptionSpec: Sendable {
    /// What the option takes; values are checked while parsing, before any journal is opened.
    enum Value: Sendable, Equatable {
        case flag
        case text(placeholder: String)
        /// An integer ≥ `minimum`.
        case integer(placeholder: String, minimum: Int64)
        case choice([String])
        /// A timestamp in the envelope format, or a date `YYYY-MM-DD` (midnight UTC).
        case timeBound
    }

    /// Without the leading dashes: `db`, `from-position`.
    var name: String
    var value: Value
    var help: String
    /// Shown without brackets in the usage line; the command's `validate` enforces it.
    var isRequired = false
    /// May be given more than once (`ParsedArguments.strings`), e.g. `--witness URL`.
    var repeatable = false

    init(name: String, value: Value, help: String, isRequired: Bool = false, repeatable: Bool = false) {
        (self.name, self.value, self.help) = (name, value, help)
        (self.isRequired, self.repeatable) = (isRequired, repeatable)
    }

    /// The same option, shown as required.
    func required() -> OptionSpec {
        var option = self
        option.isRequired = true
        return option
    }

    /// `--db PATH`, `--format text|json`, `--all`.
    var synopsis: String {
        switch value {
        case .flag: return "--\(name)"
        case let .text(placeholder): return "--\(name) \(placeholder)"
        case let .integer(placeholder, _): return "--\(name) \(placeholder)"
        case let .choice(choices): return "--\(name) \(choices.joined(separator: "|"))"
        case .timeBound: return "--\(name) T"
        }
    }

    static let db = OptionSpec(
        name: "db", value: .text(placeholder: "PATH"),
        help: "the journal file (default: $JOURNAL_DB, else ./journal.db)")
    static let format = OptionSpec(
        name: "format", value: .choice(["text", "json"]),
        help: "text, aligned for a person (default), or json")
}

/// A positional argument of a command.
struct PositionalSpec: Sendable {
    var name: String
    var help: String
    var isRequired: Bool
}

/// What the command line asks for.
enum Invocation: Sendable, Equatable {
    /// Run a command.
    case run(ParsedArguments)
    /// Print the help of one command (or the overview when nil) on stdout and exit 0.
    case help(command: String?)
    /// `journal --version`: print the versions on stdout and exit 0.
    case version
}

/// A small, table-driven parser: the command may appear anywhere among its options, options take
/// `--name value` or `--name=value`, `--` ends the options, `-` is a positional (stdin). Every
/// failure is a usage error (exit 2) with a hint, found before any journal is opened.
struct ArgumentParser: Sendable {
    /// The commands' names, in the overview's order.
    let names: [String]
    /// The command of a name (nil for an unknown one); only the one asked for is built.
    let spec: @Sendable (String) -> CommandSpec?

    /// Every command, in the overview's order.
    var commands: [CommandSpec] { names.compactMap(spec) }

    func command(named name: String) -> CommandSpec? { names.contains(name) ? spec(name) : nil }

    func parse(_ arguments: [String]) throws(CLIError) -> Invocation {
        guard !arguments.isEmpty else {
            throw CLIError(
                .usage, ["no command given"], hints: ["run 'journal --help' for every command"],
                preamble: Help.overview(commands))
        }
        let commandIndex = findCommandIndex(arguments)
        guard let commandIndex else {
            if arguments.contains(where: Self.isHelp) { return .help(command: nil) }
            if arguments.contains("--version") { return .version }
            throw CLIError.usage("no command given", hint: "run 'journal --help' for every command")
        }
        let name = arguments[commandIndex]
        if name == "help" {
            let topic = arguments.dropFirst(commandIndex + 1).first
            if let topic, command(named: topic) == nil { throw unknownCommand(topic) }
            return .help(command: topic)
        }
        guard let spec = command(named: name) else { throw unknownCommand(name) }
        var rest = arguments
        rest.remove(at: commandIndex)
        // `--help` wins over any other mistake on the line: the user is asking how to fix it.
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        if rest[..<end].contains(where: Self.isHelp) {
            return .help(command: name)
        }
        return .run(try parse(rest, for: spec))
    }

    static func isHelp(_ argument: String) -> Bool { argument == "--help" || argument == "-h" }

    /// The index of the first argument that is neither an option nor the value of one. Options
    /// before the command are read with the common options' table (`--db`, `--format`).
    private func findCommandIndex(_ arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return index + 1 < arguments.count ? index + 1 : nil }
            if argument.hasPrefix("-") && argument != "-" {
                let name = String(argument.dropFirst(2).prefix(while: { $0 != "=" }))
                let takesValue = [OptionSpec.db, OptionSpec.format].contains { $0.name == name }
                index += (takesValue && !argument.contains("=")) ? 2 : 1
                continue
            }
            return index
        }
        return nil
    }

    private func unknownCommand(_ name: String) -> CLIError {
        let known = names
        var hint = "the commands are: \(known.joined(separator: ", ")); run 'journal --help'"
        if let close = known.first(where: { Self.isClose($0, name) }) { hint = "did you mean '\(close)'? " + hint }
        return CLIError.usage("unknown command '\(TextRendering.printable(name))'", hint: hint)
    }

    /// Parses the arguments after the command name.
    func parse(_ arguments: [String], for spec: CommandSpec) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments(command: spec.name)
        var index = 0
        var optionsEnded = false
        let helpHint = "run 'journal \(spec.name) --help'"
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw CLIError.usage(
                    "unknown option '\(TextRendering.printable(argument))' for 'journal \(spec.name)'",
                    hint: helpHint)
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix(while: { $0 != "=" }))
            let inlineValue = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
            guard let option = spec.allOptions.first(where: { $0.name == name }) else {
                var hint = helpHint
                if let close = spec.allOptions.first(where: { Self.isClose($0.name, name) }) {
                    hint = "did you mean '--\(close.name)'? " + hint
                }
                throw CLIError.usage(
                    "unknown option '--\(TextRendering.printable(name))' for 'journal \(spec.name)'",
                    hint: hint)
            }
            guard parsed.options[name] == nil || option.repeatable else {
                throw CLIError.usage("option '--\(name)' given twice", hint: helpHint)
            }
            if option.value == .flag {
                guard inlineValue == nil else {
                    throw CLIError.usage("option '--\(name)' takes no value", hint: helpHint)
                }
                parsed.options[name] = ""
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw CLIError.usage("option '\(option.synopsis)' needs a value", hint: helpHint)
                }
                value = arguments[index]
                index += 1
            }
            try check(value, of: option, hint: helpHint)
            parsed.options[name] = value
            if option.repeatable { parsed.repeated[name, default: []].append(value) }
        }
        if parsed.positionals.count > spec.positionals.count {
            let extra = parsed.positionals[spec.positionals.count]
            throw CLIError.usage(
                "unexpected argument '\(TextRendering.printable(extra))' for 'journal \(spec.name)'",
                hint: helpHint)
        }
        for (position, positional) in spec.positionals.enumerated()
        where positional.isRequired && position >= parsed.positionals.count {
            throw CLIError.usage("missing \(positional.name) for 'journal \(spec.name)'", hint: helpHint)
        }
        try Self.checkWindow(parsed)
        try spec.validate(parsed)
        return parsed
    }

    /// A window must not be empty or inverted (spec §4): `--since` must come before `--until`,
    /// for every command that takes both. Silently counting nothing would look like a quiet day.
    static func checkWindow(_ parsed: ParsedArguments) throws(CLIError) {
        guard let sinceText = parsed.string("since"), let untilText = parsed.string("until"),
            let since = parsed.timeBound("since"), let until = parsed.timeBound("until"), since >= until
        else { return }
        let message =
            "--since \(TextRendering.printable(sinceText)) is not before --until \(TextRendering.printable(untilText))"
        guard since == until else {
            throw CLIError.usage(
                message + ": the window is inverted",
                hint: "--since is included and --until excluded; did you mean "
                    + "--since \(TextRendering.printable(untilText)) --until \(TextRendering.printable(sinceText))?")
        }
        throw CLIError.usage(
            message + ": the window is empty",
            hint: "--since is included and --until excluded: give an --until after --since")
    }

    private func check(_ value: String, of option: OptionSpec, hint: String) throws(CLIError) {
        switch option.value {
        case .flag:
            return
        case .text:
            guard !value.isEmpty else { throw CLIError.usage("option '--\(option.name)' needs a value", hint: hint) }
        case let .integer(placeholder, minimum):
            guard let number = Int64(value), number >= minimum else {
                throw CLIError.usage(
                    "option '--\(option.name)' takes an integer \(placeholder) ≥ \(minimum), "
                        + "not '\(TextRendering.printable(value))'", hint: hint)
            }
        case let .choice(choices):
            guard choices.contains(value) else {
                throw CLIError.usage(
                    "option '--\(option.name)' takes \(choices.joined(separator: " or ")), "
                        + "not '\(TextRendering.printable(value))'", hint: hint)
            }
        case .timeBound:
            guard Timestamp(queryBound: value) != nil else {
                throw CLIError.usage(
                    "option '--\(option.name)' takes a UTC timestamp YYYY-MM-DDTHH:MM:SS[.fraction]Z "
                        + "(RFC 3339) or a date YYYY-MM-DD, not '\(TextRendering.printable(value))'", hint: hint)
            }
        }
    }

    /// A cheap "did you mean": same length ±1 and at most two differing characters, or a prefix.
    static func isClose(_ candidate: String, _ typed: String) -> Bool {
        guard !typed.isEmpty, !candidate.isEmpty else { return false }
        if candidate.hasPrefix(typed) || typed.hasPrefix(candidate) { return true }
        let a = Array(candidate)
        let b = Array(typed)
        guard abs(a.count - b.count) <= 1 else { return false }
        // Levenshtein distance ≤ 2 on short words.
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count] <= 2
    }
}
