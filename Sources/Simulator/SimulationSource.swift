import EventStore
import JournalCore

/// Gives the simulation's events to a batch pipeline: consecutive events of one journey in one
/// append, each event read in place in its journey's bytes (`Simulation.withNext`), without a
/// `SimulatedEvent` or, for a load, even a `ProposedEvent`.
///
/// The pipeline uses the source from one thread at a time and waits for each batch before the
/// next one starts.
final class SimulationSource: EventBatchSource {
    private let simulation: Simulation

    init(simulation: Simulation) {
        self.simulation = simulation
    }

    func fillBatch(into sink: EventBatchSink, limit: Int) throws(EventStoreError) {
        var events = 0
        var lastJourney: InFlightJourney?
        var failure: EventStoreError?
        while events < limit, failure == nil,
            simulation.withNext({ event, journey in
                if journey !== lastJourney {
                    switch Self.stream(of: journey) {
                    case let .success(stream):
                        sink.beginAppend(to: stream, expectedVersion: Self.expected(event.version))
                    case let .failure(error):
                        failure = error
                        return
                    }
                    lastJourney = journey
                }
                if let text = event.id.text {
                    sink.add(
                        id: text, type: event.type, occurredAt: event.occurredAt, recordedAt: event.recordedAt,
                        data: event.data, meta: event.meta)
                } else {
                    sink.add(
                        uuidHigh: event.id.high, low: event.id.low, type: event.type, occurredAt: event.occurredAt,
                        recordedAt: event.recordedAt, data: event.data, meta: event.meta)
                }
                events += 1
            }) != nil
        {}
        if let failure { throw failure }
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
