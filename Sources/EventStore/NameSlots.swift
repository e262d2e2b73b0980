/// Names of stream or type ids in direct-mapped slots (an id's low bits choose its slot), in
/// front of the journal's dictionaries: log-wide reads ask for the same few hundred active
/// streams over and over, and an array index is cheaper than a hash lookup. A slot taken by
/// another id is overwritten.
///
/// The slots are allocated when the first name is kept, so a command that reads one event
/// (`journal prove`) does not zero a table it will not use.
package struct NameSlots<Name> {
    private var slots: [(id: Int64, name: Name)?] = []

    /// Slots of a table (a power of two).
    package static var slotCount: Int { 4096 }

    package init() {}

    package func name(of id: Int64) -> Name? {
        guard !slots.isEmpty, let entry = slots[Self.slot(of: id)], entry.id == id else { return nil }
        return entry.name
    }

    package mutating func keep(_ name: Name, for id: Int64) {
        if slots.isEmpty { slots = [(id: Int64, name: Name)?](repeating: nil, count: Self.slotCount) }
        slots[Self.slot(of: id)] = (id, name)
    }

    package mutating func removeAll() { slots = [] }

    private static func slot(of id: Int64) -> Int { Int(truncatingIfNeeded: id) & (slotCount - 1) }
}
