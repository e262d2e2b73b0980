import Domain
import JournalCore

/// What a simulation produced, counted as journeys are admitted (events: as handed out).
public struct SimulationStatistics: Sendable, Equatable {
    /// Events handed out by ``Simulation/next()``.
    public var events = 0
    public var transactions = 0
    public var digitizations = 0
    /// Events of each type, over the admitted journeys.
    public var eventTypes: [String: Int] = [:]
    /// Final outcomes: `3ds.<outcomeKey>` and `card.<outcomeKey>`.
    public var outcomes: [String: Int] = [:]
    /// The most journeys in flight at once.
    public var peakInFlight = 0
    /// Arrivals that found every slot taken and started when one freed up.
    public var deferredArrivals = 0
    /// The simulated span: the first and last `recordedAt` handed out.
    public var firstRecordedAt: Timestamp?
    public var lastRecordedAt: Timestamp?

    mutating func record(_ journey: GeneratedJourney) {
        switch journey.finalState {
        case let .threeDS(state):
            transactions += 1
            outcomes["3ds." + state.outcomeKey.rawValue, default: 0] += 1
        case let .card(state):
            digitizations += 1
            outcomes["card." + state.outcomeKey.rawValue, default: 0] += 1
        }
        for event in journey.events { eventTypes[event.type, default: 0] += 1 }
    }
}
