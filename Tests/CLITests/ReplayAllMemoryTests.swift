import EventStore
import Foundation
import JournalCore
import JournalTestSupport
import Projections
import Testing

@testable import JournalApp

/// `replay --all` holds a stream's fold only while the stream is open: each fold is let go at
/// the stream's last event as the store records it (`journal_streams.last_position`), and its
/// final outcome goes to a temporary file, given back in name order for the digest.
@Suite("replay --all: memory")
struct ReplayAllMemoryTests {
    enum Backend: String, CaseIterable {
        case sqlite, postgres
    }

    static let backends: [Backend] = [.sqlite] + (PostgresCLIServer.skipped ? [] : [.postgres])

    /// A simulated journal on `backend`, and its store.
    static func simulated(_ backend: Backend, transactions: Int = 600) throws -> (JournalRunner, any EventStore) {
        let runner = try JournalRunner()
        let simulate = [
            "simulate", "--seed", "36", "--transactions", "\(transactions)", "--digitizations", "\(transactions / 2)"
        ]
        #expect(try runner.run(simulate).status == 0)
        switch backend {
        case .sqlite: return (runner, try SQLiteEventStore(path: runner.database))
        case .postgres:
            let url = try PostgresCLIServer.freshURL()
            #expect(try runner.run(["copy", "--from", runner.database, "--to", url], db: false).status == 0)
            return (runner, try PostgresEventStore(url: url))
        }
    }

    /// The report of a replay of `store` (its digest, as 64 hex digits), and the replay.
    static func replay(_ store: any EventScanning, page: Int, finalsBuffer: Int) throws -> (String, LogReplay, Int) {
        var replay = LogReplay(store: store, scanPage: page, finalsBuffer: finalsBuffer)
        let finals = try replay.run(untilPosition: .max, progress: { _ in })
        let runs = finals.spilledRuns
        return (try ReplayReport(finals: finals).finish(), replay, runs)
    }

    @Test(
        "the folds held stay within the streams open across a page's end, and the digest is the same",
        arguments: backends)
    func foldsAreLetGoAtTheirStreamsLastEvent(backend: Backend) throws {
        let (_, store) = try Self.simulated(backend)
        let scanning = try #require(store as? any EventScanning)
        let page = 64
        let (spilled, bounded, runs) = try Self.replay(scanning, page: page, finalsBuffer: 4096)
        let (held, _, heldRuns) = try Self.replay(scanning, page: page, finalsBuffer: 1 << 30)
        let (everyFold, unbounded, _) = try Self.replay(NoStreamEnds(scanning), page: page, finalsBuffer: 4096)

        let (open, streams) = try OpenStreams.acrossPages(store, page: Int64(page))
        #expect(open * 5 < streams * 3, "the log must have streams that end early for the bound to show")
        #expect(
            bounded.peakLiveFolds > 0 && bounded.peakLiveFolds <= open, "held \(bounded.peakLiveFolds); \(open) open")
        #expect(bounded.peakHeldNames <= LogReplay.namePage)
        #expect(runs > 10 && heldRuns == 0)
        // Without recorded ends (a journal of an older schema, read-only), every fold to the end.
        #expect(unbounded.peakLiveFolds == streams)

        // The digest of each stream replayed alone, in name order.
        var alone = ReplayReport()
        var part = ReplayDigestPart()
        for stream in try store.streams(category: nil) { part.add(stream, try StreamReplay.fold(stream, in: store)) }
        alone.absorb(part)
        let expected = alone.finish()
        #expect(spilled == expected)
        #expect(held == expected)
        #expect(everyFold == expected)
    }

    @Test("an event after its stream's recorded last event stops the replay: the journal does not check")
    func eventAfterTheRecordedEndStops() throws {
        let (runner, store) = try Self.simulated(.sqlite, transactions: 60)
        let sqlite = try #require(store as? SQLiteEventStore)
        let (id, last) = try sqlite.withConnection { db in
            let id = try #require(
                try db.scalarInt("SELECT id FROM journal_streams WHERE last_version > 2 ORDER BY id LIMIT 1"))
            let last = try #require(try db.scalarInt("SELECT last_position FROM journal_streams WHERE id = \(id)"))
            try db.execute("DROP TRIGGER journal_streams_forward_only")
            try db.execute(
                "UPDATE journal_streams SET last_position = (SELECT max(position) FROM journal_events "
                    + "WHERE stream_id = \(id) AND position < \(last)) WHERE id = \(id)")
            return (id, last)
        }
        #expect(id > 0)
        do {
            var replay = LogReplay(store: sqlite, scanPage: 16)
            _ = try replay.run(untilPosition: .max, progress: { _ in })
            Issue.record("replay --all folded an event after its stream's recorded end")
        } catch let error as EventStoreError {
            #expect(error.code == .integrity)
            #expect(error.message.hasPrefix("position \(last): the stream "), "\(error)")
        }
        let result = try runner.run(["replay", "--all"])
        #expect(result.status == 4, "\(result.stderr)")
    }
}
