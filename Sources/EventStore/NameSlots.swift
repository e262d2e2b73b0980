/// Names of stream or type ids in direct-mapped slots (an id's low bits choose its slot), in
/// front of the journal's dictionaries: log-wide reads ask for the same active streams over and
/// over, and an array index is cheaper than a hash lookup. A slot taken by another id is
/// overwritten.
///
/// The slots are allocated when the first name is kept, a few at first, and grow (up to
/// `slotCount`) when a name would overwrite another: a command that reads one event (`journal
/// prove`) neither zeroes nor touches a table it will not use.
package struct NameSlots<Name> {
    private var slots: [(id: Int64, name: Name)?] = []

    /// Slots of a full table (a power of two). Streams are created about in id order and live
    /// for a while: with thousands of journeys in flight (5,000 in the simulator's default
    /// profile) the active ids span more than 4,096 slots, and a smaller table overwrote names
    /// that were about to be read again.
    package static var slotCount: Int { 16_384 }

    /// Slots of a new table (a power of two).
    static var firstSlotCount: Int { 64 }

    package init() {}

    package func name(of id: Int64) -> Name? {
        guard !slots.isEmpty, let entry = slots[Self.slot(of: id, in: slots.count)], entry.id == id else { return nil }
        return entry.name
    }

    package mutating func keep(_ name: Name, for id: Int64) {
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.firstSlotCount) }
        var slot = Self.slot(of: id, in: slots.count)
        if let taken = slots[slot], taken.id != id, slots.count < Self.slotCount {
            grow()
            slot = Self.slot(of: id, in: slots.count)
        }
        slots[slot] = (id, name)
    }

    package mutating func removeAll() { slots = [] }

    /// Four times the slots, the names kept moved to theirs.
    private mutating func grow() {
        var grown = [(id: Int64, name: Name)?](repeating: nil, count: min(slots.count * 4, Self.slotCount))
        for case let entry? in slots { grown[Self.slot(of: entry.id, in: grown.count)] = entry }
        slots = grown
    }

    private static func slot(of id: Int64, in count: Int) -> Int { Int(truncatingIfNeeded: id) & (count - 1) }
}
