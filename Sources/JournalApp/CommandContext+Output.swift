import JournalCore

extension CommandContext {
    /// Writes `text` to the file at `path` (mode 0600, `OutputSink.writeFile`), or to stdout
    /// when `path` is nil.
    package func write(_ text: String, toFile path: String?) throws(CLIError) {
        guard let path else { return stdout.write(text) }
        try OutputSink.writeFile(path, text)
    }
}

extension TextRendering {
    /// The lines of `text`, which ends in a line feed (a signed note, a proof): printed one
    /// per line, they are `text` again.
    package static func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
