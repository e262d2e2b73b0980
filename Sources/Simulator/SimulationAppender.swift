import EventStore
import JournalCore

/// Appends a simulation to a store in big batches: one transaction per `batchSize` events,
/// consecutive events of one stream in one `StreamAppend` with the expected version checked,
/// `recordedAt` from the simulated clock.
public struct SimulationAppender {
    public var batchSize: Int

    public init(batchSize: Int = 4_096) {
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
    public func append(_ simulation: Simulation, to store: any EventStore,
                       progress: (Int) -> Void = { _ in }) throws(EventStoreError) -> Report {
        var report = Report()
        var batch: [StreamAppend] = []
        var pending = 0
        var lastStream = ""
        func flush() throws(EventStoreError) {
            guard pending > 0 else { return }
            let results = try store.append(batch)
            report.written += results.reduce(0) { $0 + $1.written }
            report.events += pending
            report.transactions += 1
            batch.removeAll(keepingCapacity: true)
            pending = 0
            lastStream = ""
            progress(report.events)
        }
        while let event = simulation.next() {
            let proposed = ProposedEvent(id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data,
                                         meta: event.meta, recordedAt: event.recordedAt)
            if event.stream == lastStream {
                batch[batch.count - 1].events.append(proposed)
            } else {
                let stream = try StreamName(event.stream)
                let expected: ExpectedVersion = event.version == 0 ? .noStream : .exact(event.version - 1)
                batch.append(StreamAppend(stream: stream, expectedVersion: expected, events: [proposed]))
                lastStream = event.stream
            }
            pending += 1
            if pending >= batchSize { try flush() }
        }
        try flush()
        return report
    }
}
