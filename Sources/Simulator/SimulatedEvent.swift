import JournalCore

/// One event of a simulation, in the order it reaches the journal, with everything the store
/// needs: the envelope, the stream version, and `recordedAt` from the simulated clock.
public struct SimulatedEvent: Sendable, Equatable {
    public var id: String
    public var stream: String
    /// The event's version in its stream (0 for the first).
    public var version: Int64
    public var type: String
    /// The device's clock (true time plus the device's skew).
    public var occurredAt: Timestamp
    /// When the event reached the journal on the simulated clock; never decreases along a run.
    public var recordedAt: Timestamp
    /// The `data` object as compact JSON.
    public var data: [UInt8]
    /// The `meta` object as compact JSON (first event of a stream), or nil.
    public var meta: [UInt8]?

    /// The import envelope as one NDJSON line without its line feed (see ``EnvelopeWriter``).
    public func writeEnvelope(into out: inout [UInt8]) {
        var writer = EnvelopeWriter()
        writer.write(self, into: &out)
    }
}
