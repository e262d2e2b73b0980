import JournalCore
import Testing

@testable import EventStore

/// `BatchPipeline`: a source's events reach any store in order, one transaction per batch, and
/// the store, not the caller, picks the form of the batches: a new journal's load gets them
/// prepared (and holds the same journal as an ordinary store given the same source).
@Suite("Batch pipeline")
struct BatchPipelineTests {
    /// Events 1…`count` in runs of three per stream over `streams` streams, each run one append
    /// at its stream's next version (a run cut by the end of a batch goes on in a new append);
    /// odd events give their id as its two words, even ones as text; meta on every fourth.
    /// `failAt`: the event it cannot give.
    final class CountingSource: EventBatchSource {
        let count: Int
        let streams: Int
        let failAt: Int?
        private var n = 0
        private var versions: [Int: Int64] = [:]

        init(count: Int, streams: Int = 5, failAt: Int? = nil) {
            (self.count, self.streams, self.failAt) = (count, streams, failAt)
        }

        static func event(_ n: Int) -> ProposedEvent {
            Fixture.event(
                n, meta: n % 4 == 0 ? #"{"sdk":"3ds","n":\#(n)}"# : nil,
                recordedAt: Fixture.time.adding(milliseconds: Int64(1_000 + n)))
        }

        func fillBatch(into sink: EventBatchSink, limit: Int) throws(EventStoreError) {
            var given = 0
            var lastStream: Int?
            while given < limit, n < count {
                n += 1
                if n == failAt { throw EventStoreError(code: .invalidInput, message: "event \(n) cannot be made") }
                let stream = ((n - 1) / 3) % streams
                let version = versions[stream, default: 0]
                versions[stream] = version + 1
                if stream != lastStream {
                    sink.beginAppend(
                        to: Fixture.stream(stream), expectedVersion: version == 0 ? .noStream : .exact(version - 1))
                    lastStream = stream
                }
                let event = Self.event(n)
                event.data.withUnsafeBytes { data in
                    OptionalBytes.with(event.meta) { meta in
                        if n % 2 == 1, let words = UUIDText.words(event.id) {
                            sink.add(
                                uuidHigh: words.high, low: words.low, type: event.type, occurredAt: event.occurredAt,
                                recordedAt: event.recordedAt!, data: data, meta: meta)
                        } else {
                            sink.add(
                                id: event.id, type: event.type, occurredAt: event.occurredAt,
                                recordedAt: event.recordedAt!, data: data, meta: meta)
                        }
                    }
                }
                given += 1
            }
        }
    }

    @Test("a store gets every source event in order, at its version, one transaction per batch")
    func aStoreGetsEverySourceEventInOrderAtItsVersionOneTransactionPerBatch() throws {
        let store = try SQLiteEventStore(path: ":memory:", configuration: JournalLoadTests.configuration())
        var progress: [Int] = []
        let report = try BatchPipeline(batchSize: 16)
            .append(from: CountingSource(count: 100), to: store) { progress.append($0) }
        #expect(report == BatchPipeline.Report(events: 100, written: 100, transactions: 7))
        #expect(progress == [16, 32, 48, 64, 80, 96, 100])
        let rows = try store.readAll(from: 1, limit: .max)
        #expect(rows.map(\.id) == (1...100).map { Fixture.uuid($0) })
        for (row, n) in zip(rows, 1...100) {
            let event = CountingSource.event(n)
            #expect(row.stream == Fixture.stream(((n - 1) / 3) % 5))
            #expect(row.version == Int64((n - 1) / 15 * 3 + (n - 1) % 3))
            #expect(row.data == event.data && row.meta == event.meta && row.recordedAt == event.recordedAt)
        }
    }

    @Test("the same source again finds every event stored and writes nothing")
    func theSameSourceAgainFindsEveryEventStoredAndWritesNothing() throws {
        let store = try SQLiteEventStore(path: ":memory:", configuration: JournalLoadTests.configuration())
        _ = try BatchPipeline(batchSize: 16).append(from: CountingSource(count: 50), to: store)
        let again = try BatchPipeline(batchSize: 16).append(from: CountingSource(count: 50), to: store)
        #expect(again == BatchPipeline.Report(events: 50, written: 0, transactions: 4))
        #expect(try store.headPosition() == 50)
    }

    @Test("a journal load gets prepared batches and holds the journal an ordinary store holds")
    func aJournalLoadGetsPreparedBatchesAndHoldsTheJournalAnOrdinaryStoreHolds() throws {
        let pair = try PreparedLoadTests.Pair()
        let usual = try BatchPipeline(batchSize: 64).append(
            from: CountingSource(count: 500, streams: 40), to: pair.usual)
        let loaded = try BatchPipeline(batchSize: 64).append(
            from: CountingSource(count: 500, streams: 40), to: pair.load)
        #expect(usual == loaded)
        // Chain hashes computed ahead exist only in batches prepared on the producing thread.
        #expect(pair.load.hashesTakenAhead > 400)
        try pair.load.finish()
        let journal = try pair.loaded()
        #expect(try journal.readAll(from: 1, limit: .max) == pair.usual.readAll(from: 1, limit: .max))
        #expect(try journal.verify().headHash == pair.usual.verify().headHash)
    }

    @Test("a source's error stops the pipeline and the batches before it stay written")
    func aSourcesErrorStopsThePipelineAndTheBatchesBeforeItStayWritten() throws {
        let store = try SQLiteEventStore(path: ":memory:", configuration: JournalLoadTests.configuration())
        #expect(throws: EventStoreError.self) {
            try BatchPipeline(batchSize: 16).append(from: CountingSource(count: 100, failAt: 40), to: store)
        }
        #expect(try store.headPosition() == 32)
    }

    @Test("a store that refuses a batch stops the pipeline with its error")
    func aStoreThatRefusesABatchStopsThePipelineWithItsError() throws {
        let store = try SQLiteEventStore(path: ":memory:", configuration: JournalLoadTests.configuration())
        // Stream 2's first run (events 7–9, second batch) expects no stream.
        try store.append([Fixture.event(1_000)], to: Fixture.stream(2), expectedVersion: .noStream)
        do {
            _ = try BatchPipeline(batchSize: 6).append(from: CountingSource(count: 100), to: store)
            Issue.record("the conflicting batch was written")
        } catch {
            #expect(error.code == .conflict, "\(error)")
        }
        #expect(try store.headPosition() == 7)
    }

    @Test("draining a source makes every batch and writes nothing")
    func drainingASourceMakesEveryBatchAndWritesNothing() throws {
        let total = try EventBatchSink().drain(CountingSource(count: 100), limit: 16)
        #expect(total.events == 100 && total.batches == 7)
    }

    @Test("a bulk append loads a missing file and appends to an existing one or to memory")
    func aBulkAppendLoadsAMissingFileAndAppendsToAnExistingOneOrToMemory() throws {
        let directory = TemporaryDirectory.make()
        let path = directory.file("journal.db")
        guard
            case let .load(load) = try SQLiteEventStore.openForBulkAppend(
                path: path, configuration: JournalLoadTests.configuration())
        else {
            Issue.record("a missing file is not loaded")
            return
        }
        #expect(!FileSystem.exists(path))
        _ = try BatchPipeline(batchSize: 16).append(from: CountingSource(count: 20), to: load)
        #expect(try load.finish() == 20)
        guard
            case let .store(store) = try SQLiteEventStore.openForBulkAppend(
                path: path, configuration: JournalLoadTests.configuration())
        else {
            Issue.record("an existing journal is loaded anew")
            return
        }
        #expect(try store.headPosition() == 20)
        guard
            case .store = try SQLiteEventStore.openForBulkAppend(
                path: ":memory:", configuration: JournalLoadTests.configuration())
        else {
            Issue.record(":memory: is loaded")
            return
        }
    }
}
