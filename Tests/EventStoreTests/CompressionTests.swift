import EventStore
import JournalCore
import Testing

@Suite("LZ4 dictionary compression")
struct CompressionTests {
    private func store(trainAfter: Int64) throws -> SQLiteEventStore {
        var configuration = SQLiteEventStore.Configuration(clock: FixedClock.epoch)
        configuration.dictionaryTrainingEvents = trainAfter
        return try SQLiteEventStore(path: TemporaryDirectory.make().file("journal.db"), configuration: configuration)
    }

    private func jsonEvent(_ n: Int) -> ProposedEvent {
        Fixture.event(
            n, type: ["ChallengeStarted", "ChallengeRequestSent", "ChallengeResponseReceived"][n % 3],
            data:
                #"""
                {"threeDSServerTransID":"\#(Fixture.uuid(n * 7, prefix: "0a0b0c0d"))",\#
                "acsTransID":"\#(Fixture.uuid(n, prefix: "acacacac"))","sdkCounterStoA":"00\#(n % 10)",\#
                "transStatus":"Y","acsReferenceNumber":"ACS-EMVCo-3DS-\#(n % 5)"}
                """#,
            meta:
                #"{"platform":"ios","sdkVersion":"2.3.\#(n % 4)","#
                + #""correlationId":"\#(Fixture.uuid(n / 8, prefix: "c0c0c0c0"))"}"#
        )
    }

    @Test func eventsAfterTrainingAreStoredCompressedAndReadBackExactly() throws {
        let store = try store(trainAfter: 100)
        let events = (0..<400).map(jsonEvent)
        for chunk in stride(from: 0, to: events.count, by: 50) {
            try store.append(Array(events[chunk..<chunk + 50]), to: Fixture.stream(chunk), expectedVersion: .noStream)
        }
        let stats = try store.storageStatistics()
        #expect(stats.dictionaries == 1)
        #expect(stats.compressedEvents == 300)
        #expect(Double(stats.storedPayloadBytes) < 0.8 * Double(stats.payloadBytes))
        let stored = try store.readAll(from: 1, limit: 1000)
        #expect(stored.map(\.data) == events.map(\.data))
        #expect(stored.map(\.meta) == events.map(\.meta))
        #expect(try store.verify().events == 400)
    }

    @Test func theDictionaryIsDeterministicForTheSameFirstEvents() throws {
        var sizes: [Int64] = []
        for _ in 0..<2 {
            let store = try store(trainAfter: 20)
            try store.append((0..<60).map(jsonEvent), to: Fixture.stream(1), expectedVersion: .any)
            sizes.append(try store.storageStatistics().storedPayloadBytes)
            _ = try store.verify()
        }
        #expect(sizes[0] == sizes[1])
    }

    @Test func incompressiblePayloadsStayRaw() throws {
        let store = try store(trainAfter: 10)
        try store.append((0..<10).map(jsonEvent), to: Fixture.stream(1), expectedVersion: .any)
        var state: UInt64 = 12345
        let noise: [UInt8] = (0..<600).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        try store.append(
            [ProposedEvent(id: Fixture.uuid(900), type: "Noise", occurredAt: Fixture.time, data: noise)],
            to: Fixture.stream(2), expectedVersion: .any)
        let stats = try store.storageStatistics()
        #expect(stats.compressedEvents == 0)
        #expect(try store.readStream(Fixture.stream(2)).first?.data == noise)
    }

    @Test func olderEventsStayReadableAfterANewDictionaryVersion() throws {
        let store = try store(trainAfter: 30)
        try store.append((0..<100).map(jsonEvent), to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.trainDictionary(fromLast: 50) == 2)
        try store.append((100..<200).map(jsonEvent), to: Fixture.stream(1), expectedVersion: .any)
        let stats = try store.storageStatistics()
        #expect(stats.dictionaries == 2)
        #expect(stats.compressedEvents == 170)
        #expect(try store.readStream(Fixture.stream(1)).map(\.data) == (0..<200).map { jsonEvent($0).data })
        #expect(try store.verify().events == 200)
    }

    @Test func aTamperedDictionaryIsDetectedAtTheFirstEventUsingIt() throws {
        let store = try store(trainAfter: 30)
        try store.append((0..<60).map(jsonEvent), to: Fixture.stream(1), expectedVersion: .any)
        try store.withConnection { db in
            for trigger in SQLiteEventStore.immutabilityTriggers { try db.execute("DROP TRIGGER \(trigger)") }
            try db.execute("UPDATE journal_dictionaries SET content = substr(content, 2) || x'20' WHERE id = 1")
        }
        let error = #expect(throws: EventStoreError.self) { try store.verify() }
        #expect(error?.code == .integrity)
        #expect(error?.position == 31)
    }
}
