import JournalCore
import Testing

@testable import Simulator

/// Memory is bounded by design: at most `traffic.maxInFlight` journeys are held, whatever the
/// counts, and a journey is generated only when it arrives.
@Suite("Simulation memory bound")
struct SimulationMemoryTests {
    static func profile(maxInFlight: Int64, arrivalsPerSecond: Int64) throws -> WorkloadProfile {
        try WorkloadProfile.realistic.merging([
            ProfileFigure("traffic.maxInFlight", .integer(maxInFlight), source: "test"),
            ProfileFigure("traffic.arrivalsPerSecond", .integer(arrivalsPerSecond), source: "test")
        ])
    }

    @Test func inFlightJourneysNeverExceedTheConfiguredConcurrency() throws {
        let simulation = try Simulation(
            seed: 3, transactions: 3_000, digitizations: 1_000,
            profile: try Self.profile(maxInFlight: 40, arrivalsPerSecond: 500))
        var events = 0
        while simulation.next() != nil {
            events += 1
            #expect(simulation.inFlight <= 40)
        }
        #expect(simulation.statistics.peakInFlight == 40, "the cap was reached")
        #expect(simulation.statistics.deferredArrivals > 0, "arrivals waited for a slot")
        #expect(simulation.statistics.transactions == 3_000 && simulation.statistics.digitizations == 1_000)
        #expect(events == simulation.statistics.events)
    }

    @Test func journeysAreGeneratedOnlyWhenTheyArrive() throws {
        let simulation = try Simulation(seed: 3, transactions: 1_000_000_000, digitizations: 1_000_000_000)
        // A billion journeys requested: the first events come at once, with a handful in flight.
        for _ in 0..<1_000 { _ = simulation.next() }
        #expect(simulation.inFlight <= simulation.maxInFlight)
        #expect(simulation.statistics.transactions + simulation.statistics.digitizations < 2_000)
    }

    @Test func theCapDoesNotChangeAnUncappedRunsCounts() throws {
        let capped = try SimulationSupport.events(
            seed: 11, transactions: 500, digitizations: 200,
            profile: try Self.profile(maxInFlight: 10, arrivalsPerSecond: 40))
        #expect(Set(capped.map(\.stream)).count == 700)
    }
}
