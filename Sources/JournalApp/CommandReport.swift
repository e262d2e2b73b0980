import JournalCore

/// What a command found, ready to print: one JSON value for `--format json`, lines for
/// `--format text`, and the error to end with when it found something wrong (its exit status),
/// thrown once the report is printed.
package protocol CommandReport {
    func json() -> JSONValue
    func textLines() -> [String]
    /// Thrown after the report is printed; nil when the command succeeds.
    var failure: CLIError? { get }
}

extension CommandReport {
    package var failure: CLIError? { nil }

    /// Prints the report on stdout in `format` (JSON on one line), then throws its failure.
    package func print(_ format: OutputFormat, _ context: CommandContext) throws(CLIError) {
        switch format {
        case .json: context.stdout.line(JSONWriter.string(json()))
        case .text: for line in textLines() { context.stdout.line(line) }
        }
        if let failure { throw failure }
    }
}
