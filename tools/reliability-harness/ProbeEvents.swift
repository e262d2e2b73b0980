import EventStore
import JournalCore

/// The deterministic events of `append-batches`. The tests recognise them by their data
/// (`{"batch":b,"index":i,"thread":t}`), so they need no copy of this naming.
enum ProbeEvents {
    static let baseTime: Int64 = 1_796_292_000_000 // 2026-12-03T10:40:00.000Z

    /// `<8 hex of high>-0000-4000-8000-<12 hex of low>`, lowercase.
    static func uuid(high: UInt32, low: UInt64) -> String {
        hex(UInt64(high), 8) + "-0000-4000-8000-" + hex(low, 12)
    }

    static func hex(_ value: UInt64, _ width: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// The thread's ledger: one event per batch, appended with an exact expected version.
    static func ledger(thread: Int) throws(EventStoreError) -> StreamName {
        try StreamName("card-" + uuid(high: 0xA1ED_0000, low: UInt64(thread)))
    }

    /// Event `index` of batch `batch`: index 0 goes to the ledger, the others each open a stream.
    static func event(batch: Int, index: Int, thread: Int) -> ProposedEvent {
        let data = #"{"batch":\#(batch),"index":\#(index),"thread":\#(thread)}"#
        return ProposedEvent(
            id: uuid(high: 0xE000_0000, low: UInt64(batch) * 100_000 + UInt64(index)),
            type: "ReliabilityProbe",
            occurredAt: Timestamp(millisecondsSinceEpoch: baseTime + Int64(batch) * 1_000 + Int64(index)),
            data: Array(data.utf8))
    }

    static func stream(batch: Int, index: Int) throws(EventStoreError) -> StreamName {
        try StreamName("3ds-" + uuid(high: 0xB000_0000, low: UInt64(batch) * 100_000 + UInt64(index)))
    }
}
