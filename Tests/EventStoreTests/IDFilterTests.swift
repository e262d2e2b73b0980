import JournalCore
import Testing

@testable import EventStore

/// The writer's Bloom filter of the id index: it lets a writer skip the index lookup of a new
/// id, so it must never hide an id the index holds, whoever copied it there.
@Suite("SQLite id index filter")
struct IDFilterTests {
    /// Copies every `every` events; builds the filter after one lookup, with room for `capacity`.
    static func configuration(every events: Int64, capacity: Int) -> SQLiteEventStore.Configuration {
        var configuration = IDIndexTests.configuration(every: events)
        configuration.idIndex = IDIndexPolicy(
            minimum: events, maximum: events, filterMinimumProbes: 1,
            filterMinimumCapacity: capacity)
        return configuration
    }

    static func key(_ n: Int) -> EventIDKey { EventIDKey(Fixture.uuid(n)) }

    @Test
    func theFilterHoldsEveryIDInsertedAndFewOthers() {
        var filter = IndexedIDFilter(capacity: 20_000)
        for n in 0..<20_000 { filter.insert(Self.key(n)) }
        #expect(!filter.isFull)
        #expect((0..<20_000).allSatisfy { filter.mayContain(Self.key($0)) })
        let falsePositives = (20_000..<120_000).filter { filter.mayContain(Self.key($0)) }.count
        #expect(falsePositives < 2_000, "\(falsePositives) of 100,000 absent ids reported as maybe present")
        filter.insert(Self.key(20_000))
        #expect(filter.isFull)
    }

    @Test
    func textIDsAreFilteredToo() {
        var filter = IndexedIDFilter(capacity: 100)
        filter.insert(.text("order-1"))
        #expect(filter.mayContain(.text("order-1")))
        #expect((2..<100).filter { filter.mayContain(.text("order-\($0)")) }.count < 10)
    }

    @Test
    func aWriterWhoseFilterOutgrowsItselfStillFindsEveryIndexedID() throws {
        // Room for 8 ids: the filter is outgrown and rebuilt many times over 300 events.
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"),
            configuration: Self.configuration(every: 10, capacity: 8))
        for n in 0..<300 { try store.append([Fixture.event(n)], to: Fixture.stream(n % 7), expectedVersion: .any) }
        #expect(try IDIndexTests.through(store) == 300)
        for n in 0..<300 {
            let again = try store.append([Fixture.event(n)], to: Fixture.stream(n % 7), expectedVersion: .any)
            #expect(again.written == 0 && again.positions == [Int64(n + 1)], "event \(n)")
        }
        var changed = Fixture.event(150)
        changed.data = Array(#"{"other":true}"#.utf8)
        let error = try #require(throws: EventStoreError.self) {
            try store.append([changed], to: Fixture.stream(0), expectedVersion: .any)
        }
        #expect(error.code == .duplicateIDConflict)
        #expect(try store.headPosition() == 300)
    }

    @Test(arguments: [3, 40])
    func idsAnotherWriterCopiedIntoTheIndexAreFoundByAWriterWithAFilter(batch: Int) throws {
        let path = TemporaryDirectory.make().file("j.db")
        let first = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 4, capacity: 64))
        let second = try SQLiteEventStore(path: path, configuration: Self.configuration(every: 4, capacity: 64))
        // `first` builds its filter, then `second` appends and copies, in batches shorter and
        // longer than a copy, so `first` meets ids both in its memory and only in the index.
        for n in 0..<20 { try first.append([Fixture.event(n)], to: Fixture.stream(1), expectedVersion: .any) }
        var next = 100
        for _ in 0..<5 {
            try second.append(Fixture.events(next..<next + batch), to: Fixture.stream(2), expectedVersion: .any)
            next += batch
            try first.append([Fixture.event(next + 1_000)], to: Fixture.stream(3), expectedVersion: .any)
        }
        for n in 100..<next {
            let again = try first.append([Fixture.event(n)], to: Fixture.stream(2), expectedVersion: .any)
            #expect(again.written == 0, "event \(n)")
        }
        _ = try first.verify()
    }

    @Test
    func aRolledBackCopyLeavesTheFilterSafe() throws {
        let store = try SQLiteEventStore(
            path: TemporaryDirectory.make().file("j.db"),
            configuration: Self.configuration(every: 4, capacity: 64))
        for n in 0..<10 { try store.append([Fixture.event(n)], to: Fixture.stream(1), expectedVersion: .any) }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { transaction in
                for n in 10..<20 {
                    try transaction.append([Fixture.event(n)], to: Fixture.stream(2), expectedVersion: .any)
                }
                throw Abort()
            }
        }
        for n in 10..<20 { try store.append([Fixture.event(n)], to: Fixture.stream(3), expectedVersion: .any) }
        for n in 0..<20 {
            let again = try store.append([Fixture.event(n)], to: Fixture.stream(n < 10 ? 1 : 3), expectedVersion: .any)
            #expect(again.written == 0, "event \(n)")
        }
        #expect(try IDIndexTests.indexedCount(store) == 20)
    }
}
