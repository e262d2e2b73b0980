import JournalCore

/// A bulk import into a new SQLite journal (`SQLiteEventStore.openForImport`): the importer's
/// thread checks each event against the store's rules and queues it; each full batch goes to a
/// thread of its own, which prepares it (`LoadPreparer`: ids, chain link bodies and hashes,
/// compression) and has the load (`SQLiteJournalLoad`) write it, while the importer checks the
/// next batch's events.
///
/// The importer's thread owns the queue and the counters; the writing thread owns the load's
/// writer (`PreparedLoadWriter`) while a batch is in its hands (`HandOver`), and each batch is
/// waited for before the next one is handed over and before `finish()` or `abandon()` touch
/// the load.
package final class SQLiteLoadImport: EventLoadWriting {
    private let load: SQLiteJournalLoad
    private let writer: PreparedLoadWriter
    private let clock: @Sendable () -> Timestamp
    private let maxPayloadBytes: Int
    /// The batch being prepared and written, handed back (emptied) with the outcome of its write.
    private var writing: BackgroundTask<(Result<Int, EventStoreError>, [StreamAppend])>?
    /// The checked events, consecutive events of a stream in one append.
    private var queue: [StreamAppend] = []
    private var queuedEvents = 0
    /// A written batch's array, emptied, for the queue after the next hand-over.
    private var spare: [StreamAppend] = []
    private var position: Int64 = 0
    private var over = false

    /// Events per batch (one transaction of the loading file): a quarter of `journal
    /// simulate`'s, since an import holds a batch twice (queued events, then prepared bytes),
    /// and a load has no index whose pages more commits would rewrite.
    package static let defaultBatchEvents = 16_384
    private let batchEvents: Int

    init(load: SQLiteJournalLoad, configuration: SQLiteEventStore.Configuration, batchEvents: Int)
        throws(EventStoreError)
    {
        self.load = load
        writer = try PreparedLoadWriter(load: load)
        clock = configuration.clock
        maxPayloadBytes = configuration.maxPayloadBytes
        self.batchEvents = max(1, batchEvents)
        queue.reserveCapacity(self.batchEvents)
    }

    deinit { abandon() }

    package func append(_ event: consuming ProposedEvent, to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> Int64
    {
        guard !over else { throw SQLiteJournalLoad.over(load.path) }
        try EventRules.validate(event, stream: stream, maxPayloadBytes: maxPayloadBytes)
        // The store's clock when the event is appended, as an append reads it.
        if event.recordedAt == nil { event.recordedAt = clock() }
        if let last = queue.indices.last, queue[last].stream == stream,
            Self.versionAfter(queue[last]).map({ .exact($0) }) == expectedVersion
        {
            queue[last].events.append(consume event)
        } else {
            queue.append(StreamAppend(stream: stream, expectedVersion: expectedVersion, events: [consume event]))
        }
        queuedEvents += 1
        position += 1
        if queuedEvents == batchEvents { try writeQueued() }
        return position
    }

    package func finish() throws(EventStoreError) -> Int64 {
        guard !over else { throw SQLiteJournalLoad.over(load.path) }
        do {
            if !queue.isEmpty { try writeQueued() }
            try waitForWrite()
            over = true
            return try load.finish()
        } catch {
            abandon()
            throw error
        }
    }

    package func abandon() {
        over = true
        if let writing { _ = writing.wait() }
        writing = nil
        load.abandon()
    }

    /// Hands the queued events to the writing thread, after the batch before them is written.
    private func writeQueued() throws(EventStoreError) {
        do {
            try waitForWrite()
        } catch {
            abandon()
            throw error
        }
        var batch = spare
        spare = []
        swap(&batch, &queue)
        queuedEvents = 0
        // The load's writer is the writing thread's until `waitForWrite()`.
        let handed = HandOver(writer)
        writing = BackgroundTask {
            let writer = handed.value
            do throws(EventStoreError) {
                let prepared = writer.prepare(batch)
                let written = try writer.write(prepared)
                writer.reuse(prepared)
                batch.removeAll(keepingCapacity: true)
                return (.success(written), batch)
            } catch {
                return (.failure(error), [])
            }
        }
    }

    /// The version of the last event of `append` (nil when its expected version says none).
    private static func versionAfter(_ append: StreamAppend) -> Int64? {
        switch append.expectedVersion {
        case .noStream: Int64(append.events.count) - 1
        case let .exact(version): version + Int64(append.events.count)
        case .any, .streamExists: nil
        }
    }

    private func waitForWrite() throws(EventStoreError) {
        guard let task = writing else { return }
        writing = nil
        let (result, emptied) = task.wait()
        spare = emptied
        _ = try result.get()
    }
}

extension SQLiteEventStore {
    /// Where `journal import` writes at `path`: a load (`.load`, `SQLiteLoadImport`) when no file
    /// is there yet and the configuration may create one, else the store (`.store`).
    /// `batchEvents`: events per transaction of the load (tests make it small).
    package static func openForImport(
        path: String, configuration: Configuration, batchEvents: Int = SQLiteLoadImport.defaultBatchEvents
    ) throws(EventStoreError) -> ImportTarget {
        if let load = try SQLiteJournalLoad.ofNewJournal(at: path, configuration: configuration) {
            return .load(try SQLiteLoadImport(load: load, configuration: configuration, batchEvents: batchEvents))
        }
        return .store(try SQLiteEventStore(path: path, configuration: configuration))
    }
}
