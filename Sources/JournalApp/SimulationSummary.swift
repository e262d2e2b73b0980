import EventStore
import JournalCore
import Simulator

/// What `journal simulate` appended: the simulation's figures (journeys, outcomes, event
/// types, concurrency, simulated time), the store's counts, and the checkpoint signed after it.
package struct SimulationSummary: CommandReport {
    package let simulation: Simulation
    package let report: SimulationAppender.Report
    /// The checkpoint kept after the append (`--sign`), with its log's origin.
    package let checkpoint: (kept: StoredCheckpoint, origin: String)?

    package func json() -> JSONValue {
        let statistics = simulation.statistics
        var object = JSONObject()
        object["seed"] = .number(JSONNumber(Int64(bitPattern: simulation.seed)))
        object["profile"] = .string(simulation.profile.name)
        object["transactions"] = .number(JSONNumber(statistics.transactions))
        object["digitizations"] = .number(JSONNumber(statistics.digitizations))
        object["events"] = .number(JSONNumber(report.events))
        object["written"] = .number(JSONNumber(report.written))
        object["storeTransactions"] = .number(JSONNumber(report.transactions))
        object["peakInFlight"] = .number(JSONNumber(statistics.peakInFlight))
        object["deferredArrivals"] = .number(JSONNumber(statistics.deferredArrivals))
        object["firstRecordedAt"] = statistics.firstRecordedAt.map { .string($0.description) } ?? .null
        object["lastRecordedAt"] = statistics.lastRecordedAt.map { .string($0.description) } ?? .null
        object["outcomes"] = .object(Self.sortedCounts(statistics.outcomes))
        object["eventTypes"] = .object(Self.sortedCounts(statistics.eventTypes))
        if let checkpoint {
            object["checkpoint"] = .object(JournalEvidence.checkpointJSON(checkpoint.kept, origin: checkpoint.origin))
        }
        return .object(object)
    }

    /// The summary without the checkpoint, which the command line says as `journal checkpoint` does.
    package func textLines() -> [String] {
        let statistics = simulation.statistics
        let duplicates = report.events - report.written
        var lines = [
            "simulated \(TextRendering.counted(statistics.transactions, "3DS transaction")) and "
                + "\(TextRendering.counted(statistics.digitizations, "card digitization")) "
                + "(seed \(simulation.seed), profile \(simulation.profile.name)): "
                + "\(TextRendering.counted(report.written, "event")) appended"
                + " in \(TextRendering.counted(report.transactions, "store transaction"))"
                + (duplicates > 0 ? " (\(duplicates) were already in the journal)" : "")
        ]
        if let first = statistics.firstRecordedAt, let last = statistics.lastRecordedAt {
            lines.append("  simulated time  \(first) … \(last)")
        }
        lines.append(
            "  concurrency     at most \(statistics.peakInFlight) journeys in flight"
                + (statistics.deferredArrivals > 0
                    ? ", \(statistics.deferredArrivals) arrivals waited for a slot" : ""))
        let outcomes = statistics.outcomes
        for category in ["3ds", "card"] {
            let keys = outcomes.keys.sorted().filter { $0.hasPrefix(category + ".") }
            guard !keys.isEmpty else { continue }
            let text = keys.map { "\($0.dropFirst(category.count + 1)) \(outcomes[$0] ?? 0)" }.joined(separator: ", ")
            lines.append("  \(category == "3ds" ? "3DS outcomes " : "card outcomes")   \(text)")
        }
        return lines
    }

    private static func sortedCounts(_ counts: [String: Int]) -> JSONObject {
        var object = JSONObject()
        for key in counts.keys.sorted() {
            object.appendUnchecked(key: key, value: .number(JSONNumber(counts[key] ?? 0)))
        }
        return object
    }
}
