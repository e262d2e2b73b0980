import EventStore
import JournalCore

/// Part of what `replay --all` reports for a run of streams in name order: their count, their
/// events, their failures, and the bytes of the digest of all final states, per stream
/// `<stream>\n<final state as compact JSON>\n`, or `<stream>\nFAILS at version V: reason\n`
/// (so a changed rule changes the digest too). The digest hashes the parts' bytes in order
/// (``ReplayReport``).
///
/// Rendering the final states of a whole log is a large share of `replay --all` after the scan
/// (one summary per stream, millions in a large log), so the streams are rendered in chunks, two
/// at a time on two threads, and each chunk is hashed and dropped once rendered
/// (`report(_:from:chunk:)`): the work is shared by the cores and the memory stays that of two
/// chunks, whatever the number of streams.
package struct ReplayDigestPart {
    package var bytes: [UInt8] = []
    var streams = 0
    package var events = 0
    var failures: [(stream: StreamName, failure: StreamReplay.Failure)] = []

    package init() {}

    /// Adds one stream's outcome; a stream with no event up to the replay's position (it begins
    /// after it) has no part in the report.
    package mutating func add(_ stream: StreamName, _ outcome: StreamReplay.Outcome) {
        add(stream, events: outcome.events, failure: outcome.failure) { outcome.writeSummary(into: &$0) }
    }

    /// Adds one stream's outcome: its events, its failure, else its final state, which
    /// `writeState` appends as compact JSON.
    package mutating func add(
        _ stream: StreamName, events: Int, failure: StreamReplay.Failure?, writeState: (inout [UInt8]) -> Void
    ) {
        guard events > 0 || failure != nil else { return }
        streams += 1
        self.events += events
        bytes.append(contentsOf: stream.rawValue.utf8)
        bytes.append(0x0A)
        if let failure {
            failures.append((stream, failure))
            bytes.append(contentsOf: "FAILS at version \(failure.version): \(failure.reason)\n".utf8)
        } else {
            writeState(&bytes)
            bytes.append(0x0A)
        }
    }

    /// The part of `names` from the log's folds. A name without a fold had no event up to the
    /// replay's position.
    static func render(_ names: ArraySlice<StreamName>, from folds: LogReplay.Folds) throws
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

    /// Streams per chunk of ``report(_:from:chunk:)``.
    static let chunk = 4096

    /// The report of `names` from the log's folds: chunks of `chunk` names rendered two at a
    /// time, on this thread and another (both read the same folds, which nobody changes any
    /// more), and hashed in name order.
    package static func report(_ names: [StreamName], from folds: LogReplay.Folds, chunk: Int = chunk) throws
        -> ReplayReport
    {
        precondition(chunk > 0, "a chunk holds at least one stream")
        var report = ReplayReport()
        var start = names.startIndex
        while start < names.endIndex {
            let middle = min(start + chunk, names.endIndex)
            let end = min(middle + chunk, names.endIndex)
            let second = BackgroundTask { Result { try render(names[middle..<end], from: folds) } }
            let first = Result { try render(names[start..<middle], from: folds) }
            let rendered = second.wait()
            report.absorb(try first.get())
            report.absorb(try rendered.get())
            start = end
        }
        return report
    }
}

/// What `replay --all` reports: the streams and events folded, the streams that no longer fold,
/// and the digest of all final states, fed ``ReplayDigestPart``s in stream-name order.
package struct ReplayReport {
    package private(set) var streams = 0
    package private(set) var events = 0
    package private(set) var failures: [(stream: StreamName, failure: StreamReplay.Failure)] = []
    private let digest = SHA256Digest()

    package init() {}

    package mutating func absorb(_ part: ReplayDigestPart) {
        streams += part.streams
        events += part.events
        failures += part.failures
        digest.update(part.bytes)
    }

    /// The digest as 64 hex digits; call once, after the last part.
    package func finish() -> String { digest.finish() }
}
