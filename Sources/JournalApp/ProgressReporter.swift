import JournalCore

/// The progress of a long command on stderr: how much is done of how much, the rate in events
/// per second and an estimate of the time left, e.g.
///
/// ```
/// importing: 1.2 MiB of 4.5 MiB (27%), 12,345 events, 19,600 events/s, about 12 s left
/// verifying: 120,000 of 2,000,000 events (6%), 50,000 events/s, about 38 s left
/// ```
///
/// On a terminal the line is redrawn in place (a few times a second) and erased at the end; with
/// `--progress` (logs, CI) a plain line is written every few seconds, plus a final line with the
/// totals and the overall rate. It writes to stderr only, so stdout stays the command's result.
/// The clock is injected (monotonic nanoseconds), so tests control time.
package final class ProgressReporter {
    package enum Style: Equatable {
        /// One line rewritten with `\r` and erased at the end (stderr is a terminal).
        case redrawn
        /// A plain line every `interval`, and a final line (`--progress`).
        case lines
    }

    /// What `done` and `total` count.
    package enum Unit: Equatable {
        /// Bytes of the input file (the events are counted beside them).
        case bytes
        case events
    }

    /// Plain lines: one every 3 seconds.
    static let lineInterval: Int64 = 3_000_000_000
    /// A redrawn line: at most 4 times a second.
    static let redrawInterval: Int64 = 250_000_000

    let verb: String
    let unit: Unit
    /// nil when unknown (stdin, a simulation whose event count is not known in advance).
    var total: Int64?
    package let style: Style
    private let interval: Int64
    private let clock: () -> Int64
    private let write: (String) -> Void
    private let started: Int64
    private var nextReport: Int64
    private var drawn = false
    private var finished = false

    package init(
        verb: String, unit: Unit, total: Int64?, style: Style, clock: @escaping () -> Int64,
        write: @escaping (String) -> Void, interval: Int64? = nil
    ) {
        self.verb = verb
        self.unit = unit
        self.total = total
        self.style = style
        self.clock = clock
        self.write = write
        self.interval = interval ?? (style == .lines ? Self.lineInterval : Self.redrawInterval)
        started = clock()
        nextReport = started + self.interval
    }

    /// Reports `done` (bytes or events, as `unit` says) and `events` so far, when the interval
    /// has passed. Cheap otherwise (one clock read), but callers still call it every few hundred
    /// events rather than every event.
    package func update(done: Int64, events: Int64) {
        let now = clock()
        guard !finished, now >= nextReport else { return }
        nextReport = now + interval
        let text = line(done: done, events: events, elapsed: now - started, final: false)
        switch style {
        case .redrawn:
            write("\r" + text + "\u{1B}[K")
            drawn = true
        case .lines:
            write(text + "\n")
        }
    }

    /// Ends the report: erases a redrawn line, or writes the final plain line.
    package func finish(done: Int64, events: Int64) {
        guard !finished else { return }
        finished = true
        switch style {
        case .redrawn:
            if drawn { write("\r\u{1B}[K") }
        case .lines:
            write(line(done: done, events: events, elapsed: clock() - started, final: true) + "\n")
        }
    }

    /// Erases a redrawn line before other output (an error line) is written; the next update
    /// draws it again.
    package func clear() {
        guard style == .redrawn, drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    /// `importing: 1.2 MiB of 4.5 MiB (27%), 12,345 events, 19,600 events/s, about 12 s left`
    func line(done: Int64, events: Int64, elapsed: Int64, final: Bool) -> String {
        var parts: [String] = []
        let amount: String
        switch unit {
        case .bytes:
            // Both figures in the total's unit: "980.4 KiB of 10.1 MiB" reads worse than "1.0 MiB of 10.1 MiB".
            amount = total.map { Self.bytes(done, scale: $0) + " of " + Self.bytes($0) } ?? Self.bytes(done) + " read"
        case .events:
            amount = Self.count(done) + (total.map { " of " + Self.count($0) } ?? "") + " events"
        }
        if let total, total > 0 {
            parts.append(amount + " (\(min(100, done * 100 / total))%)")
        } else {
            parts.append(amount)
        }
        if unit == .bytes { parts.append(Self.count(events) + " events") }
        let seconds = Double(max(elapsed, 1_000_000)) / 1e9 // at least 1 ms: a rate, never a division by 0
        let rate = Double(events) / seconds
        parts.append(Self.count(Int64(rate.rounded())) + " events/s")
        if final {
            parts.append("done in " + Self.duration(seconds))
        } else if let total, done > 0, total > done {
            let left = Double(total - done) * seconds / Double(done)
            parts.append("about " + Self.duration(left) + " left")
        }
        return verb + ": " + parts.joined(separator: ", ")
    }

    /// `1,234,567`
    static func count(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// `3008 B` (exact below 1 MiB), `1.2 MiB`, `3.0 GiB`; in the unit `scale` would get.
    static func bytes(_ value: Int64, scale: Int64? = nil) -> String {
        let reference = scale ?? value
        if reference < 1024 * 1024 { return "\(value) B" }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var index = 0
        var divisor = 1.0
        var size = Double(reference)
        while size >= 1024 && index < units.count - 1 {
            size /= 1024
            divisor *= 1024
            index += 1
        }
        let tenths = Int64((Double(value) / divisor * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[index])"
    }

    /// `0.3 s`, `42 s`, `3 min 05 s`, `2 h 10 min`
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 {
            let tenths = Int64((seconds * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) s"
        }
        let whole = Int64(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 {
            let rest = whole % 60
            return "\(whole / 60) min \(rest < 10 ? "0" : "")\(rest) s"
        }
        let minutes = whole / 60 % 60
        return "\(whole / 3600) h \(minutes < 10 ? "0" : "")\(minutes) min"
    }
}

extension ProgressReporter: ProgressReporting {}
