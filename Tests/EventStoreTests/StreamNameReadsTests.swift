import JournalCore
import Testing

@testable import EventStore

/// How a SQLite reader finds the stream names of log-wide reads (`readAll`): a name at a time
/// while it misses only a few, a page of names at a time once it keeps missing.
@Suite("Stream names of log-wide reads")
struct StreamNameReadsTests {
    @Test("a reader reads its first missing stream names one by one, then a page at a time, naming every event right")
    func firstMissesAloneThenPages() throws {
        let path = TemporaryDirectory.make().file("j.db")
        var configuration = SQLiteEventStore.Configuration(clock: FixedClock.epoch)
        configuration.synchronous = .normal
        let streams = 600
        do {
            let store = try SQLiteEventStore(path: path, configuration: configuration)
            for n in 0..<streams {
                try store.append(Fixture.events(n..<(n + 1)), to: Fixture.stream(n), expectedVersion: .noStream)
            }
        }
        configuration.readOnly = true
        let reader = try SQLiteEventStore(path: path, configuration: configuration)
        let first = SQLiteJournal.streamNamesReadAloneFirst
        for position in 1...Int64(first) {
            #expect(try reader.readAll(from: position, limit: 1).map(\.stream) == [Fixture.stream(Int(position) - 1)])
        }
        let alone = try reader.reading { journal in (journal.streamNamesReadAlone, journal.streamNamesPagedThrough) }
        #expect(alone.0 == first)
        #expect(alone.1 == 0)

        let events = try reader.readAll(from: 1, limit: streams)
        #expect(events.map(\.stream) == (0..<streams).map { Fixture.stream($0) })
        let paged = try reader.reading { journal in (journal.streamNamesReadAlone, journal.streamNamesPagedThrough) }
        #expect(paged.0 == first)
        #expect(paged.1 >= Int64(first + SQLiteJournal.streamNamesPage))
    }
}
