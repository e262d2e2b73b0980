import JournalCore
import Projections

/// What `replay --against FILE` prints: the ``ReplayComparison`` of the replay with the record,
/// and exit 6 when anything differs.
package struct ReplayComparisonReport: CommandReport {
    package let comparison: ReplayComparison

    package func json() -> JSONValue { .object(comparison.json()) }

    package func textLines() -> [String] { comparison.textLines() }

    package var failure: CLIError? {
        guard !comparison.isSame else { return nil }
        return CLIError(
            .replayFailed,
            "the replay differs from the record: \(comparison.changed) changed, "
                + "\(comparison.onlyNow.count) only now, \(comparison.onlyThen.count) only then",
            hint: "each changed stream's steps: 'journal replay STREAM'")
    }
}
