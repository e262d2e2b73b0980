import JournalCore

/// What the parser made of a command line: the command and its checked arguments.
package struct ParsedArguments: Sendable, Equatable {
    package var command: String
    package var positionals: [String] = []
    /// Option values by name (without dashes); flags map to "".
    package var options: [String: String] = [:]
    /// Every value of a repeatable option, in order (`options` holds the last).
    package var repeated: [String: [String]] = [:]

    package init(
        command: String, positionals: [String] = [], options: [String: String] = [:],
        repeated: [String: [String]] = [:]
    ) {
        self.command = command
        self.positionals = positionals
        self.options = options
        self.repeated = repeated
    }

    package func string(_ name: String) -> String? { options[name] }
    /// Every value given for a repeatable option, in order.
    package func strings(_ name: String) -> [String] { repeated[name] ?? options[name].map { [$0] } ?? [] }
    package func flag(_ name: String) -> Bool { options[name] != nil }
    /// The value of an `.integer` option (already checked by the parser).
    package func integer(_ name: String) -> Int64? { options[name].flatMap { Int64($0) } }
    /// The value of a `.timeBound` option (already checked by the parser).
    package func timeBound(_ name: String) -> Timestamp? { options[name].flatMap { Timestamp(queryBound: $0) } }
    package var format: OutputFormat { options["format"] == "json" ? .json : .text }
}

package enum OutputFormat: Sendable, Equatable {
    case text
    case json
}
