import EventStore
import JournalCore
import Testing

/// An append that expects no stream and does not know the stream creates it in the statement
/// that checks it is absent (SQLite). These tests use a second store on the same file, whose
/// caches know nothing, so that every append takes that path.
@Suite("SQLite stream creation")
struct StreamCreationTests {
    static func stores() throws -> (first: SQLiteEventStore, second: SQLiteEventStore) {
        let path = TemporaryDirectory.make().file("j.db")
        let configuration = IDIndexTests.configuration(every: 1_000)
        return (
            try SQLiteEventStore(path: path, configuration: configuration),
            try SQLiteEventStore(path: path, configuration: configuration)
        )
    }

    static func streamRows(_ store: SQLiteEventStore, _ stream: StreamName) throws -> Int64? {
        try store.withConnection { db in
            try db.scalarInt("SELECT count(*) FROM journal_streams WHERE name = '\(stream.rawValue)'")
        }
    }

    @Test
    func expectingNoStreamWhenAnotherWriterCreatedItThrowsConflict() throws {
        let (first, second) = try Self.stores()
        try first.append(Fixture.events(0..<2), to: Fixture.stream(1), expectedVersion: .noStream)
        let error = try #require(throws: EventStoreError.self) {
            try second.append(Fixture.events(5..<6), to: Fixture.stream(1), expectedVersion: .noStream)
        }
        #expect(error.code == .conflict)
        #expect(try second.headPosition() == 2)
        #expect(try Self.streamRows(second, Fixture.stream(1)) == 1)
    }

    @Test
    func aRetriedCreateFromAnotherWriterReturnsTheOriginalPositions() throws {
        let (first, second) = try Self.stores()
        try first.append(Fixture.events(0..<2), to: Fixture.stream(1), expectedVersion: .noStream)
        let retry = try second.append(Fixture.events(0..<2), to: Fixture.stream(1), expectedVersion: .noStream)
        #expect(retry == AppendResult(stream: Fixture.stream(1), positions: [1, 2], lastVersion: 1, written: 0))
        #expect(try second.headPosition() == 2)
    }

    @Test
    func aCreateThatFailsOnADuplicateIDLeavesNoStreamBehind() throws {
        let (first, second) = try Self.stores()
        try first.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .noStream)
        let error = try #require(throws: EventStoreError.self) {
            try second.append([Fixture.event(0)], to: Fixture.stream(2), expectedVersion: .noStream)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(try Self.streamRows(second, Fixture.stream(2)) == 0)
        // The name is free: a later create gets version 0 and the next position.
        let created = try second.append([Fixture.event(1)], to: Fixture.stream(2), expectedVersion: .noStream)
        #expect(created == AppendResult(stream: Fixture.stream(2), positions: [2], lastVersion: 0, written: 1))
    }

    @Test
    func aFailedCreateInsideATransactionIsTakenBackWithItsSavepoint() throws {
        let (first, second) = try Self.stores()
        try first.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .noStream)
        try second.write { transaction in
            #expect(throws: EventStoreError.self) {
                try transaction.append([Fixture.event(0)], to: Fixture.stream(2), expectedVersion: .noStream)
            }
            try transaction.append([Fixture.event(1)], to: Fixture.stream(3), expectedVersion: .noStream)
            // The same name again, in the same transaction, after the rollback of its first row.
            try transaction.append([Fixture.event(2)], to: Fixture.stream(2), expectedVersion: .noStream)
        }
        #expect(try Self.streamRows(second, Fixture.stream(2)) == 1)
        #expect(try second.lastVersion(of: Fixture.stream(2)) == 0)
        #expect(try second.verify().streams == 3)
    }
}
