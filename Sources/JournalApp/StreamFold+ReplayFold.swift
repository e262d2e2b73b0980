import Domain
import JournalCore
import Projections

/// The cli's fold is the one a replay against a record uses: the same reasons as `replay --all`
/// (a type outside the catalog gets the nearest name suggested).
extension StreamFold: ReplayFold {
    package static func start(stream: String) throws(ReplayRuleError) -> StreamFold {
        do {
            return try StreamFold(stream: stream)
        } catch {
            throw ReplayRuleError(reason: error.reason)
        }
    }

    package mutating func replay(type: String, data: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser)
        throws(ReplayRuleError)
    {
        do {
            try apply(type: type, dataBytes: data, occurredAt: occurredAt, parser: parser)
        } catch {
            throw ReplayRuleError(reason: error.reason)
        }
    }

    package var replaySummary: JSONObject { summary }
    package var replayEnded: Bool { state.isTerminal }

    package func writeReplayFields(into out: inout SummaryFieldsWriter) -> Bool {
        state.writeSummaryFields(into: &out)
        return true
    }

    package func writeReplayChanges(from before: StreamFold, into out: inout SummaryChangesWriter) -> Bool {
        state.writeSummaryFields(changedFrom: before.state, into: &out)
    }
}
