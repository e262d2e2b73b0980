import Domain
import EventStore
import JournalCore

/// An admitted journey whose events have not all been handed out: the data of every event packed
/// in one buffer as it was generated, the first event's meta at its end; the ids as the domain
/// made them.
final class InFlightJourney {
    /// An event id as its two words when it is a lowercase UUID (`text` nil), else its text:
    /// no string object per event to count references to while the journey waits.
    struct EventID {
        var high: UInt64
        var low: UInt64
        var text: String?

        /// `words`: the id's words when the caller knows them (else the text is parsed).
        init(_ id: String, words known: (high: UInt64, low: UInt64)? = nil) {
            let words = known ?? UUIDText.words(id)
            (high, low, text) = (words?.high ?? 0, words?.low ?? 0, words == nil ? id : nil)
        }

        var string: String { text ?? UUIDText.lowercaseText(high: high, low: low) }
    }

    struct Entry {
        var id: EventID
        /// The type's index in ``EventType/names``.
        var typeIndex: UInt8
        var occurredAt: Int64
        /// Filled in by the simulation after the journey is generated.
        var recordedAt: Int64
        /// The data is `bytes[previous dataEnd ..< dataEnd]` (from 0 for the first event).
        var dataEnd: Int32
    }

    // Used by the generating thread only. The mutable properties keep their run-time
    // exclusivity checks: skipping them saved nothing measurable (docs/benchmarks-history.md,
    // "Exclusivity checks").
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
        precondition(
            start >= 0 && start <= end && end <= metaStart && metaStart <= bytes.count,
            "an event outside the journey's bytes")
        let hasMeta = cursor == 0 && metaStart < bytes.count
        let version = Int64(cursor)
        cursor += 1
        return bytes.withUnsafeBytes { all in
            Self.simulatedMeta.withUnsafeBytes { marker in
                body(
                    BorrowedEvent(
                        id: entry.id, version: version, type: EventType.names[Int(entry.typeIndex)],
                        occurredAt: Timestamp(millisecondsSinceEpoch: entry.occurredAt),
                        recordedAt: Timestamp(millisecondsSinceEpoch: entry.recordedAt),
                        data: UnsafeRawBufferPointer(rebasing: all[start..<end]),
                        meta: hasMeta ? UnsafeRawBufferPointer(rebasing: all[metaStart...]) : marker))
            }
        }
    }

    /// The `meta` of every simulated event but a journey's first (whose meta also names the SDK):
    /// simulated events must stay recognisable once they sit in a journal (spec §4).
    static let simulatedMeta: [UInt8] = Array(#"{"simulated":true}"#.utf8)

    /// An event of the journey, valid only inside `withNext`'s body.
    struct BorrowedEvent {
        let id: EventID
        let version: Int64
        let type: String
        let occurredAt: Timestamp
        let recordedAt: Timestamp
        let data: UnsafeRawBufferPointer
        let meta: UnsafeRawBufferPointer?
    }
}

struct PackedEvents {
    let bytes = ByteScratch()
    var entries: [InFlightJourney.Entry] = []

    init() {
        entries.reserveCapacity(12)
    }

    /// An event whose data `write` writes (see ``ScratchDataWriter``).
    mutating func append(
        id: String, words: (high: UInt64, low: UInt64)?, typeIndex: UInt8, occurredAt: Timestamp,
        write: (inout ScratchDataWriter) -> Void
    ) {
        var writer = ScratchDataWriter(into: bytes)
        write(&writer)
        writer.finish()
        entries.append(
            InFlightJourney.Entry(
                id: InFlightJourney.EventID(id, words: words), typeIndex: typeIndex,
                occurredAt: occurredAt.millisecondsSinceEpoch, recordedAt: 0,
                dataEnd: Int32(bytes.count)))
    }

    /// The entries so far; the next journey starts a new list (the byte buffer stays).
    mutating func takeEntries() -> [InFlightJourney.Entry] {
        var taken: [InFlightJourney.Entry] = []
        taken.reserveCapacity(12)
        swap(&taken, &entries)
        return taken
    }
}
