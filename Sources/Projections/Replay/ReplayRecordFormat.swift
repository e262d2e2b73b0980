/// The layout of a replay record (`journal replay --all --record FILE`; docs/replay.md).
///
/// A first line of text, `journal-replay-record 1 <rules identifier>` and a line feed, then
/// entries, each a tag byte and its fields (unsigned LEB128 varints and byte strings, each
/// string a varint length and its bytes), in the log's position order:
///
/// 1. a stream, at its first event (streams are numbered 0, 1, 2… in this order): its name;
/// 2. the initial state of the streams whose names begin with a prefix (`3ds-`, `card-`), before
///    the first step of such a stream: the prefix, the state's summary as compact JSON;
/// 3. a step, the state after the stream's next version as the fields that changed since the
///    version before (since the initial state for version 0): stream number, count, and per
///    field its index in the initial state's keys and a value code;
/// 4. the stream's next version does not fold (nor will the ones after it): stream number, reason;
/// 5. a version after the stream's failure: stream number;
/// 6. the end: events, streams, FNV-1a 64 of every byte before this entry (8 bytes,
///    little-endian).
///
/// A value code is 0 then the value (compact JSON, as a string), 1 then the value, which also
/// becomes the next entry of the record's value table, or 2 + an index into that table. Values
/// of at most ``internLimit`` bytes enter the table, up to ``tableLimit`` entries: statuses, steps,
/// counters, flags and small numbers are then two or three bytes a field.
enum ReplayRecordFormat {
    static let magic = "journal-replay-record"
    static let version = 1

    enum Tag: UInt8 {
        case stream = 1
        case initial = 2
        case step = 3
        case fails = 4
        case skipped = 5
        case end = 6
    }

    static let internLimit = 40
    static let tableLimit = 1 << 16

    /// The prefix that names a stream's category: its name up to and including the first `-`.
    static func prefix(of stream: String) -> String {
        guard let dash = stream.firstIndex(of: "-") else { return stream }
        return String(stream[...dash])
    }
}

/// FNV-1a, 64 bits: the record's check against truncation and stray edits (not a seal: a record
/// is a developer's file, not evidence).
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func update<C: Collection<UInt8>>(_ bytes: C) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }
}
