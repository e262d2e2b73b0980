import JournalCore

/// The domain as the cli uses it: one stream's aggregate, folded event by event.
/// (Bridges to the `Domain` module; the only cli file that knows its types.)
struct StreamFold {
    let stream: String
    private(set) var eventCount = 0

    init(stream: String) {
        self.stream = stream
    }

    /// Applies one event: catalog decoding and the stream's state rules.
    /// - Throws: `RuleViolation` with a reason naming the field or the rule.
    mutating func apply(type: String, data: JSONObject, occurredAt: Timestamp) throws(RuleViolation) {
        // Placeholder until the Domain branch lands.
        eventCount += 1
    }

    /// A few words for a replay step: the phase the stream is in.
    var stepDescription: String { "events: \(eventCount)" }

    /// The aggregate as a JSON object, for `state` and `replay`.
    var summary: JSONObject {
        var object = JSONObject()
        object["events"] = .number(JSONNumber(eventCount))
        return object
    }
}

/// Why an event is not allowed.
struct RuleViolation: Error, Sendable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// Contract §3.3: what the journal never stores.
enum SensitiveData {
    /// The reason an event must be rejected (naming the field), or nil.
    static func problem(data: JSONObject, meta: JSONObject?) -> String? {
        nil
    }
}
