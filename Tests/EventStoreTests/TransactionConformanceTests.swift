import EventStore
import JournalCore
import Testing

private struct Abort: Error {}

@Suite("Write transaction conformance")
struct TransactionConformanceTests {
    @Test(arguments: Backend.all)
    func aWriteTransactionCommitsEverythingAtOnceAndSeesItsOwnAppends(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let count = try store.write { tx in
            try tx.append(Fixture.events(0..<2), to: Fixture.stream(1), expectedVersion: .noStream)
            #expect(try tx.lastVersion(of: Fixture.stream(1)) == 1)
            #expect(try tx.read(stream: Fixture.stream(1), from: 0, direction: .forward, limit: 10).count == 2)
            #expect(try tx.event(withID: Fixture.uuid(1))?.version == 1)
            try tx.append(Fixture.events(2..<3), to: Fixture.stream(2), expectedVersion: .noStream)
            try tx.append(Fixture.events(3..<4), to: Fixture.stream(1), expectedVersion: .exact(1))
            return 3
        }
        #expect(count == 3)
        #expect(try store.readAll(from: 1, limit: 10).map(\.position) == [1, 2, 3, 4])
        #expect(try store.verify().events == 4)
    }

    @Test(arguments: Backend.all)
    func aThrowingBodyRollsEverythingBack(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        #expect(throws: Abort.self) {
            try store.write { tx in
                try tx.append(Fixture.events(1..<5), to: Fixture.stream(2), expectedVersion: .any)
                throw Abort()
            }
        }
        #expect(try store.headPosition() == 1)
        #expect(try store.streams(category: nil) == [Fixture.stream(1)])
        try store.append([Fixture.event(9)], to: Fixture.stream(2), expectedVersion: .noStream)
        #expect(try store.verify().events == 2)
    }

    @Test(arguments: Backend.all)
    func aFailedAppendInsideATransactionLeavesNoTraceAndTheRestCommits(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.write { tx in
            try tx.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .noStream)
            var clash = Fixture.event(0)
            clash.type = "Changed"
            #expect(throws: EventStoreError.self) {
                try tx.append([Fixture.event(1), Fixture.event(2), clash], to: Fixture.stream(1), expectedVersion: .any)
            }
            #expect(throws: EventStoreError.self) {
                try tx.append([Fixture.event(3)], to: Fixture.stream(1), expectedVersion: .noStream)
            }
            try tx.append([Fixture.event(4)], to: Fixture.stream(1), expectedVersion: .exact(0))
        }
        let events = try store.readAll(from: 1, limit: 10)
        #expect(events.map(\.id) == [Fixture.uuid(0), Fixture.uuid(4)])
        #expect(events.map(\.version) == [0, 1])
        #expect(try store.verify().events == 2)
    }

    @Test(arguments: Backend.all)
    func anAppendThatRepeatsAnIDWithOtherContentIsRefusedWholeAndTheTransactionGoesOn(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.write { tx in
            var clash = Fixture.event(1)
            clash.type = "Changed"
            let error = #expect(throws: EventStoreError.self) {
                try tx.append([Fixture.event(1), Fixture.event(2), clash], to: Fixture.stream(1), expectedVersion: .any)
            }
            #expect(error?.code == .duplicateIDConflict)
            #expect(try tx.event(withID: Fixture.uuid(1)) == nil)
            #expect(try tx.lastVersion(of: Fixture.stream(1)) == nil)
            try tx.append([Fixture.event(3)], to: Fixture.stream(1), expectedVersion: .noStream)
        }
        let events = try store.readAll(from: 1, limit: 10)
        #expect(events.map(\.id) == [Fixture.uuid(3)])
        #expect(try store.verify().events == 1)
    }

    @Test(arguments: Backend.all)
    func aTransactionUsedAfterItsClosureThrows(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let escaped = try store.write { tx in tx }
        #expect(throws: EventStoreError.self) {
            try escaped.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        }
        #expect(try store.headPosition() == 0)
    }
}

@Suite("Write transaction misuse")
struct TransactionMisuseTests {
    @Test(arguments: Backend.all)
    func appendingOrNestingOnTheStoreInsideItsTransactionThrowsInsteadOfDeadlocking(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try store.write { tx in
            try tx.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
            let direct = #expect(throws: EventStoreError.self) {
                try store.append([Fixture.event(1)], to: Fixture.stream(1), expectedVersion: .any)
            }
            #expect(direct?.code == .invalidInput)
            #expect(throws: EventStoreError.self) { try store.write { _ in } }
            _ = try store.headPosition()
            _ = try store.readAll(from: 1, limit: 10)
        }
        #expect(try store.headPosition() == 1)
    }
}
