import JournalCore
import Projections

extension FindResult {
    /// `{"streams": [{"stream", "startedAt", "outcome", "events"}, …], "truncated": B}` (also
    /// `GET /v1/find`).
    package var json: JSONValue {
        var object = JSONObject()
        object["streams"] = .array(
            streams.map { found in
                var entry = JSONObject()
                entry["stream"] = .string(found.stream)
                entry["startedAt"] = .string(found.startedAt.description)
                entry["outcome"] = .string(found.outcome)
                entry["events"] = .number(JSONNumber(found.events))
                return .object(entry)
            })
        object["truncated"] = .bool(truncated)
        return .object(object)
    }
}
