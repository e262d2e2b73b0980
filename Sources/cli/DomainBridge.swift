import Domain
import JournalCore

/// One stream's aggregate as the cli folds it: the domain's `JourneyState` (catalog decoding and
/// every state rule of contract §3). The only cli file, with the sensitive-data check below, that
/// names Domain types.
struct StreamFold {
    private(set) var state: JourneyState

    /// The empty aggregate of `stream`'s category.
    /// - Throws: `RuleViolation` when the name has no known category.
    init(stream: String) throws(RuleViolation) {
        do {
            state = try JourneyState.initial(for: stream)
        } catch {
            throw RuleViolation(reason: "stream: \(error)")
        }
    }

    /// Applies one event: catalog decoding and the stream's state rules.
    /// - Throws: `RuleViolation` with a reason naming the field or the rule.
    mutating func apply(type: String, data: JSONObject, occurredAt: Timestamp) throws(RuleViolation) {
        do {
            try state.apply(type: type, data: data, occurredAt: occurredAt)
        } catch {
            throw RuleViolation(reason: error.reason)
        }
    }

    /// The aggregate as a JSON object, for `state` and `replay`.
    var summary: JSONObject { state.summary() }

    /// A few words for a replay step: the status, and the step within it when there is one.
    var stepDescription: String {
        let summary = self.summary
        let status = summary["status"]?.stringValue ?? "?"
        if let step = summary["step"]?.stringValue { return "\(status) (\(step))" }
        if summary["terminal"]?.boolValue == true, let outcome = summary["outcome"]?.stringValue {
            return "\(status): \(outcome)"
        }
        return status
    }
}

/// Why an event is not allowed.
struct RuleViolation: Error, Sendable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// Contract §3.3: what the journal never stores.
enum SensitiveData {
    /// The reason an event must be rejected (naming the field, never the value), or nil.
    static func problem(data: JSONObject, meta: JSONObject?) -> String? {
        SensitiveDataGuard.check(data: data, meta: meta)?.description
    }
}

/// The domain's key fields of an event, for `audit`.
enum DomainKeyFields {
    /// nil when the catalog cannot decode the event.
    static func fields(type: String, data: JSONObject) -> [(name: String, value: String)]? {
        (try? DomainEvent.decode(type: type, data: data))?.keyFields
    }
}
