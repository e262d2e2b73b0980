import JournalCore

/// The check every read of both backends makes of each event it returns (contract §4): its stored
/// hash must equal the chain link recomputed from the stored hash before it and its content.
enum ChainLinkCheck {
    /// `previous`: the stored hash at `event.position − 1` (nil when there is no such row).
    static func check(_ event: RecordedEvent, previous: [UInt8]?, hasher: ChainHasher) throws(EventStoreError) {
        var before = ChainHasher.zeroHash
        if event.position > 1 {
            guard let previous else {
                throw .integrity(at: event.position, "the event before it (position \(event.position - 1)) is missing")
            }
            before = previous
        }
        let expected = event.data.withUnsafeBytes { data in
            OptionalBytes.with(event.meta) { meta in
                hasher.hash(previous: before, position: event.position, version: event.version,
                            stream: event.stream.rawValue, id: event.id, type: event.type,
                            occurredAt: event.occurredAt, recordedAt: event.recordedAt, data: data, meta: meta)
            }
        }
        guard expected == event.hash else {
            throw .integrity(at: event.position, "the event's content does not match its stored hash")
        }
    }
}
