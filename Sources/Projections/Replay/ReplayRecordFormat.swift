/// The layout of a replay record (`journal replay --all --record FILE`; docs/replay.md), format 2.
///
/// A first line of text, `journal-replay-record 2 <rules identifier>` and a line feed, then
/// entries in the log's position order, each a tag byte and its fields (unsigned LEB128 varints
/// and byte strings, each string a varint length and its bytes).
///
/// The tag's two low bits are flags of an event's entry, its six high bits the entry's code:
///
/// - code 0, the control entries: tag 0, the initial state of the streams of a category (a name
///   prefix: `3ds-`, `card-`), before the first entry of such a stream: the prefix, the state's
///   summary as compact JSON, whose keys number the category's fields; categories are numbered
///   0, 1, 2… in this order. Tag 1, the end: the counts of events and streams, and the FNV-1a 64
///   sum of every byte before this entry (8 bytes, little-endian).
/// - codes 1 to 63, an event of a stream: bit 1 (``newStream``) when it is the stream's first,
///   its name then follows the tag (``NameForm``) and the stream takes the smallest free slot;
///   otherwise the stream's slot follows (a varint). Bit 0 (``endsStream``) when it is the
///   stream's last event (the store's `journal_streams.last_position`): its slot is free after
///   it. Then, by code:
///   - 1, the event does not fold (nor will the ones after it): the reason;
///   - 2, an event after the stream's failure: nothing;
///   - 3, a step (the state after the event) whose shape follows: a varint, 0 for a new shape
///     (its number of fields and each field's number, varints; it gets the next number in its
///     category's list of shapes), else the shape's number + 1;
///   - 4 to 63, a step of shape `code - 4`.
///   A step's shape is the list of fields that changed since the stream's version before (since
///   the initial state for its first): after it, a value code per field, in that order.
///
/// A value code is a varint: 0 and a value (compact JSON, a byte string), which also enters its
/// field's value table when it has at most ``internLimit`` bytes and the table fewer than
/// ``tableLimit`` values; 1 and a timestamp (`"YYYY-MM-DDTHH:MM:SS.sssZ"`) as the zigzag varint
/// of its milliseconds minus those of the field's last timestamp in the record (0 before the
/// first); 2 + an index into the field's value table. Tables, shapes and timestamps are kept per
/// category and field: statuses, steps, counters and flags are one byte a field.
enum ReplayRecordFormat {
    static let magic = "journal-replay-record"
    static let version = 2

    /// Flags of an event entry's tag.
    static let endsStream: UInt8 = 1
    static let newStream: UInt8 = 2

    enum Code: UInt8 {
        case control = 0
        case fails = 1
        case skipped = 2
        case shapedStep = 3
    }

    /// Control entries' tags.
    static let initialTag: UInt8 = 0
    static let endTag: UInt8 = 1

    /// The first code of a step whose shape is in its tag, and the shapes it can name.
    static let firstShapeCode: UInt8 = 4
    static let inlineShapes = 60

    /// A new stream's name: a varint form, 0 then the name (a byte string), or
    /// `1 + 2 × category + upper` then the 16 bytes of the UUID that follows the category's
    /// prefix, written in lower (`upper` 0) or upper case hex (`8-4-4-4-12`).
    enum NameForm {
        static let raw = 0
    }

    static let internLimit = 40
    static let tableLimit = 1 << 12

    /// The prefix that names a stream's category: its name up to and including the first `-`.
    static func prefix(of stream: String) -> String {
        guard let dash = stream.firstIndex(of: "-") else { return stream }
        return String(stream[...dash])
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
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
