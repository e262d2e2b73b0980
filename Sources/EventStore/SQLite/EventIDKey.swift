/// An event id as a hashable value for the writer's in-memory id map: the 16 bytes of a
/// lowercase canonical UUID as two integers (no allocation), any other spelling as its text.
/// Ids compare exactly as written, like `EventIDCoding`.
enum EventIDKey: Hashable {
    case packed(UInt64, UInt64)
    case text(String)

    init(_ id: String) {
        if let packed = EventIDCoding.packedWords(id) {
            self = .packed(packed.high, packed.low)
        } else {
            self = .text(id)
        }
    }

    // Ids are random, so one word feeds the hash; equality still compares all of them.
    func hash(into hasher: inout Hasher) {
        switch self {
        case let .packed(high, low): hasher.combine(high ^ (low &* 0x9E37_79B9_7F4A_7C15))
        case let .text(text): hasher.combine(text)
        }
    }

    /// The key of a stored `event_id` value: a 16-byte BLOB or a TEXT.
    init?(stored bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self = .packed(high, low)
    }

    /// The key of the stored id in column `index` of the statement's current row: a 16-byte
    /// BLOB or a TEXT; nil for a damaged BLOB (not 16 bytes), which matches nothing.
    init?(column index: Int32, of statement: SQLiteStatement) {
        if statement.isBlob(at: index) {
            guard let key = statement.withBlob(at: index, { bytes in EventIDKey(stored: bytes) }) else { return nil }
            self = key
        } else {
            self = .text(statement.text(at: index))
        }
    }
}
