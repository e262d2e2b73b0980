/// A Bloom filter over the event ids in `journal_event_ids`, so that a writer appending new
/// events (whose ids are almost never stored) skips the index lookup that would prove it: "not in
/// the filter" means "not in the index"; "maybe" means ask SQLite. It may hold ids the index does
/// not (a rolled-back copy), never the reverse; `RecentEventIDs` keeps it that way.
///
/// Split-block layout (as in Parquet's and Impala's filters): an id picks one 512-bit block (one
/// cache line) and sets one bit in each of its eight words. At 10 bits an id, about 1 % of
/// absent ids are "maybe"; the filter is built for twice the ids it holds, and reports `isFull`
/// past 10 bits an id.
struct IndexedIDFilter {
    private var words: [UInt64]
    private let blocks: UInt64
    private(set) var count = 0
    /// Ids it can hold at about 1 % false positives.
    let capacity: Int

    /// A filter sized for `capacity` ids.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        let blocks = (self.capacity * 10 + 511) / 512
        self.blocks = UInt64(blocks)
        words = [UInt64](repeating: 0, count: blocks * 8)
    }

    var isFull: Bool { count > capacity }

    /// Bytes of memory the filter holds.
    var byteCount: Int { words.count * 8 }

    mutating func insert(_ key: EventIDKey) {
        let (block, bits) = probe(key)
        words.withUnsafeMutableBufferPointer { words in
            for word in 0..<8 { words[block + word] |= 1 &<< ((bits &>> (word * 6)) & 63) }
        }
        count += 1
    }

    func mayContain(_ key: EventIDKey) -> Bool {
        let (block, bits) = probe(key)
        return words.withUnsafeBufferPointer { words in
            for word in 0..<8 where words[block + word] & (1 &<< ((bits &>> (word * 6)) & 63)) == 0 { return false }
            return true
        }
    }

    /// The first word of the id's block, and 48 bits choosing one bit in each of its words.
    private func probe(_ key: EventIDKey) -> (block: Int, bits: UInt64) {
        let hash: UInt64
        switch key {
        case let .packed(high, low): hash = Self.mix(high ^ Self.mix(low))
        case let .text(text): hash = Self.mix(UInt64(bitPattern: Int64(text.hashValue)))
        }
        // The high half picks the block (multiply-shift: no modulo), the low half the bits.
        let block = Int(hash.multipliedFullWidth(by: blocks).high) * 8
        return (block, Self.mix(hash))
    }

    /// The splitmix64 finalizer: every input bit moves about half the output bits, so
    /// time-ordered UUIDs (v1, v7) spread as well as random ones.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}
