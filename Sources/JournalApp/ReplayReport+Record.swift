import EventStore
import Projections

extension ReplayReport {
    /// What `replay --all` reports, from a finished recording's final outcomes (``ReplayRun``
    /// gives them in name order, from a temporary file when there are many): the same report,
    /// byte for byte, without a fold held per stream. Hashed a chunk at a time.
    package init<Fold: ReplayFold>(finalOutcomesOf run: ReplayRun<Fold>) throws {
        self.init()
        var part = ReplayDigestPart()
        try run.outcomes { outcome in
            let failure = outcome.failure.map {
                StreamReplay.Failure(version: $0.version, position: $0.position, reason: $0.reason)
            }
            part.add(try StreamName(outcome.stream), events: outcome.events, failure: failure) {
                $0.append(contentsOf: outcome.state)
            }
            if part.bytes.count >= 1 << 20 {
                absorb(part)
                part = ReplayDigestPart()
            }
        }
        absorb(part)
    }
}
