import Domain
import JournalCore

@testable import Simulator

/// Helpers shared by the simulator suites.
enum SimulationSupport {
    /// Every event of a simulation, in the order it hands them out.
    static func events(
        seed: UInt64, transactions: Int, digitizations: Int,
        profile: WorkloadProfile = .realistic
    ) throws -> [SimulatedEvent] {
        let simulation = try Simulation(
            seed: seed, transactions: transactions, digitizations: digitizations, profile: profile)
        var events: [SimulatedEvent] = []
        while let event = simulation.next() { events.append(event) }
        return events
    }

    /// The NDJSON bytes `journal simulate --ndjson` writes.
    static func ndjson(
        seed: UInt64, transactions: Int, digitizations: Int,
        profile: WorkloadProfile = .realistic
    ) throws -> [UInt8] {
        let simulation = try Simulation(
            seed: seed, transactions: transactions, digitizations: digitizations, profile: profile)
        var writer = EnvelopeWriter()
        var bytes: [UInt8] = []
        while let event = simulation.next() {
            writer.write(event, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// A moderate run of the realistic profile, shared by the coverage and replay suites (it is
    /// deterministic, so computing it once per process is enough).
    /// What a run produced (a value: shareable between tests).
    struct Run: Sendable {
        var events: [SimulatedEvent]
        var statistics: SimulationStatistics
        var pathCounts: [String: Int]
    }

    static let moderateRun: Run = {
        // Built-in profiles always compile (checked by WorkloadProfileTests).
        let simulation = try! Simulation(
            seed: 2026, transactions: 8_000, digitizations: 4_000, profile: .realistic,
            recordsPaths: true)
        var events: [SimulatedEvent] = []
        while let event = simulation.next() { events.append(event) }
        return Run(events: events, statistics: simulation.statistics, pathCounts: simulation.pathCounts)
    }()

    /// A coverage-profile run with every path label recorded.
    static let coverageRun: Run = {
        let simulation = try! Simulation(
            seed: 99, transactions: 3_000, digitizations: 3_000, profile: .coverage,
            recordsPaths: true)
        var events: [SimulatedEvent] = []
        while let event = simulation.next() { events.append(event) }
        return Run(events: events, statistics: simulation.statistics, pathCounts: simulation.pathCounts)
    }()

    static func parse(_ bytes: [UInt8]) -> JSONObject {
        guard let object = try? JSONParser().parse(bytes).objectValue else {
            preconditionFailure("the simulator wrote data that is not a JSON object")
        }
        return object
    }
}
