import JournalCore

/// The check every read of both backends makes of each event it returns (spec §4): its stored
/// hash must equal the chain link recomputed from the stored hash before it and its content.
enum ChainLinkCheck {
    /// `previous`: the stored hash at `event.position − 1` (nil when there is no such row).
    static func check(_ event: RecordedEvent, previous: [UInt8]?, hasher: ChainHasher) throws(EventStoreError) {
        let failure = event.data.withUnsafeBytes { data in
            OptionalBytes.with(event.meta) { meta in
                self.failure(
                    position: event.position, previous: previous, version: event.version,
                    stream: event.stream.rawValue, id: event.id, type: event.type, occurredAt: event.occurredAt,
                    recordedAt: event.recordedAt, data: data, meta: meta, hash: event.hash, hasher: hasher)
            }
        }
        if let failure { throw failure }
    }

    /// The same check of an event given by its fields (a scan's, which lends its payload).
    static func check(
        position: Int64, previous: [UInt8]?, version: Int64, stream: String, id: String, type: String,
        occurredAt: Timestamp, recordedAt: Timestamp, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, hash: [UInt8], hasher: ChainHasher
    ) throws(EventStoreError) {
        if let failure = failure(
            position: position, previous: previous, version: version, stream: stream, id: id,
            type: type, occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta,
            hash: hash, hasher: hasher)
        {
            throw failure
        }
    }

    /// What does not check, or nil.
    private static func failure(
        position: Int64, previous: [UInt8]?, version: Int64, stream: String, id: String,
        type: String, occurredAt: Timestamp, recordedAt: Timestamp, data: UnsafeRawBufferPointer,
        meta: UnsafeRawBufferPointer?, hash: [UInt8], hasher: ChainHasher
    ) -> EventStoreError? {
        var before = ChainHasher.zeroHash
        if position > 1 {
            guard let previous else {
                return .integrity(at: position, "the event before it (position \(position - 1)) is missing")
            }
            before = previous
        }
        let matches = hasher.link(
            previous: before, position: position, version: version, stream: stream, id: id,
            type: type, occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta, matches: hash)
        return matches ? nil : .integrity(at: position, "the event's content does not match its stored hash")
    }
}
