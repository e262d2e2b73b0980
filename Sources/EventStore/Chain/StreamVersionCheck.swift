/// What every read of a stream checks besides each event's chain link (spec §9): a stream's
/// versions are 0, 1, 2, … without a gap, so a read returns them one after the other, and a read
/// that reaches the stream's start reaches version 0. A stream read thus sees events deleted
/// from the middle or the start of its stream; events deleted from its end are seen by
/// `EventStore.checkForCuts()` when they were the log's last, and by scans and `verify` otherwise.
struct StreamVersionCheck {
    private let stream: StreamName
    private let direction: ReadDirection
    /// The version the next event must have (nil: any, for the first of a backward read).
    private var expected: Int64?
    private var last: RecordedEvent?
    private var count = 0

    init(stream: StreamName, from version: Int64, direction: ReadDirection) {
        self.stream = stream
        self.direction = direction
        switch direction {
        case .forward: expected = max(version, 0)
        case .backward: expected = nil
        }
    }

    /// Checks the next event the read returns.
    mutating func check(_ event: RecordedEvent) throws(EventStoreError) {
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
    /// stream's start, which is version 0.
    func finish(limit: Int) throws(EventStoreError) {
        guard direction == .backward, count < limit, let last, last.version != 0 else { return }
        throw .integrity(
            at: last.position,
            "stream \(stream) starts at version \(last.version) here: versions 0 … \(last.version - 1) are missing")
    }
}
