import Domain
import JournalCore

/// A lane's results for one batch: for each of its events, in order. Filled by the lane's worker,
/// read by the run's thread once it has waited for that batch.
final class ReplayLaneOutput {
    // Filled by its lane's worker, then read by the run's thread, one access at a time: unchecked
    // as the lane's state is (measured with it).
    @exclusivity(unchecked) var results: [ReplayLaneResult] = []
    @exclusivity(unchecked) var fields = SummaryFieldsWriter()
    @exclusivity(unchecked) var reasons: [String] = []
    /// Each state's changes, one state's after the other's: the numbers of the fields that
    /// differ from the stream's state before (its initial state before its first event), their
    /// values, and (comparing) their values before.
    @exclusivity(unchecked) var changed: [Int32] = []
    @exclusivity(unchecked) var new = SummaryFieldsWriter()
    @exclusivity(unchecked) var old = SummaryFieldsWriter()
    /// Recording: the final states of the streams that ended, as objects.
    @exclusivity(unchecked) var finals: [UInt8] = []
    /// The folds the lane held after the page.
    @exclusivity(unchecked) var liveFolds = 0

    func removeAll() {
        results.removeAll(keepingCapacity: true)
        fields.bytes.removeAll(keepingCapacity: true)
        fields.ends.removeAll(keepingCapacity: true)
        reasons.removeAll(keepingCapacity: true)
        changed.removeAll(keepingCapacity: true)
        new.bytes.removeAll(keepingCapacity: true)
        new.ends.removeAll(keepingCapacity: true)
        old.bytes.removeAll(keepingCapacity: true)
        old.ends.removeAll(keepingCapacity: true)
        finals.removeAll(keepingCapacity: true)
    }

    /// Appends a whole state's fields; returns the index of its first.
    func appendState(_ state: SummaryFieldsWriter) -> Int32 {
        let first = fields.ends.count
        let base = fields.bytes.count
        fields.bytes.append(contentsOf: state.bytes)
        for end in state.ends { fields.ends.append(base + end) }
        return Int32(first)
    }
}

/// What one event gave, in its lane's ``ReplayLaneOutput``.
struct ReplayLaneResult {
    enum Kind: UInt8 {
        /// The stream's name has no fold (its first event): the reason.
        case startFails
        /// The event breaks a rule: the reason.
        case fails
        /// A version after the stream's failure.
        case skipped
        /// The state after the event: its fields.
        case state
    }

    var kind: Kind
    /// The state after the event is ended (``ReplayFold/replayEnded``).
    var ended = false
    /// The state's first field in the output's `fields.ends`, or the reason's index.
    var first: Int32 = -1
    /// The state's first change in the output's `changed` (and `new`, `old`), and their number.
    var changes: Int32 = 0
    var changeCount: Int32 = 0
    /// The state's number of fields.
    var fieldCount: Int32 = 0
    /// Recording, a stream's last event: its final state as an object in the output's `finals`.
    var finalStart: Int32 = 0
    var finalEnd: Int32 = 0
}
