import EventStore
import JournalCore
import Testing

/// `EventScanning`, the projections' read path: the same events as `readAll`, on every backend.
@Suite("Scan conformance")
struct ScanConformanceTests {
    @Test(arguments: Backend.all, [false, true])
    func scanLendsTheEventsReadAllReturnsWithTheirStreamAndTypeIDs(backend: Backend, compress: Bool) throws {
        let store = try backend.open(StoreOptions(dictionaryTrainingEvents: compress ? 8 : 0)).store
        try Fixture.appendMixedLog(to: store)
        let scanner = try #require(store as? any EventScanning)
        let expected = try store.readAll(from: 3, limit: 30)
        var seen: [(position: Int64, stream: Int64, type: Int64, occurredAt: Int64, data: [UInt8], meta: [UInt8]?)] = []
        let count = try scanner.scanAll(from: 3, limit: 30) { event in
            seen.append(
                (
                    event.position, event.streamID, event.typeID, event.occurredAt, Array(event.data),
                    event.meta.map { Array($0) }
                ))
            return true
        }
        #expect(count == 30)
        #expect(seen.map(\.position) == expected.map(\.position))
        #expect(seen.map(\.data) == expected.map(\.data))
        // The meta is lent too (nil when the event has none): `journal find` reads its correlationId.
        #expect(seen.map(\.meta) == expected.map(\.meta))
        #expect(seen.contains { $0.meta != nil } && seen.contains { $0.meta == nil })
        #expect(seen.map(\.occurredAt) == expected.map(\.occurredAt.millisecondsSinceEpoch))
        for (scanned, event) in zip(seen, expected) {
            #expect(try scanner.streamName(id: scanned.stream) == event.stream.rawValue)
            #expect(try scanner.typeName(id: scanned.type) == event.type)
        }
        let names = try scanner.streamNames(fromID: 1, limit: 100)
        #expect(names.count == 7)
        #expect(Set(names.map(\.name)) == Set((0..<7).map { Fixture.stream($0).rawValue }))
        // The body stops the scan.
        var stopped = 0
        #expect(
            try scanner.scanAll(from: 1, limit: 100) { _ in
                stopped += 1
                return stopped < 5
            } == 5)
    }
}
