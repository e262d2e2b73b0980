import EventStore
import Simulator

extension Bench {
    /// `bench --generator N`: the simulator's generator alone, as `journal simulate --db` runs it
    /// (every store batch built: domain commands, JSON, ids, `ProposedEvent`s), without a store
    /// and without NDJSON. Prints the CPU time and events per CPU-second of each run.
    func measureGenerator(_ transactions: Int) throws {
        for run in 1...options.runs {
            // The built-in profile is checked by the simulator's tests; compiling it cannot fail.
            let simulation = try Simulation(seed: 1, transactions: transactions, digitizations: transactions / 5)
            let wall = System.now()
            let cpu = System.cpuSeconds()
            let report = try SimulationAppender().generate(simulation)
            let cpuSeconds = System.cpuSeconds() - cpu
            let wallSeconds = System.now() - wall
            print(
                "generator run \(run): \(report.events) events in \(report.transactions) batches, "
                    + "\(Metrics.decimal(cpuSeconds, places: 3)) CPU-s, "
                    + "\(Metrics.decimal(wallSeconds, places: 3)) s wall, "
                    + "\(Int(Double(report.events) / cpuSeconds)) events/CPU-s, "
                    + "\(Metrics.decimal(cpuSeconds * 1e6 / Double(report.events), places: 2)) CPU-µs/event")
        }
    }
}
