import EventStore
import JournalCore

/// Appends a simulation to a store in big batches: one transaction per `batchSize` events,
/// consecutive events of one stream in one append with the expected version checked,
/// `recordedAt` from the simulated clock.
///
/// The store's `BatchPipeline` writes the batches: it has the next batch generated on another
/// thread while the store writes the current one, and gives each batch the form the store
/// writes fastest (a new journal's load gets it prepared on the generating thread). Batches
/// still reach the store one after the other, in the simulation's order, so the journal is the
/// same byte for byte whatever the store and the threads.
public struct SimulationAppender {
    public var batchSize: Int

    /// Events per transaction unless told otherwise: fewer commits rewrite the same hot index
    /// pages (the random stream names) into the WAL, for some more memory per batch in flight
    /// (BENCHMARKS.md, "Append path").
    public static let defaultBatchSize = 65_536

    /// Events per transaction of a new journal's load: it has no index to rewrite while it
    /// loads, so a smaller batch costs no more work, and the three batches alive at once (being
    /// written, being made, being freed) bound the load's memory.
    public static let defaultLoadBatchSize = 16_384

    public init(batchSize: Int = SimulationAppender.defaultBatchSize) {
        self.batchSize = max(1, batchSize)
    }

    /// What an append run did.
    public typealias Report = BulkAppendReport

    /// Appends every event of `simulation` to `store` (any `EventStore`, or a new journal's
    /// load); `progress` is called after each transaction with the events appended so far.
    /// - Throws: the store's errors (I/O, a full disk, a conflict with another writer).
    public func append(
        _ simulation: Simulation, to store: any BatchAppending,
        progress: (Int) -> Void = { _ in }
    ) throws(EventStoreError) -> Report {
        try BatchPipeline(batchSize: batchSize)
            .append(from: SimulationSource(simulation: simulation), to: store, progress: progress)
    }
}

extension SimulationAppender {
    /// Builds every batch as ``append(_:to:progress:)`` does for a store that is not a load, on
    /// this thread, and drops it: the generator's cost alone, without a store (`bench
    /// --generator`). `report.written` stays 0; `transactions` counts the batches.
    /// - Throws: an invalid stream name (a simulator bug).
    public func generate(_ simulation: Simulation) throws(EventStoreError) -> Report {
        let (events, batches) = try EventBatchSink().drain(SimulationSource(simulation: simulation), limit: batchSize)
        return Report(events: events, written: 0, transactions: batches)
    }
}
