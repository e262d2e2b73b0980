import JournalCore

/// The fields of an event an auditor reads first (counters, UI type, action, transStatus,
/// method, reason, …): the domain's choice per event type; for an event the catalog cannot
/// decode (an unknown type, a damaged payload), its first three scalar fields as stored.
package enum AuditKeyFields {
    package static func fields(type: String, data: JSONObject) -> JSONObject {
        if let decoded = DomainKeyFields.fields(type: type, data: data) {
            return JSONObject(decoded.map { (key: $0.name, value: JSONValue.string($0.value)) })
        }
        var out = JSONObject()
        for (key, value) in data {
            switch value {
            case .string, .number, .bool: out[key] = value
            case .null, .array, .object: continue
            }
            if out.count == 3 { break }
        }
        return out
    }

    /// `name=value name=value`, values shortened to 40 characters, for the text table.
    package static func text(_ fields: JSONObject) -> String {
        fields.map { key, value in
            var shown = TextRendering.scalar(value)
            if shown.count > 40 { shown = String(shown.prefix(39)) + "…" }
            return "\(key)=\(shown)"
        }.joined(separator: " ")
    }
}
