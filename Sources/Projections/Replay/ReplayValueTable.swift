/// The writer's side of a record's value table (``ReplayRecordFormat``): each short value's
/// number, in the order values first came. Open addressing over one byte arena, keyed by an
/// FNV-1a hash of the bytes: a look-up makes no array and runs no `Hasher` (every changed field
/// of every event is looked up).
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
    mutating func number(of bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> (number: Int, added: Bool)? {
        var hash = FNV1a64()
        hash.update(bytes)
        let short = UInt32(truncatingIfNeeded: hash.value ^ (hash.value >> 32))
        var slot = Int(short) & (slots.count - 1)
        while true {
            let number = Int(slots[slot])
            if number < 0 { break }
            if hashes[number] == short, isValue(number, bytes) { return (number, false) }
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

    private func isValue(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        arena.withUnsafeBufferPointer { arena in
            FieldsView.same(
                UnsafeBufferPointer(rebasing: arena[(number == 0 ? 0 : Int(ends[number - 1]))..<Int(ends[number])]), bytes)
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
