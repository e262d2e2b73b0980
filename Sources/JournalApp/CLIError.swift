/// A failure a command reports to the user: `error:` lines, optional `hint:` lines, and the exit
/// status `main` turns it into. Messages never carry payload values (card data stays out of logs).
package struct CLIError: Error, Sendable {
    package var status: ExitStatus
    /// Each becomes one `error: …` line on stderr.
    package var messages: [String]
    /// Each becomes one `hint: …` line on stderr, after the errors.
    package var hints: [String]
    /// When set, printed to stderr before the error lines (the usage of `journal` alone).
    var preamble: String?

    package init(_ status: ExitStatus, _ messages: [String], hints: [String] = [], preamble: String? = nil) {
        self.status = status
        self.messages = messages
        self.hints = hints
        self.preamble = preamble
    }

    package init(_ status: ExitStatus, _ message: String, hint: String? = nil) {
        self.init(status, [message], hints: hint.map { [$0] } ?? [])
    }

    package static func usage(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(.usage, message, hint: hint)
    }

    /// The stderr text: preamble, `error:` lines, `hint:` lines.
    package var rendered: String {
        var text = preamble ?? ""
        for message in messages { text += "error: \(message)\n" }
        for hint in hints { text += "hint: \(hint)\n" }
        return text
    }
}
