import EventStore
import JournalCore

/// Part of what `replay --all` reports for a run of streams in name order: their count, their
/// events, their failures, and the bytes of the digest of all final states, per stream
/// `<stream>\n<final state as compact JSON>\n`, or `<stream>\nFAILS at version V: reason\n`
/// (so a changed rule changes the digest too). The digest hashes the parts' bytes in order
/// (``ReplayReport``).
///
/// The parts are hashed and dropped a chunk at a time, so the memory does not grow with the
/// streams.
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
