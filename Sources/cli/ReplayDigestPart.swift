import EventStore
import JournalCore

/// Part of what `replay --all` reports for a run of streams in name order: their count, their
/// events, their failures, and the bytes of the digest of all final states, per stream
/// `<stream>\n<final state as compact JSON>\n`, or `<stream>\nFAILS at version V: reason\n`
/// (so a changed rule changes the digest too). The digest hashes the parts' bytes in order.
///
/// Rendering the final states of a whole log is a large share of `replay --all` after the scan
/// (tens of thousands of summaries), so the streams are split into two runs, rendered on two
/// threads (`render(inTwo:from:)`).
struct ReplayDigestPart {
    var bytes: [UInt8] = []
    var streams = 0
    var events = 0
    var failures: [(stream: StreamName, failure: StreamReplay.Failure)] = []

    /// Adds one stream's outcome; a stream with no event up to the replay's position (it begins
    /// after it) has no part in the report.
    mutating func add(_ stream: StreamName, _ outcome: StreamReplay.Outcome) {
        guard outcome.events > 0 || outcome.failure != nil else { return }
        streams += 1
        events += outcome.events
        bytes.append(contentsOf: stream.rawValue.utf8)
        bytes.append(0x0A)
        if let failure = outcome.failure {
            failures.append((stream, failure))
            bytes.append(contentsOf: "FAILS at version \(failure.version): \(failure.reason)\n".utf8)
        } else {
            JSONWriter.write(outcome.summary, into: &bytes)
            bytes.append(0x0A)
        }
    }

    /// The part of `names` from the log's folds. A name without a fold had no event up to the
    /// replay's position.
    static func render(_ names: ArraySlice<StreamName>, from folds: [String: LogReplay.Entry]) throws
        -> ReplayDigestPart
    {
        var part = ReplayDigestPart()
        for name in names {
            if let entry = folds[name.rawValue] {
                part.add(name, StreamReplay.Outcome(fold: entry.fold, events: entry.events, failure: entry.failure))
            } else {
                // No event up to the position: the fold of no events, which fails only for a
                // stream no fold takes.
                part.add(name, try StreamReplay.fold(name, pages: { _, _ in [] }))
            }
        }
        return part
    }

    /// The parts of `names` from the log's folds, rendered on two threads (both read the same
    /// folds, which nobody changes any more), in name order.
    static func render(inTwo names: [StreamName], from folds: [String: LogReplay.Entry]) throws
        -> [ReplayDigestPart]
    {
        let half = names.count / 2
        let first = BackgroundTask { Result { try render(names[..<half], from: folds) } }
        let second = Result { try render(names[half...], from: folds) }
        return [try first.wait().get(), try second.get()]
    }
}
