import Domain
import JournalCore

/// What a simulation produced, counted as journeys are admitted (events: as handed out).
public struct SimulationStatistics: Sendable, Equatable {
    /// Events handed out by ``Simulation/next()``.
    public var events = 0
    public var transactions = 0
    public var digitizations = 0
    /// Events of each type, over the admitted journeys.
    public var eventTypes: [String: Int] {
        var counts: [String: Int] = [:]
        for (index, count) in typeCounts.enumerated() where count > 0 { counts[EventType.names[index]] = count }
        return counts
    }
    /// Events by ``EventType`` raw value.
    private var typeCounts = [Int](repeating: 0, count: EventType.names.count)
    /// Final outcomes: `3ds.<outcomeKey>` and `card.<outcomeKey>`.
    public var outcomes: [String: Int] {
        var counts: [String: Int] = [:]
        for (index, count) in threeDSOutcomes.enumerated() where count > 0 {
            counts["3ds." + Self.threeDSKeys[index].rawValue] = count
        }
        for (index, count) in cardOutcomes.enumerated() where count > 0 {
            counts["card." + Self.cardKeys[index].rawValue] = count
        }
        return counts
    }
    /// Journeys by outcome, in the order of ``threeDSKeys`` and ``cardKeys`` (no name built or
    /// hashed per journey).
    private var threeDSOutcomes = [Int](repeating: 0, count: SimulationStatistics.threeDSKeys.count)
    private var cardOutcomes = [Int](repeating: 0, count: SimulationStatistics.cardKeys.count)
    private static let threeDSKeys = ThreeDSTransaction.OutcomeKey.allCases
    private static let cardKeys = CardDigitization.OutcomeKey.allCases
    /// The most journeys in flight at once.
    public var peakInFlight = 0
    /// Arrivals that found every slot taken and started when one freed up.
    public var deferredArrivals = 0
    /// The simulated span: the first and last `recordedAt` handed out.
    public var firstRecordedAt: Timestamp?
    public var lastRecordedAt: Timestamp?

    /// Counts an admitted journey: its outcome, and its events (packed by the simulation).
    mutating func record(_ journey: GeneratedJourney, events: [InFlightJourney.Entry]) {
        switch journey.finalState {
        case let .threeDS(state):
            transactions += 1
            let key = state.outcomeKey
            for index in Self.threeDSKeys.indices where Self.threeDSKeys[index] == key { threeDSOutcomes[index] += 1 }
        case let .card(state):
            digitizations += 1
            let key = state.outcomeKey
            for index in Self.cardKeys.indices where Self.cardKeys[index] == key { cardOutcomes[index] += 1 }
        }
        for event in events { typeCounts[Int(event.typeIndex)] += 1 }
    }
}
