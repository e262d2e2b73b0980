import EventStore
import JournalCore
import Testing

@Suite("Input validation conformance")
struct ValidationConformanceTests {
    @Test(arguments: [
        "", "3ds", "-abc", "3ds-", "3DS-abc", "3ds-a b", "3ds_x-1", String(repeating: "a", count: 198) + "-xy",
        "3ds-a\u{7F}", "3ds-é", "3ds-a\tb", "-"
    ])
    func streamNamesOutsideTheRuleAreRejected(name: String) {
        let error = #expect(throws: EventStoreError.self) { try StreamName(name) }
        #expect(error?.code == .invalidInput)
    }

    @Test(arguments: ["3ds-0b9e", "card-ABC-def", "a-b", "a--", "3ds-~!", String(repeating: "a", count: 197) + "-xy"])
    func streamNamesInsideTheRuleAreAccepted(name: String) throws {
        #expect(try StreamName(name).rawValue == name)
    }

    @Test
    func streamNamesAreEqualAndHashAlikeExactlyWhenTheirTextIsTheSame() throws {
        // Names that differ in one byte anywhere, in length, or only past 8 bytes.
        var texts = [
            "3ds-a", "3ds-b", "3ds-ab", "3ds-a0", "card-a", "3ds-12345678", "3ds-12345679", "3ds-123456789",
            "3ds-0000000000000000-1", "3ds-0000000000000000-2"
        ]
        for n in 0..<5_000 { texts.append("3ds-\(n)") }
        let names = try texts.map { try StreamName($0) }
        let again = try texts.map { try StreamName(String(Substring($0))) }
        #expect(names == again)
        #expect(names.map(\.hashValue) == again.map(\.hashValue))
        #expect(Set(names + again).count == texts.count)
        #expect(Set(names.map(\.hashValue)).count == texts.count)
    }

    @Test(
        arguments: Backend.all,
        ["not-a-uuid", "", "0000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-00000000000g"])
    func aNonUUIDEventIDIsRejectedAndNothingIsWritten(backend: Backend, id: String) throws {
        let store = try backend.open(StoreOptions()).store
        var bad = Fixture.event(1)
        bad.id = id
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(0), bad], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(error.code == .invalidInput)
        #expect(try store.headPosition() == 0)
        #expect(try store.streams(category: nil).isEmpty)
    }

    @Test(arguments: Backend.all, ["", "has space", String(repeating: "T", count: 201), "tab\t"])
    func aBadEventTypeIsRejected(backend: Backend, type: String) throws {
        let store = try backend.open(StoreOptions()).store
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(0, type: type)], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(error.code == .invalidInput)
        #expect(try store.headPosition() == 0)
    }

    @Test(arguments: Backend.all)
    func aPayloadOverTheLimitThrowsTooLargeAndNothingIsWritten(backend: Backend) throws {
        let store = try backend.open(StoreOptions(maxPayloadBytes: 1000)).store
        let atLimit = ProposedEvent(
            id: Fixture.uuid(1), type: "T", occurredAt: Fixture.time,
            data: [UInt8](repeating: 0x61, count: 990), meta: [UInt8](repeating: 0x62, count: 10))
        let over = ProposedEvent(
            id: Fixture.uuid(2), type: "T", occurredAt: Fixture.time,
            data: [UInt8](repeating: 0x61, count: 990), meta: [UInt8](repeating: 0x62, count: 11))
        let error = try #require(throws: EventStoreError.self) {
            try store.append([atLimit, over], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(error.code == .tooLarge)
        #expect(error.eventID == Fixture.uuid(2))
        #expect(!error.message.contains("aaaa"))
        #expect(try store.headPosition() == 0)
        try store.append([atLimit], to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.headPosition() == 1)
    }
}
