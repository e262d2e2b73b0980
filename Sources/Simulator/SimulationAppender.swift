import EventStore
import JournalCore

/// Appends a simulation to a store in big batches: one transaction per `batchSize` events,
/// consecutive events of one stream in one `StreamAppend` with the expected version checked,
/// `recordedAt` from the simulated clock.
///
/// Generating events and appending them each take a core's worth of work, so the next batch is
/// generated on another thread while the store writes the current one; batches still reach the
/// store one after the other, in the simulation's order, so the journal is the same byte for
/// byte as with a single thread.
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
    public struct Report: Sendable, Equatable {
        /// Events handed to the store.
        public var events = 0
        /// Events the store wrote (the rest were idempotent duplicates of an earlier run).
        public var written = 0
        public var transactions = 0
    }

    /// Appends every event of `simulation`; `progress` is called after each transaction with the
    /// events appended so far.
    /// - Throws: the store's errors (I/O, a full disk, a conflict with another writer).
    ///
    /// A new journal being loaded (`SQLiteJournalLoad`) gets its batches prepared on the
    /// generating thread too (`LoadPreparer`: the store's rules, ids, chain link bodies,
    /// compression), so that its writer only writes rows.
    public func append(
        _ simulation: Simulation, to store: any BatchAppending,
        progress: (Int) -> Void = { _ in }
    ) throws(EventStoreError) -> Report {
        let builder = BatchBuilder(simulation: simulation, batchSize: batchSize)
        if let load = store as? SQLiteJournalLoad {
            let preparer = try load.makePreparer()
            return try append(
                builder, progress: progress, produce: { builder.next(preparedWith: preparer) },
                write: { batch throws(EventStoreError) in try load.append(batch) })
        }
        return try append(
            builder, progress: progress, produce: { builder.next().map { $0.map { ($0.events, $0.appends) } } },
            write: { batch throws(EventStoreError) in try store.append(batch).reduce(0) { $0 + $1.written } })
    }

    /// Generates (and prepares) each batch on another thread while `write` writes the one
    /// before; `produce` gives a batch and its number of events, `write` the events it wrote.
    private func append<Batch: Sendable>(
        _ builder: BatchBuilder, progress: (Int) -> Void,
        produce: @escaping @Sendable () -> Result<(Int, Batch)?, EventStoreError>,
        write: (Batch) throws(EventStoreError) -> Int
    )
        throws(EventStoreError) -> Report
    {
        var report = Report()
        var next = BackgroundTask(produce)
        // However this ends, the builder (and the simulation) are back in this thread's hands.
        defer { next.finish() }
        var written: Batch?
        while let (events, batch) = try next.wait().get() {
            // The batch written last time is freed by the generating thread: releasing its
            // thousands of small arrays would take time from the appending thread, which sets
            // the pace.
            builder.retired = written
            written = nil
            next = BackgroundTask(produce)
            report.written += try write(batch)
            report.events += events
            report.transactions += 1
            progress(report.events)
            written = batch
        }
        return report
    }
}

extension SimulationAppender {
    /// Builds every batch exactly as ``append(_:to:progress:)`` does, on this thread, and drops
    /// it: the generator's cost alone, without a store (`bench --generator`). `report.written`
    /// stays 0; `transactions` counts the batches.
    /// - Throws: an invalid stream name (a simulator bug).
    public func generate(_ simulation: Simulation) throws(EventStoreError) -> Report {
        let builder = BatchBuilder(simulation: simulation, batchSize: batchSize)
        var report = Report()
        while let batch = try builder.next().get() {
            report.events += batch.events
            report.transactions += 1
        }
        return report
    }
}

/// The events of one transaction.
struct SimulationBatch: Sendable {
    var appends: [StreamAppend] = []
    var events = 0
}

/// Cuts the simulation into batches. Used by one thread at a time: each `BackgroundTask` that
/// calls `next()` is waited for before the next one starts.
///
/// `@unchecked Sendable`: the waits order the threads' uses. The builder lives across batches
/// and one `produce` closure is reused for each task, so it cannot be `sending` (a value can be
/// sent only once).
final class BatchBuilder: @unchecked Sendable {
    private let simulation: Simulation
    private let batchSize: Int
    /// A batch the store has written, handed over to be freed at the start of the next `next()`.
    var retired: (any Sendable)?

    init(simulation: Simulation, batchSize: Int) {
        self.simulation = simulation
        self.batchSize = batchSize
    }

    /// The next batch, or nil when the simulation is over.
    func next() -> Result<SimulationBatch?, EventStoreError> {
        retired = nil
        var batch = SimulationBatch()
        var lastJourney: InFlightJourney?
        while batch.events < batchSize, let (event, journey) = simulation.take() {
            let proposed = ProposedEvent(
                id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data,
                meta: event.meta, recordedAt: event.recordedAt)
            if journey === lastJourney {
                batch.appends[batch.appends.count - 1].events.append(proposed)
            } else {
                let stream: StreamName
                switch Self.stream(of: journey) {
                case let .success(checked): stream = checked
                case let .failure(error): return .failure(error)
                }
                batch.appends.append(
                    StreamAppend(stream: stream, expectedVersion: Self.expected(event.version), events: [proposed]))
                lastJourney = journey
            }
            batch.events += 1
        }
        return .success(batch.events == 0 ? nil : batch)
    }

    /// The next batch prepared for a journal load event by event, with its number of events, or
    /// nil when the simulation is over: the same appends as `next()`, without a `StreamAppend`,
    /// a `ProposedEvent` or even a `SimulatedEvent` (each event is read in place in its
    /// journey's bytes: `Simulation.withNext`).
    func next(preparedWith preparer: LoadPreparer) -> Result<(Int, PreparedLoadBatch)?, EventStoreError> {
        // The batch written last goes back to the preparer, held nowhere else (so its arrays
        // are refilled in place, not copied).
        var written: (any Sendable)?
        swap(&written, &retired)
        if let batch = written as? PreparedLoadBatch {
            written = nil
            preparer.reuse(batch)
        }
        var events = 0
        var lastJourney: InFlightJourney?
        var failure: EventStoreError?
        while events < batchSize, failure == nil,
            simulation.withNext({ event, journey in
                if journey !== lastJourney {
                    switch Self.stream(of: journey) {
                    case let .success(stream):
                        preparer.beginAppend(to: stream, expectedVersion: Self.expected(event.version))
                    case let .failure(error):
                        failure = error
                        return
                    }
                    lastJourney = journey
                }
                if let text = event.id.text {
                    preparer.add(
                        id: text, type: event.type, occurredAt: event.occurredAt, recordedAt: event.recordedAt,
                        data: event.data, meta: event.meta)
                } else {
                    preparer.add(
                        uuidHigh: event.id.high, low: event.id.low, type: event.type, occurredAt: event.occurredAt,
                        recordedAt: event.recordedAt, data: event.data, meta: event.meta)
                }
                events += 1
            }) != nil
        {}
        if let failure { return .failure(failure) }
        return .success(events == 0 ? nil : (events, preparer.finishBatch()))
    }

    /// The journey's stream name, checked once per journey.
    private static func stream(of journey: InFlightJourney) -> Result<StreamName, EventStoreError> {
        if let checked = journey.streamName { return .success(checked) }
        do {
            let stream = try StreamName(journey.stream)
            journey.streamName = stream
            return .success(stream)
        } catch {
            return .failure(error)
        }
    }

    /// The version an append that starts with an event of `version` expects its stream at.
    private static func expected(_ version: Int64) -> ExpectedVersion {
        version == 0 ? .noStream : .exact(version - 1)
    }
}
