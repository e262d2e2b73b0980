import JournalCore

/// The walk of `verify()` on every backend: fed the stored rows in position order, it checks
/// the rule written in `ChainHasher.swift` and throws `.integrity` with the first bad position,
/// with the same checks and messages whatever the backend.
struct ChainVerifier {
    private let hasher: ChainHasher
    private var expectedPosition: Int64 = 1
    private var previous = ChainHasher.zeroHash
    /// Each stream's last event so far, by stream id.
    private var ends: [Int64: StreamEnd] = [:]

    init(hasher: ChainHasher) { self.hasher = hasher }

    /// Checks the next stored row: its position, its stream's version, and its hash. `decode`
    /// reads the row's event (its `.integrity` errors are reported at this row's position).
    mutating func check(
        position: Int64, streamID: Int64, version: Int64,
        decode: () throws(EventStoreError) -> RecordedEvent
    ) throws(EventStoreError) {
        try Self.checkPosition(position, expected: expectedPosition)
        let expectedVersion = ends[streamID].map { $0.version + 1 } ?? 0
        let event: RecordedEvent
        do {
            event = try decode()
        } catch  where error.code == .integrity {
            throw .integrity(at: position, error.message)
        }
        guard version == expectedVersion else {
            throw .integrity(
                at: position, "stream \(event.stream) has version \(version) here, expected \(expectedVersion)")
        }
        let previous = self.previous
        let hash = event.data.withUnsafeBytes { data in
            OptionalBytes.with(event.meta) { meta in
                hasher.hash(
                    previous: previous, position: position, version: version, stream: event.stream.rawValue,
                    id: event.id, type: event.type, occurredAt: event.occurredAt,
                    recordedAt: event.recordedAt, data: data, meta: meta)
            }
        }
        guard hash == event.hash else {
            throw .integrity(at: position, "the stored hash does not match the event's content and the previous hash")
        }
        ends[streamID] = StreamEnd(version: version, position: position)
        self.previous = hash
        expectedPosition += 1
    }

    /// The last event of stream `streamID` the walk has met (nil: none).
    func end(of streamID: Int64) -> StreamEnd? { ends[streamID] }

    /// After the last row: checks the journal head against the end of the log.
    func finish(headPosition: Int64, headHash: [UInt8]) throws(EventStoreError) -> VerifyReport {
        let last = expectedPosition - 1
        try Self.checkHead(headPosition: headPosition, headHash: headHash, last: last, lastHash: previous)
        return VerifyReport(
            events: last, streams: Int64(ends.count), headPosition: last,
            headHash: last == 0 ? "" : previous.hexString)
    }

    /// The next stored row must be at `expected`: `.integrity` naming the missing position, or
    /// the row out of order.
    static func checkPosition(_ position: Int64, expected: Int64) throws(EventStoreError) {
        guard position != expected else { return }
        if position > expected {
            throw .integrity(
                at: expected, "the event at position \(expected) is missing (the next stored position is \(position))")
        }
        throw .integrity(at: position, "position \(position) is out of order (expected \(expected))")
    }

    /// The journal head (`headPosition`, `headHash`) must be the log's last event (`last`, whose
    /// hash is `lastHash`; 32 zero bytes for an empty log): `.integrity` when events were removed
    /// or added behind the store's back.
    static func checkHead(headPosition: Int64, headHash: [UInt8], last: Int64, lastHash: [UInt8])
        throws(EventStoreError)
    {
        if headPosition > last {
            throw .integrity(
                at: last + 1,
                "the journal head is at position \(headPosition), but the log ends at \(last): events were removed")
        }
        if headPosition < last {
            throw .integrity(
                at: headPosition + 1,
                "the log goes on past the journal head (\(headPosition)): events were added outside the store")
        }
        if headHash != lastHash {
            throw .integrity(at: max(last, 1), "the journal head's hash does not match the last event")
        }
    }
}
