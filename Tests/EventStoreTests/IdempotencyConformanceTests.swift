import EventStore
import JournalCore
import Testing

@Suite("Idempotency conformance")
struct IdempotencyConformanceTests {
    @Test(arguments: Backend.all)
    func reappendingTheSameEventsReturnsTheOriginalPositionsAndWritesNothing(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append(Fixture.events(0..<3), to: stream, expectedVersion: .any)
        try store.append([Fixture.event(50)], to: Fixture.stream(2), expectedVersion: .any)
        let again = try store.append(Fixture.events(0..<3), to: stream, expectedVersion: .any)
        #expect(again == AppendResult(stream: stream, positions: [1, 2, 3], lastVersion: 2, written: 0))
        #expect(try store.headPosition() == 4)
    }

    @Test(arguments: Backend.all)
    func retriedAppendWithTheSameExpectedVersionSucceedsAsANoOp(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append(Fixture.events(0..<2), to: stream, expectedVersion: .noStream)
        let first = try store.append(Fixture.events(2..<4), to: stream, expectedVersion: .exact(1))
        // The reply was lost; the client retries exactly the same call.
        let retry = try store.append(Fixture.events(2..<4), to: stream, expectedVersion: .exact(1))
        #expect(retry.positions == first.positions)
        #expect(retry.written == 0)
        #expect(retry.lastVersion == 3)
        let retryCreate = try store.append(Fixture.events(0..<2), to: stream, expectedVersion: .noStream)
        #expect(retryCreate.positions == [1, 2])
        #expect(try store.headPosition() == 4)
    }

    @Test(arguments: Backend.all)
    func staleExpectedVersionWithSomeNewEventsStillThrowsConflict(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append(Fixture.events(0..<2), to: stream, expectedVersion: .noStream)
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(1), Fixture.event(2)], to: stream, expectedVersion: .exact(0))
        }
        #expect(error.code == .conflict)
        #expect(try store.headPosition() == 2)
    }

    @Test(arguments: Backend.all)
    func sameIDWithOtherContentThrowsDuplicateIDConflictAndWritesNothing(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append([Fixture.event(0)], to: stream, expectedVersion: .any)
        var changed = Fixture.event(0)
        changed.data = Array(#"{"attempt":2}"#.utf8)
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(1), changed], to: stream, expectedVersion: .any)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(error.eventID == Fixture.uuid(0))
        #expect(error.stream == stream.rawValue)
        #expect(error.position == 1)
        #expect(error.message.contains(Fixture.uuid(0)))
        #expect(!error.message.contains("attempt"), "no payload bytes in messages")
        #expect(try store.headPosition() == 1)
    }

    @Test(arguments: Backend.all)
    func sameIDInAnotherStreamThrowsDuplicateIDConflict(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(0)], to: Fixture.stream(2), expectedVersion: .any)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(error.message.contains(Fixture.stream(1).rawValue))
        #expect(try store.streams(category: nil) == [Fixture.stream(1)])
    }

    @Test(arguments: Backend.all)
    func aRepeatedIDInsideOneAppendIsWrittenOnce(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        let result = try store.append(
            [Fixture.event(0), Fixture.event(1), Fixture.event(0)], to: stream, expectedVersion: .noStream)
        #expect(result.positions == [1, 2, 1])
        #expect(result.written == 2)
        #expect(result.lastVersion == 1)
        var changed = Fixture.event(5)
        changed.type = "Other"
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(5), changed], to: stream, expectedVersion: .any)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(try store.headPosition() == 2)
    }

    @Test(arguments: Backend.all)
    func aMixedAppendWritesOnlyTheNewEvents(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append(Fixture.events(0..<2), to: stream, expectedVersion: .any)
        let result = try store.append(Fixture.events(1..<4), to: stream, expectedVersion: .exact(1))
        #expect(result.positions == [2, 3, 4])
        #expect(result.written == 2)
        #expect(try store.readStream(stream).map(\.version) == [0, 1, 2, 3])
    }

    @Test(arguments: Backend.all)
    func theInjectedSameContentRuleDecidesWhatIsADuplicate(backend: Backend) throws {
        // A rule that ignores spaces in data, as a JSON-value comparison would.
        let options = StoreOptions(isSameContent: { stored, proposed in
            stored.type == proposed.type && stored.data.filter { $0 != 0x20 } == proposed.data.filter { $0 != 0x20 }
        })
        let store = try backend.open(options).store
        let stream = Fixture.stream(1)
        try store.append([Fixture.event(0, data: #"{"a":1}"#)], to: stream, expectedVersion: .any)
        let again = try store.append([Fixture.event(0, data: #"{"a": 1}"#)], to: stream, expectedVersion: .any)
        #expect(again.written == 0)
        #expect(throws: EventStoreError.self) {
            try store.append([Fixture.event(0, data: #"{"a":2}"#)], to: stream, expectedVersion: .any)
        }
    }

    @Test(arguments: Backend.all)
    func eventWithIDFindsTheStoredEventExactlyAsWritten(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let upper = "ABCDEF01-0000-4000-8000-00000000000A"
        try store.append(
            [Fixture.event(0), ProposedEvent(id: upper, type: "T", occurredAt: Fixture.time, data: [])],
            to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.event(withID: Fixture.uuid(0))?.position == 1)
        #expect(try store.event(withID: upper)?.position == 2)
        #expect(try store.event(withID: upper.lowercased()) == nil)
        #expect(try store.event(withID: Fixture.uuid(99)) == nil)
    }
}
