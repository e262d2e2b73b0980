import JournalCore

/// Where an `EventBatchSource` puts a batch's events, in the form the store writes: for a journal
/// load (`PreparedLoadWriter`), prepared on the producing thread as they come (`LoadPreparer`: the
/// store's rules, packed ids, chain link bodies and hashes, compression), so that the load's
/// writer only writes rows; for any other store, gathered into the `StreamAppend`s of its
/// `append(_:)`. A final class, so that the source's calls per event are direct calls.
///
/// ```swift
/// sink.beginAppend(to: stream, expectedVersion: .noStream)
/// sink.add(id: id, type: "TransactionCreated", occurredAt: t, recordedAt: t, data: data, meta: nil)
/// ```
///
/// Used by one thread at a time: the pipeline hands it over to each batch's task (`HandOver`),
/// waits for each batch before it starts the next, and hands a written batch back only between
/// two batches.
package final class EventBatchSink {
    /// A filled batch in the store's form.
    enum Batch: Sendable {
        case appends([StreamAppend])
        case prepared(PreparedLoadBatch)
    }

    private let preparer: LoadPreparer?
    private var appends: [StreamAppend] = []
    private var eventCount = 0
    /// A batch the store has written, handed back by the pipeline to be freed (or, prepared,
    /// refilled) on the producing thread when the next batch starts: releasing its thousands of
    /// small arrays would take time from the writing thread, which sets the pace.
    var retired: Batch?

    /// A sink that gathers `StreamAppend`s, the form every store's `append(_:)` takes.
    package init() {
        preparer = nil
    }

    /// A sink that prepares each event for the load `preparer` belongs to.
    init(preparer: LoadPreparer) {
        self.preparer = preparer
    }

    /// Starts an append to `stream`: the events `add` gives next are its events.
    package func beginAppend(to stream: StreamName, expectedVersion: ExpectedVersion) {
        if let preparer {
            preparer.beginAppend(to: stream, expectedVersion: expectedVersion)
        } else {
            appends.append(StreamAppend(stream: stream, expectedVersion: expectedVersion, events: []))
        }
    }

    /// Adds an event to the append begun last. An event that breaks one of the store's rules
    /// fails its batch when the store writes it, with the error `append(_:)` gives.
    package func add(
        id: String, type: String, occurredAt: Timestamp, recordedAt: Timestamp,
        data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?
    ) {
        eventCount += 1
        if let preparer {
            preparer.add(
                id: id, type: type, occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta)
        } else {
            addProposed(id: id, type: type, occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta)
        }
    }

    /// `add(id:…)` for an id that is a lowercase UUID, given as its two words
    /// (`UUIDText.words`): the same event, without parsing or even making the id's text.
    package func add(
        uuidHigh high: UInt64, low: UInt64, type: String, occurredAt: Timestamp, recordedAt: Timestamp,
        data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?
    ) {
        eventCount += 1
        if let preparer {
            preparer.add(
                uuidHigh: high, low: low, type: type, occurredAt: occurredAt, recordedAt: recordedAt, data: data,
                meta: meta)
        } else {
            addProposed(
                id: UUIDText.lowercaseText(high: high, low: low), type: type, occurredAt: occurredAt,
                recordedAt: recordedAt, data: data, meta: meta)
        }
    }

    private func addProposed(
        id: String, type: String, occurredAt: Timestamp, recordedAt: Timestamp,
        data: UnsafeRawBufferPointer, meta: UnsafeRawBufferPointer?
    ) {
        guard let last = appends.indices.last else { preconditionFailure("add before beginAppend") }
        appends[last].events.append(
            ProposedEvent(
                id: id, type: type, occurredAt: occurredAt, data: Array(data), meta: meta.map { Array($0) },
                recordedAt: recordedAt))
    }

    /// The next batch of `source` and its number of events, or nil when the source is over. The
    /// batch handed back last (`retired`) is freed or refilled first.
    /// - Throws: the source's error (the batch begun is dropped).
    func fill(from source: any EventBatchSource, limit: Int) -> Result<(events: Int, batch: Batch)?, EventStoreError> {
        recycleRetired()
        do {
            try source.fillBatch(into: self, limit: limit)
        } catch {
            _ = finishBatch()
            return .failure(error)
        }
        let events = eventCount
        let batch = finishBatch()
        return .success(events == 0 ? nil : (events, batch))
    }

    /// Every batch of `source`, made as a pipeline makes them, each dropped once made; returns
    /// the number of events and of batches (the cost of a source alone, without a store).
    /// - Throws: the source's error.
    package func drain(_ source: any EventBatchSource, limit: Int) throws(EventStoreError) -> (
        events: Int, batches: Int
    ) {
        var total = (events: 0, batches: 0)
        while let (events, _) = try fill(from: source, limit: limit).get() {
            total.events += events
            total.batches += 1
        }
        return total
    }

    /// The batch given since the last one; the sink starts the next one.
    private func finishBatch() -> Batch {
        eventCount = 0
        if let preparer { return .prepared(preparer.finishBatch()) }
        var batch: [StreamAppend] = []
        swap(&batch, &appends)
        return .appends(batch)
    }

    private func recycleRetired() {
        // Taken out of `retired` so that the batch is held nowhere else: a prepared batch's arrays
        // are then refilled in place, not copied.
        var written: Batch?
        swap(&written, &retired)
        guard case let .prepared(batch)? = written else { return }
        written = nil
        preparer?.reuse(batch)
    }
}
