import JournalApp
import JournalCore

extension ProgressReporter {
    /// The reporter a command should use: redrawn on a terminal, plain lines with `--progress`,
    /// nil (no progress) otherwise.
    static func make(
        _ arguments: ParsedArguments, _ context: CommandContext, verb: String, unit: Unit,
        total: Int64?
    ) -> ProgressReporter? {
        let style: Style
        if arguments.flag("progress") {
            style = .lines
        } else if context.stderrIsTerminal {
            style = .redrawn
            // The line an interrupted load writes (SIGINT, SIGTERM) replaces the progress line.
            InterruptCleanup.setLineStart("\r\u{1B}[K")
        } else {
            return nil
        }
        let stderr = context.stderr
        return ProgressReporter(
            verb: verb, unit: unit, total: total, style: style, clock: context.monotonicNanoseconds,
            write: { text in
                stderr.write(text)
                try? stderr.flush()
            })
    }

    /// The `--progress` option, for the option tables of the commands that report progress.
    static let option = OptionSpec(
        name: "progress", value: .flag,
        help: "progress on stderr every few seconds, even when it is not a terminal")
}
