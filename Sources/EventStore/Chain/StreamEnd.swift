/// What the journal records of a stream with every append that writes to it, in the same
/// transaction (spec §9, "the version the journal recorded for the stream"): the version of its
/// last event and that event's position. A read of the stream that stops short of it, and a
/// `verify` whose walk ends the stream elsewhere, have found events that are gone.
struct StreamEnd: Equatable, Sendable {
    var version: Int64
    var position: Int64

    /// `verify`'s part: the end recorded for `stream` against its last stored event, as the walk
    /// of the log found it (nil: none recorded, or no event stored), in a log whose last
    /// position is `head`. Nil when they agree; else `.integrity` at the first position known
    /// to be bad: the stored last event when the record does not account for it, else (events
    /// gone from the stream's end) the recorded last event's position, or `head + 1` when that
    /// lies past the log.
    static func mismatch(stream: String, recorded: StreamEnd?, stored: StreamEnd?, head: Int64) -> EventStoreError? {
        guard recorded != stored else { return nil }
        let position: Int64
        if let recorded, recorded.position > stored?.position ?? 0 {
            position = min(recorded.position, head + 1)
        } else {
            position = stored?.position ?? 1
        }
        let says =
            recorded.map { "records version \($0.version) at position \($0.position) as its last event" }
            ?? "records no last event"
        let holds =
            stored.map { "its last stored event is version \($0.version) at position \($0.position)" }
            ?? "no event of it is stored"
        return .integrity(
            at: position,
            "the journal \(says) for stream \(stream), but \(holds): the stream or its bookkeeping was changed")
    }

    /// Collects `mismatch` over every stream and throws the one at the smallest position.
    struct Check {
        let head: Int64
        private(set) var first: EventStoreError?

        init(head: Int64) { self.head = head }

        mutating func add(stream: String, recorded: StreamEnd?, stored: StreamEnd?) {
            guard let error = StreamEnd.mismatch(stream: stream, recorded: recorded, stored: stored, head: head)
            else { return }
            if let first, (first.position ?? 0) <= (error.position ?? 0) { return }
            first = error
        }

        func finish() throws(EventStoreError) {
            if let first { throw first }
        }
    }
}
