import EventStore
import JournalCore

extension StreamReplay {
    /// One step of `journal replay STREAM --format json`: the event and the state after it.
    package static func stepJSON(_ event: RecordedEvent, _ fold: StreamFold) -> JSONValue {
        var step = JSONObject()
        step["version"] = .number(JSONNumber(event.version))
        step["position"] = .number(JSONNumber(event.position))
        step["occurredAt"] = .string(event.occurredAt.description)
        step["type"] = .string(event.type)
        step["state"] = .object(fold.summary)
        return .object(step)
    }

    /// The object `journal replay STREAM --format json` prints: the steps, the failure if the
    /// stream no longer folds, and the final state (or the state before the failure).
    package static func json(_ stream: StreamName, _ outcome: Outcome, steps: [JSONValue]) -> JSONValue {
        var object = JSONObject()
        object["stream"] = .string(stream.rawValue)
        object["ok"] = .bool(outcome.failure == nil)
        object["events"] = .number(JSONNumber(outcome.events))
        object["steps"] = .array(steps)
        if let failure = outcome.failure {
            object["failedAtVersion"] = .number(JSONNumber(failure.version))
            object["failedAtPosition"] = .number(JSONNumber(failure.position))
            object["reason"] = .string(failure.reason)
        }
        object["state"] = .object(outcome.summary)
        return .object(object)
    }

    /// Folds `stream` from the journal and gives the object `journal replay STREAM --format json`
    /// prints (`GET /v1/replay/{stream}`) and the failure, if the stream no longer folds.
    package static func json(_ stream: StreamName, in store: any EventStore) throws -> (
        json: JSONValue, failure: Failure?
    ) {
        var steps: [JSONValue] = []
        let outcome = try fold(stream, in: store) { event, fold in steps.append(stepJSON(event, fold)) }
        return (json(stream, outcome, steps: steps), outcome.failure)
    }
}
