import EventStore
import Testing

@Suite("Name slots")
struct NameSlotsTests {
    @Test func anEmptyTableKnowsNoName() {
        let slots = NameSlots<String>()
        #expect(slots.name(of: 1) == nil)
        #expect(slots.name(of: 0) == nil)
    }

    @Test("every name is kept while ids fit the full table, whatever table the first ones went into")
    func namesAreKeptAsTheTableGrows() {
        var slots = NameSlots<String>()
        let ids = (1...Int64(NameSlots<String>.slotCount))
        for id in ids { slots.keep("s\(id)", for: id) }
        for id in ids { #expect(slots.name(of: id) == "s\(id)", "id \(id)") }
    }

    @Test("at full size a name overwrites the one whose id shares its slot")
    func aFullTableOverwrites() {
        var slots = NameSlots<String>()
        let count = Int64(NameSlots<String>.slotCount)
        for id in 1...count { slots.keep("s\(id)", for: id) }
        slots.keep("late", for: 1 + count)
        #expect(slots.name(of: 1 + count) == "late")
        #expect(slots.name(of: 1) == nil)
        #expect(slots.name(of: 2) == "s2")
        slots.removeAll()
        #expect(slots.name(of: 2) == nil)
    }
}
