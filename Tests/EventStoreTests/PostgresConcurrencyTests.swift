import EventStore
import JournalCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Positions on PostgreSQL stay gapless and in commit order when several processes write at once,
/// and a reader following the log sees every position exactly once, in order (a reader that saw
/// position n + 1 before n would fail the first expectation below).
@Suite(
    "PostgreSQL concurrency",
    .enabled(if: !PostgresTestServer.skipped, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresConcurrencyTests {
    /// Follows the log until `total` events were seen, checking each position as it arrives.
    private func follow(_ store: PostgresEventStore, total: Int) throws -> [RecordedEvent] {
        let follower = EventFollower(store: store, from: 1, pollInterval: .milliseconds(200))
        var seen: [RecordedEvent] = []
        while seen.count < total {
            guard let event = try follower.next(timeout: .seconds(120)) else {
                Issue.record("the follower saw \(seen.count) of \(total) events and then nothing for 120 s")
                break
            }
            guard event.position == Int64(seen.count + 1) else {
                Issue.record("the follower got position \(event.position) after \(seen.count): a gap or a reordering")
                break
            }
            seen.append(event)
        }
        return seen
    }

    private func expectConsistent(_ events: [RecordedEvent], total: Int, store: PostgresEventStore) throws {
        #expect(Set(events.map(\.id)).count == total, "every event exactly once")
        var versions: [StreamName: Int64] = [:]
        for event in events {
            #expect(event.version == (versions[event.stream] ?? -1) + 1, "versions gapless in position order")
            versions[event.stream] = event.version
        }
        let report = try store.verify()
        #expect(report.events == Int64(total))
        #expect(try store.readAll(from: Int64(total) + 1, limit: 10).isEmpty)
    }

    @Test func concurrentWriterProcessesGetGaplessCommitOrderedPositionsWhileAReaderFollows() throws {
        let url = try PostgresTestServer.freshURL()
        let store = try PostgresEventStore(url: url)
        let writer = ChildProcess.productsDirectory + "/journal-pg-writer"
        guard access(writer, X_OK) == 0 else {
            Issue.record("\(writer) is missing: build every product first (swift build --build-tests)")
            return
        }
        let batches = [1, 7, 50, 3]
        let perWriter = 300
        let output = TemporaryDirectory.make()
        let children = try batches.enumerated().map { index, batch in
            try ChildProcess.spawn(
                [writer, url, String(index), String(perWriter), String(batch)],
                output: output.file("writer\(index).log"))
        }
        let seen = try follow(store, total: batches.count * perWriter)
        for (index, child) in children.enumerated() {
            let (status, text) = child.wait()
            #expect(status == 0, "writer \(index): \(text)")
        }
        try expectConsistent(seen, total: batches.count * perWriter, store: store)
        // Each writer's appends are atomic and in its order: every event of its k-th append comes
        // before every event of its (k+1)-th (the writer numbers events by occurredAt offset).
        for (index, batch) in batches.enumerated() {
            let own = seen.filter { $0.id.hasPrefix("77000000-000\(index)-") }
            #expect(own.count == perWriter)
            var lastOfBatch: [Int: Int64] = [:]
            var firstOfBatch: [Int: Int64] = [:]
            for event in own {
                let k = Int(event.occurredAt.millisecondsSinceEpoch - Fixture.time.millisecondsSinceEpoch) / batch
                lastOfBatch[k] = max(lastOfBatch[k] ?? 0, event.position)
                firstOfBatch[k] = min(firstOfBatch[k] ?? .max, event.position)
            }
            let ordered = (0..<(lastOfBatch.count - 1)).allSatisfy { lastOfBatch[$0]! < firstOfBatch[$0 + 1]! }
            let contiguous = lastOfBatch.keys.allSatisfy { lastOfBatch[$0]! - firstOfBatch[$0]! < Int64(batch) }
            #expect(ordered, "writer \(index): its appends are committed in order")
            #expect(contiguous, "writer \(index): each append occupies consecutive positions")
        }
    }

    @Test func concurrentWriterSessionsOnThreadsGetGaplessPositions() throws {
        let url = try PostgresTestServer.freshURL()
        let reader = try PostgresEventStore(url: url)
        let writers = 4
        let perWriter = 120
        let failures = Synchronization.Mutex<[String]>([])
        // Real threads, not tasks: the follower below blocks, and tasks could starve behind it.
        let threads = (0..<writers).map { writer in
            TestThread.start {
                do {
                    let store = try PostgresEventStore(url: url)
                    for n in 0..<perWriter {
                        let event = ProposedEvent(
                            id: Fixture.uuid(writer * 10_000 + n), type: "T", occurredAt: Fixture.time,
                            data: Array(#"{"n":\#(n)}"#.utf8))
                        try store.append([event], to: Fixture.stream(writer * 10 + n % 3), expectedVersion: .any)
                    }
                } catch {
                    failures.withLock { $0.append("writer \(writer): \(error)") }
                }
            }
        }
        let seen = try follow(reader, total: writers * perWriter)
        for thread in threads { thread.join() }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        try expectConsistent(seen, total: writers * perWriter, store: reader)
    }

    @Test func expectedVersionsHoldAcrossSessions() async throws {
        // Two sessions race to extend the same stream from the same version: exactly one wins.
        let url = try PostgresTestServer.freshURL()
        let a = try PostgresEventStore(url: url)
        let b = try PostgresEventStore(url: url)
        let stream = Fixture.stream(1)
        try a.append([Fixture.event(0)], to: stream, expectedVersion: .noStream)
        var wins = 0
        var conflicts = 0
        for round in 1...20 {
            let first = Task.detached {
                try a.append([Fixture.event(round * 2)], to: stream, expectedVersion: .exact(Int64(round - 1)))
            }
            let second = Task.detached {
                try b.append([Fixture.event(round * 2 + 1)], to: stream, expectedVersion: .exact(Int64(round - 1)))
            }
            for outcome in [await first.result, await second.result] {
                switch outcome {
                case .success: wins += 1
                case let .failure(error as EventStoreError) where error.code == .conflict: conflicts += 1
                case let .failure(error): Issue.record("unexpected \(error)")
                }
            }
        }
        #expect(wins == 20)
        #expect(conflicts == 20)
        #expect(try a.lastVersion(of: stream) == 20)
        #expect(try b.verify().events == 21)
    }
}
