import JournalCore

/// The store's side of a bulk append: takes the events of an `EventBatchSource` in batches of
/// `batchSize` events, one store transaction each, and has the next batch made on another thread
/// while the store writes the one before. Batches reach the store one after the other, in the
/// source's order, so the journal is the same byte for byte as with one thread.
///
/// ```swift
/// let report = try BatchPipeline(batchSize: 65_536).append(from: source, to: store)
/// ```
///
/// The store decides the form of the batches, not the caller: a store with a bulk writer of its
/// own (`BatchAppending.preparedLoadWriter()`: a journal load) gets them prepared on the
/// producing thread (`EventBatchSink`), so that its writer only writes rows; any other store gets
/// `[StreamAppend]` for its `append(_:)` (docs/decisions/write-pipeline.md).
package struct BatchPipeline {
    package var batchSize: Int

    package init(batchSize: Int) {
        self.batchSize = max(1, batchSize)
    }

    package typealias Report = BulkAppendReport

    /// Appends every event of `source` to `store`; `progress` is called after each transaction
    /// with the events appended so far.
    /// - Throws: the source's errors, the store's (I/O, a full disk, a conflict with another
    ///   writer). The batches written before stay written.
    package func append(
        from source: any EventBatchSource, to store: any BatchAppending, progress: (Int) -> Void = { _ in }
    ) throws(EventStoreError) -> Report {
        // The form of the batches, chosen by the store: prepared as they are made for its own
        // bulk writer (a journal load), `StreamAppend`s for its `append(_:)` otherwise.
        let writer = try store.preparedLoadWriter()
        let sink = writer.map { EventBatchSink(preparer: $0.preparer) } ?? EventBatchSink()
        // The sink and the source are the producing task's until it is waited for; the next
        // task starts only after that (and `sink.retired` is set only between two tasks).
        let producer = HandOver((sink: sink, source: source))
        let limit = batchSize
        let produce: @Sendable () -> Result<(events: Int, batch: EventBatchSink.Batch)?, EventStoreError> = {
            producer.value.sink.fill(from: producer.value.source, limit: limit)
        }
        var report = Report()
        var next = BackgroundTask(produce)
        // However this ends, the source and the sink are back in this thread's hands.
        defer { next.finish() }
        var written: EventBatchSink.Batch?
        while let (events, batch) = try next.wait().get() {
            // Handed over between two batches: no task is running.
            sink.retired = written
            written = nil
            next = BackgroundTask(produce)
            report.written += try write(batch, to: store, writer: writer)
            report.events += events
            report.transactions += 1
            progress(report.events)
            written = batch
        }
        return report
    }

    /// Writes one batch in one transaction; returns the events written.
    private func write(_ batch: EventBatchSink.Batch, to store: any BatchAppending, writer: PreparedLoadWriter?)
        throws(EventStoreError) -> Int
    {
        switch batch {
        case let .appends(appends):
            return try store.append(appends).reduce(0) { $0 + $1.written }
        case let .prepared(prepared):
            // The sink prepares only with the store's bulk writer (above).
            guard let writer else { preconditionFailure("a prepared batch for a store without a bulk writer") }
            return try writer.write(prepared)
        }
    }
}

/// What a bulk append run did (`BatchPipeline`, `SimulationAppender`).
public struct BulkAppendReport: Sendable, Equatable {
    /// Events handed to the store.
    public var events = 0
    /// Events the store wrote (the rest were idempotent duplicates of an earlier run).
    public var written = 0
    /// Store transactions, one per batch.
    public var transactions = 0

    public init(events: Int = 0, written: Int = 0, transactions: Int = 0) {
        self.events = events
        self.written = written
        self.transactions = transactions
    }
}
