/// What every read of a stream checks besides each event's chain link (spec §9): a stream's
/// versions are 0, 1, 2, … without a gap, so a read returns them one after the other, and a read
/// that reaches the stream's start reaches version 0. With the stream's end the journal recorded
/// (`StreamEnd`, read before the events, so the events read are at least as recent), a read that
/// reaches the stream's end must reach that version too: events deleted from a stream's end,
/// anywhere in the log, are seen. A journal of an older schema read as it is records no end:
/// then only `EventStore.checkForCuts()` (the log's last events), scans and `verify` see them.
struct StreamVersionCheck {
    private let stream: StreamName
    private let direction: ReadDirection
    private let recorded: StreamEnd?
    /// The version the next event must have (nil: any, for the first of a backward read).
    private var expected: Int64?
    /// A backward read from past the recorded end: the first event must be at least there.
    private var atLeast: Int64?
    private var last: RecordedEvent?
    private var count = 0

    init(stream: StreamName, from version: Int64, direction: ReadDirection, recorded: StreamEnd? = nil) {
        self.stream = stream
        self.direction = direction
        self.recorded = recorded
        switch direction {
        case .forward:
            expected = max(version, 0)
        case .backward:
            // At or below the recorded end, version `version` is there; above it, the stream
            // may have grown since its end was read, but it reaches at least that end.
            if let recorded, version >= 0 {
                if version <= recorded.version { expected = version } else { atLeast = recorded.version }
            }
        }
    }

    /// Checks the next event the read returns.
    mutating func check(_ event: RecordedEvent) throws(EventStoreError) {
        if let atLeast, let recorded, event.version < atLeast {
            throw gone(from: event.version + 1, to: atLeast, recorded: recorded, shown: event)
        }
        atLeast = nil
        if let expected, event.version != expected {
            let missing =
                event.version > expected && direction == .forward
                ? ": versions \(expected) … \(event.version - 1) are missing"
                : event.version < expected && direction == .backward
                    ? ": versions \(event.version + 1) … \(expected) are missing" : ""
            throw .integrity(
                at: event.position,
                "stream \(stream) has version \(event.version) here, expected \(expected)\(missing)")
        }
        switch direction {
        case .forward: expected = event.version + 1
        case .backward: expected = event.version - 1
        }
        last = event
        count += 1
    }

    /// After the read: a backward read that returned fewer than `limit` events reached the
    /// stream's start, which is version 0; a forward read that did reached the stream's end,
    /// which is at least the recorded one.
    func finish(limit: Int) throws(EventStoreError) {
        guard count < limit else { return }
        switch direction {
        case .forward:
            guard let recorded, let expected, expected <= recorded.version else { return }
            throw gone(from: expected, to: recorded.version, recorded: recorded, shown: last)
        case .backward:
            if let last {
                guard last.version != 0 else { return }
                throw .integrity(
                    at: last.position,
                    "stream \(stream) starts at version \(last.version) here: versions 0 … \(last.version - 1) "
                        + "are missing")
            }
            // Nothing read, though the stream has events at or below where the read started.
            guard let recorded, let top = expected ?? atLeast else { return }
            throw gone(from: 0, to: min(top, recorded.version), recorded: recorded, shown: nil)
        }
    }

    /// Versions `from` … `to` of a stream whose recorded end is `recorded` are gone; `shown` is
    /// the event the read stopped at, if any. Named at the recorded last event's position: the
    /// first missing event's is not known.
    private func gone(from: Int64, to: Int64, recorded: StreamEnd, shown: RecordedEvent?) -> EventStoreError {
        let read =
            shown.map { "the read stops at version \($0.version) (position \($0.position))" }
            ?? "no event of it is stored there"
        return .integrity(
            at: recorded.position,
            "the journal recorded version \(recorded.version) at position \(recorded.position) as the last "
                + "event of stream \(stream), but \(read): versions \(from) … \(to) are gone")
    }
}
