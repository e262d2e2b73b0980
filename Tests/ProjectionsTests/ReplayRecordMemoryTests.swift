import Domain
import EventStore
import Foundation
import JournalCore
import Projections
import Testing

/// A comparison holds the fold of a stream only while the stream is open: each fold is let go at
/// the stream's last event, which the store records (`journal_streams.last_position`).
@Suite("Replay against a record: memory")
struct ReplayRecordMemoryTests {
    static let backends: [DatabaseBackend] = [.sqlite] + (PostgresProjectionsServer.skipped ? [] : [.postgres])

    /// The most streams open across the end of a page of `page` events: begun at or before it,
    /// with an event after it.
    static func openAcrossPages(_ store: any EventStore, page: Int64) throws -> (open: Int, streams: Int) {
        var first: [StreamName: Int64] = [:]
        var last: [StreamName: Int64] = [:]
        var count: Int64 = 0
        var position: Int64 = 1
        while true {
            let events = try store.readAll(from: position, limit: 1000)
            guard let end = events.last else { break }
            for event in events {
                if first[event.stream] == nil { first[event.stream] = event.position }
                last[event.stream] = event.position
            }
            count = end.position
            position = end.position + 1
        }
        var open = 0
        var boundary = page
        while boundary < count {
            open = max(open, first.keys.count { first[$0]! <= boundary && last[$0]! > boundary })
            boundary += page
        }
        return (open, first.count)
    }

    @Test(
        "comparing, the folds held stay within the streams open across a page's end, not the log's streams",
        arguments: backends)
    func foldsAreLetGoAtTheirStreamsLastEvent(backend: DatabaseBackend) throws {
        let (store, db) = try ReplayRecordTests.simulated(backend, transactions: 600, digitizations: 300)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-memory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayRecordTests.record(store, as: DomainReplayFold.self, rules: "real", to: path)

        let page = 64
        let run = try ReplayRun<DomainReplayFold>(.compare(path: path), rules: "real", page: page)
        var scan = ReplayLogScan(store: try #require(store as? any EventScanning), page: 1000)
        try scan.feed(run)
        #expect(try run.finishComparison().isSame)

        let (open, streams) = try Self.openAcrossPages(store, page: Int64(page))
        #expect(open * 5 < streams * 3, "the log must have streams that end early for the bound to show")
        #expect(run.peakLiveFolds > 0)
        #expect(run.peakLiveFolds <= open, "held \(run.peakLiveFolds) folds; \(open) streams open at most")
    }

    @Test("comparing with a store that records no stream ends holds every fold and finds the same")
    func storesWithoutEndsKeepEveryFold() throws {
        let (store, db) = try ReplayRecordTests.simulated(.sqlite, transactions: 300, digitizations: 100)
        defer { db.remove() }
        let path = FileManager.default.temporaryDirectory.path + "/replay-memory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayRecordTests.record(store, as: DomainReplayFold.self, rules: "real", to: path)

        let run = try ReplayRun<DomainReplayFold>(.compare(path: path), rules: "real", page: 64)
        var scan = ReplayLogScan(store: NoStreamEnds(try #require(store as? any EventScanning)), page: 1000)
        try scan.feed(run)
        #expect(try run.finishComparison().isSame)
        #expect(run.peakLiveFolds == (try Self.openAcrossPages(store, page: 64)).streams)
    }
}

/// A store's scan without its recorded stream ends (an older journal's).
final class NoStreamEnds: EventScanning {
    let store: any EventScanning
    init(_ store: any EventScanning) { self.store = store }

    func scanAll(from position: Int64, limit: Int, _ body: (ScannedEvent) -> Bool) throws(EventStoreError) -> Int {
        try store.scanAll(from: position, limit: limit, body)
    }

    func streamNames(fromID: Int64, limit: Int) throws(EventStoreError) -> [(id: Int64, name: String)] {
        try store.streamNames(fromID: fromID, limit: limit)
    }

    func streamName(id: Int64) throws(EventStoreError) -> String { try store.streamName(id: id) }
    func typeName(id: Int64) throws(EventStoreError) -> String { try store.typeName(id: id) }
}
