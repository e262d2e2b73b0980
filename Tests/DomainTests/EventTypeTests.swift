import Domain
import Testing

@Suite("Event types")
struct EventTypeTests {
    @Test("every type's name gives back the type, and a name outside the catalog gives none")
    func namesGiveBackTheirTypes() {
        for type in EventType.allCases { #expect(EventType(name: type.name) == type) }
        #expect(EventType(name: "TransactionOpened") == nil)
        #expect(EventType(name: "transactionCreated") == nil)
        #expect(EventType.names.count == Set(EventType.names).count)
    }

    @Test("the names list keeps the catalog order: the 12 3ds types, then the 18 card types")
    func namesKeepTheCatalogOrder() {
        #expect(EventType.names == ThreeDSEvent.typeNames + CardEvent.typeNames)
        #expect(ThreeDSEvent.typeNames.count == 12 && CardEvent.typeNames.count == 18)
        for (index, type) in EventType.allCases.enumerated() { #expect(EventType.names[index] == type.name) }
    }

    @Test("a type belongs to the category whose events decode it")
    func typesBelongToTheirCategory() {
        for type in EventType.types(of: .threeDS) { #expect(DomainEvent.category(ofType: type.name) == .threeDS) }
        for type in EventType.types(of: .card) { #expect(DomainEvent.category(ofType: type.name) == .card) }
        #expect(StreamCategory.threeDS.firstEventType == EventType.transactionCreated.name)
        #expect(StreamCategory.card.firstEventType == EventType.eligibilityChecked.name)
    }

    @Test("a decoded event's type is the type its name names")
    func decodedEventsKnowTheirType() throws {
        for (name, json) in EventCatalogTests.validEvents {
            let event = try DomainEvent.decode(type: name, data: object(json))
            switch event {
            case let .threeDS(event): #expect(event.type == EventType(name: name))
            case let .card(event): #expect(event.type == EventType(name: name))
            }
        }
    }

    @Test("a stream name's prefix names its category without its id being checked")
    func prefixNamesTheCategory() {
        #expect(StreamCategory(prefixOf: "3ds-anything") == .threeDS)
        #expect(StreamCategory(prefixOf: "card-x") == .card)
        #expect(StreamCategory(prefixOf: "3ds") == nil)
        #expect(StreamCategory(prefixOf: "card") == nil)
        #expect(StreamCategory(prefixOf: "cards-1") == nil)
        #expect(StreamCategory(prefixOf: "") == nil)
    }
}
