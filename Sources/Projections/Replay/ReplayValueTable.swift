import JournalCore

/// The writer's side of a record's value table (``ReplayRecordFormat``): each short value's
/// number, in the order values first came. Open addressing over one byte arena, keyed by a hash
/// of the bytes taken eight at a time: a look-up makes no array and runs no `Hasher` (every
/// changed field of every event is looked up). The hash is the writer's alone: the record holds
/// the numbers, not the hashes.
struct ReplayValueTable {
    private var arena: [UInt8] = []
    /// Where value `i` ends in `arena`; it begins where value `i - 1` ends.
    private var ends: [Int32] = []
    private var hashes: [UInt32] = []
    /// Value numbers, -1 for an empty slot; a power of two long, at most half full.
    private var slots: [Int32] = Array(repeating: -1, count: 1 << 6)

    var count: Int { ends.count }

    /// The number of `bytes`; when it has none and `limit` allows, it gets the next one, and
    /// `added` is true.
    mutating func number(of bytes: ArraySlice<UInt8>, limit: Int) -> (number: Int, added: Bool)? {
        let short = Self.hash(bytes)
        var slot = Int(short) & (slots.count - 1)
        while true {
            let number = Int(slots[slot])
            if number < 0 { break }
            if hashes[number] == short, same(number, bytes) { return (number, false) }
            slot = (slot + 1) & (slots.count - 1)
        }
        guard count < limit else { return nil }
        arena.append(contentsOf: bytes)
        ends.append(Int32(arena.count))
        hashes.append(short)
        slots[slot] = Int32(count - 1)
        if count * 2 > slots.count { grow() }
        return (count - 1, true)
    }

    /// True when value `number` is `bytes`.
    private func same(_ number: Int, _ bytes: ArraySlice<UInt8>) -> Bool {
        let start = number == 0 ? 0 : Int(ends[number - 1])
        let count = Int(ends[number]) - start
        guard count == bytes.count else { return false }
        guard count > 0 else { return true }
        return arena.withUnsafeBytes { arena in
            bytes.withUnsafeBytes { bytes in Memory.equal(arena.baseAddress! + start, bytes.baseAddress!, count: count)
            }
        }
    }

    /// A hash of `bytes`, eight at a time (values are short: statuses, codes, identifiers).
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { bytes in
            var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                hash ^= hash >> 31
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
            hash ^= hash >> 29
            return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        for number in 0..<count {
            var slot = Int(hashes[number]) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(number)
        }
    }
}
