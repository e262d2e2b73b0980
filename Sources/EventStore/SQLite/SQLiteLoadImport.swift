import JournalCore

/// A bulk import into a new SQLite journal (`SQLiteEventStore.openForImport`): the importer's
/// thread checks each event against the store's rules and queues it; each full batch goes to a
/// thread of its own, which prepares it (`LoadPreparer`: ids, chain link bodies and hashes,
/// compression) and has the load (`SQLiteJournalLoad`) write it, while the importer checks the
/// next batch's events.
///
/// `@unchecked Sendable`: the importer's thread owns the queue and the counters; the writing
/// thread owns the preparer and the load while a batch is in its hands, and each batch is
/// waited for before the next one is handed over and before `finish()` or `abandon()` touch
/// the load.
package final class SQLiteLoadImport: EventLoadWriting, @unchecked Sendable {
    /// An event the importer checked, and where it goes.
    private struct Queued: Sendable {
        var event: ProposedEvent
        var stream: StreamName
        var expectedVersion: ExpectedVersion
    }

    private let load: SQLiteJournalLoad
    private let preparer: LoadPreparer
    private let clock: @Sendable () -> Timestamp
    private let maxPayloadBytes: Int
    /// The batch being prepared and written, handed back (emptied) with the outcome of its write.
    private var writing: BackgroundTask<(Result<Int, EventStoreError>, [Queued])>?
    private var queue: [Queued] = []
    /// A written batch's array, emptied, for the queue after the next hand-over.
    private var spare: [Queued] = []
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
        preparer = try load.makePreparer()
        clock = configuration.clock
        maxPayloadBytes = configuration.maxPayloadBytes
        self.batchEvents = max(1, batchEvents)
        queue.reserveCapacity(self.batchEvents)
    }

    deinit { abandon() }

    package func append(_ event: ProposedEvent, to stream: StreamName, expectedVersion: ExpectedVersion)
        throws(EventStoreError) -> Int64
    {
        guard !over else { throw SQLiteJournalLoad.over(load.path) }
        try EventRules.validate([event], stream: stream, maxPayloadBytes: maxPayloadBytes)
        var queued = Queued(event: event, stream: stream, expectedVersion: expectedVersion)
        // The store's clock when the event is appended, as an append reads it.
        if queued.event.recordedAt == nil { queued.event.recordedAt = clock() }
        queue.append(queued)
        position += 1
        if queue.count == batchEvents { try writeQueued() }
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
        writing = BackgroundTask { [self] in
            do throws(EventStoreError) {
                let prepared = prepare(batch)
                let written = try load.append(prepared)
                preparer.reuse(prepared)
                batch.removeAll(keepingCapacity: true)
                return (.success(written), batch)
            } catch {
                return (.failure(error), [])
            }
        }
    }

    /// The batch for the load: consecutive events of a stream, each at the version the one
    /// before left, in one append.
    private func prepare(_ batch: [Queued]) -> PreparedLoadBatch {
        var last: (stream: StreamName, version: Int64)?
        for queued in batch {
            let version: Int64? =
                switch queued.expectedVersion {
                case .noStream: 0
                case let .exact(current): current + 1
                case .any, .streamExists: nil
                }
            if let last, let version, last.stream == queued.stream, last.version + 1 == version {
                // The next event of the same append.
            } else {
                preparer.beginAppend(to: queued.stream, expectedVersion: queued.expectedVersion)
            }
            let event = queued.event
            event.data.withUnsafeBytes { data in
                OptionalBytes.with(event.meta) { meta in
                    preparer.add(
                        id: event.id, type: event.type, occurredAt: event.occurredAt,
                        recordedAt: event.recordedAt ?? event.occurredAt, data: data, meta: meta)
                }
            }
            last = version.map { (queued.stream, $0) }
        }
        return preparer.finishBatch()
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
        if configuration.createIfMissing, !configuration.readOnly, SQLiteJournalLoad.canStart(at: path) {
            let load = try SQLiteJournalLoad(path: path, configuration: configuration)
            return .load(try SQLiteLoadImport(load: load, configuration: configuration, batchEvents: batchEvents))
        }
        return .store(try SQLiteEventStore(path: path, configuration: configuration))
    }
}
