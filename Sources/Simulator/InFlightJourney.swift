import EventStore
import JournalCore

/// An admitted journey whose events have not all been handed out: the data of every event packed
/// in one buffer as it was generated, the first event's meta at its end; the ids as the domain
/// made them.
final class InFlightJourney {
    struct Entry {
        /// The event id as its two words when it is a lowercase UUID (`idText` nil), else its
        /// text: no string object per event to count references to while the journey waits.
        var idHigh: UInt64
        var idLow: UInt64
        var idText: String?
        /// The type's index in ``EventTypeIndex/names``.
        var typeIndex: UInt8
        var occurredAt: Int64
        /// Filled in by the simulation after the journey is generated.
        var recordedAt: Int64
        /// The data is `bytes[previous dataEnd ..< dataEnd]` (from 0 for the first event).
        var dataEnd: Int32
    }

    let stream: String
    /// The stream's name checked by the store's rules, once per journey (the append path).
    var streamName: StreamName?
    private let bytes: [UInt8]
    private let entries: [Entry]
    /// Where the first event's meta starts (it runs to the end of `bytes`; empty: no meta).
    private let metaStart: Int
    private var cursor = 0

    init(stream: String, bytes: [UInt8], entries: [Entry], metaStart: Int) {
        self.stream = stream
        self.bytes = bytes
        self.entries = entries
        self.metaStart = metaStart
    }

    var nextTime: Int64? { cursor < entries.count ? entries[cursor].recordedAt : nil }

    /// The next event lent to `body` in place, its data and meta inside the journey's bytes
    /// (the simulator's load path: no arrays made and freed per event), then moves past it.
    func withNext<R>(_ body: (BorrowedEvent) -> R) -> R {
        let entry = entries[cursor]
        let start = cursor == 0 ? 0 : Int(entries[cursor - 1].dataEnd)
        let end = Int(entry.dataEnd)
        precondition(start >= 0 && start <= end && end <= metaStart && metaStart <= bytes.count,
                     "an event outside the journey's bytes")
        let hasMeta = cursor == 0 && metaStart < bytes.count
        let version = Int64(cursor)
        cursor += 1
        return bytes.withUnsafeBytes { all in
            body(BorrowedEvent(idHigh: entry.idHigh, idLow: entry.idLow, idText: entry.idText, version: version, type: EventTypeIndex.names[Int(entry.typeIndex)],
                               occurredAt: Timestamp(millisecondsSinceEpoch: entry.occurredAt),
                               recordedAt: Timestamp(millisecondsSinceEpoch: entry.recordedAt),
                               data: UnsafeRawBufferPointer(rebasing: all[start..<end]),
                               meta: hasMeta ? UnsafeRawBufferPointer(rebasing: all[metaStart...]) : nil))
        }
    }

    /// An event of the journey, valid only inside `withNext`'s body.
    struct BorrowedEvent {
        let idHigh: UInt64
        let idLow: UInt64
        /// The id's text when it is not a lowercase UUID (then the words are unused).
        let idText: String?
        let version: Int64
        let type: String
        let occurredAt: Timestamp
        let recordedAt: Timestamp
        let data: UnsafeRawBufferPointer
        let meta: UnsafeRawBufferPointer?

        var id: String { idText ?? UUIDText.lowercaseText(high: idHigh, low: idLow) }
    }
}

struct PackedEvents {
    let bytes = ByteScratch()
    var entries: [InFlightJourney.Entry] = []

    init() {
        entries.reserveCapacity(12)
    }

    /// An event whose data `write` writes (see ``ScratchDataWriter``).
    mutating func append(id: String, typeIndex: UInt8, occurredAt: Timestamp, write: (inout ScratchDataWriter) -> Void) {
        var writer = ScratchDataWriter(into: bytes)
        write(&writer)
        writer.finish()
        let words = UUIDText.words(id)
        entries.append(InFlightJourney.Entry(idHigh: words?.high ?? 0, idLow: words?.low ?? 0, idText: words == nil ? id : nil,
                                             typeIndex: typeIndex, occurredAt: occurredAt.millisecondsSinceEpoch,
                                             recordedAt: 0, dataEnd: Int32(bytes.count)))
    }

    /// The entries so far; the next journey starts a new list (the byte buffer stays).
    mutating func takeEntries() -> [InFlightJourney.Entry] {
        var taken: [InFlightJourney.Entry] = []
        taken.reserveCapacity(12)
        swap(&taken, &entries)
        return taken
    }
}
