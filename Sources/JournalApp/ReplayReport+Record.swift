import EventStore
import Projections

extension ReplayReport {
    /// What `replay --all` reports, from a finished recording's final outcomes (``ReplayRun``
    /// gives them in name order, from a temporary file when there are many): the same report,
    /// byte for byte, without a fold held per stream.
    package init<Fold: ReplayFold>(finalOutcomesOf run: ReplayRun<Fold>) throws {
        try self.init { add in try run.outcomes { try add($0.stream, $0.events, $0.failure, $0.state) } }
    }

    /// What `replay --all` reports, from the final outcomes of ``LogReplay``.
    package init(finals: ReplayFinals) throws {
        try self.init { add in try finals.forEachInNameOrder { try add($0.stream, $0.events, $0.failure, $0.state) } }
    }

    /// The report of the final outcomes `outcomes` gives `add`, in name order: each stream's
    /// name, events, failure, and final state as compact JSON. Hashed a chunk at a time.
    private init(
        _ outcomes: (
            _ add: (
                _ stream: String, _ events: Int, _ failure: (version: Int64, position: Int64, reason: String)?,
                _ state: [UInt8]
            ) throws -> Void
        ) throws -> Void
    ) throws {
        self.init()
        var part = ReplayDigestPart()
        try outcomes { stream, events, failure, state in
            let failure = failure.map {
                StreamReplay.Failure(version: $0.version, position: $0.position, reason: $0.reason)
            }
            part.add(try StreamName(stream), events: events, failure: failure) { $0.append(contentsOf: state) }
            if part.bytes.count >= 1 << 20 {
                absorb(part)
                part = ReplayDigestPart()
            }
        }
        absorb(part)
    }
}
