import Domain
import JournalCore

/// One stream's aggregate as the cli folds it: the domain's `JourneyState` (catalog decoding and
/// every state rule of spec §3). The only cli file, with the sensitive-data check below, that
/// names Domain types.
package struct StreamFold: Sendable {
    private(set) var state: JourneyState

    /// The empty aggregate of `stream`'s category.
    /// - Throws: `RuleViolation` when the name has no known category.
    init(stream: String) throws(RuleViolation) {
        do {
            state = try JourneyState.initial(for: stream)
        } catch {
            throw RuleViolation(reason: "stream: \(error)", rule: Rejection.Rule.streamName.rawValue)
        }
    }

    /// Applies one event: catalog decoding and the stream's state rules.
    /// - Throws: `RuleViolation` with a reason naming the field or the rule, and the domain's
    ///   rule identifier; a type outside the catalog gets the nearest catalog type suggested.
    mutating func apply(type: String, data: JSONObject, occurredAt: Timestamp) throws(RuleViolation) {
        do {
            try state.apply(type: type, data: data, occurredAt: occurredAt)
        } catch {
            throw Self.violation(error, type: type)
        }
    }

    /// Applies one stored event from its `data` bytes: read in place when every member is a
    /// plain scalar (``JSONFlatObject``), else parsed; the outcome is the same either way.
    /// - Throws: `RuleViolation` as `apply(type:data:occurredAt:)` does, and "the stored data is
    ///   not a JSON object" when the bytes are not one.
    mutating func apply(type: String, dataBytes: UnsafeRawBufferPointer, occurredAt: Timestamp, parser: JSONParser)
        throws(RuleViolation)
    {
        do {
            let folded: Void? = try JSONFlatObject.withMembers(of: dataBytes) { flat throws(DomainRejection) in
                try state.apply(type: type, flatData: flat, occurredAt: occurredAt)
            }
            if folded != nil { return }
        } catch {
            throw Self.violation(error, type: type)
        }
        guard let data = try? parser.parse(dataBytes).objectValue else {
            throw RuleViolation(reason: "the stored data is not a JSON object")
        }
        try apply(type: type, data: data, occurredAt: occurredAt)
    }

    private static func violation(_ error: DomainRejection, type: String) -> RuleViolation {
        var reason = error.reason
        if case let .invalidData(decoding) = error, decoding.kind == .unknownType,
            DomainEvent.category(ofType: type) == nil
        {
            reason += NameSuggestion.hint(for: type, among: catalogTypeNames)
        }
        return RuleViolation(reason: reason, rule: error.rule.rawValue)
    }

    /// Every event type of the domain's catalog, both categories.
    static let catalogTypeNames = EventType.names

    /// The aggregate as a JSON object, for `state` and `replay`.
    var summary: JSONObject { state.summary() }

    /// A few words for a replay step: the status, and the step within it when there is one.
    package var stepDescription: String {
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
package struct RuleViolation: Error, Sendable, CustomStringConvertible {
    var reason: String
    /// The broken rule's identifier (`3ds.request-counter`, `catalog`), for grouping errors.
    var rule = "stored-stream"
    package var description: String { reason }
}

/// Spec §3.3: what the journal never stores.
package enum SensitiveData {
    /// The reason an event must be rejected (naming the field, never the value), or nil.
    static func problem(data: JSONObject, meta: JSONObject?) -> String? {
        SensitiveDataGuard.check(data: data, meta: meta)?.description
    }

    /// Whether a flat object's members pass the guard: no forbidden key, no integer or string
    /// that looks like a card number (what `problem(data:meta:)` finds in the same members).
    static func passes(_ flat: JSONFlatObject) -> Bool {
        // Read in place: a member becomes text only when its string holds enough digits to
        // hold a card number.
        for index in 0..<flat.count {
            if SensitiveDataGuard.isForbiddenKey(ascii: flat.keyBytes(at: index)) { return false }
            if let text = flat.integerBytes(at: index), SensitiveDataGuard.isCardNumberInteger(text) { return false }
            if let text = flat.stringBytes(at: index), SensitiveDataGuard.containsCardNumber(text) { return false }
        }
        return true
    }

    /// The rule identifier of a sensitive-data rejection.
    static let rule = "sensitive-data"

    /// `line` as the rejects file shows it (spec §4): a JSON line with each flagged value
    /// and each value under a forbidden key replaced by "[redacted]" (the line unchanged when
    /// nothing is), any other text with every run of 13 to 19 digits replaced by [redacted]
    /// and the value after a forbidden key (`"otp": "123456"`) by "[redacted]".
    package static func maskedLine(_ bytes: [UInt8], isJSON parsed: JSONValue?) -> String {
        guard let parsed else { return SensitiveDataGuard.maskedNonJSONLine(String(decoding: bytes, as: UTF8.self)) }
        let masked = SensitiveDataGuard.masked(parsed)
        guard masked.changed else { return String(decoding: bytes, as: UTF8.self) }
        return JSONWriter.string(masked.value)
    }

    /// A message that may quote input (a stream name, a type, a key) with every run of 13 to 19
    /// digits masked, so no card number reaches stderr or a report.
    package static func maskedText(_ text: String) -> String { SensitiveDataGuard.maskedText(text) }
}

/// The domain's key fields of an event, for `audit`.
package enum DomainKeyFields {
    /// nil when the catalog cannot decode the event.
    static func fields(type: String, data: JSONObject) -> [(name: String, value: String)]? {
        (try? DomainEvent.decode(type: type, data: data))?.keyFields
    }
}
