import JournalCore

/// The fields of each event type an auditor wants to see in a history line: counters, UI type,
/// action, transStatus, method, reason, …
enum AuditKeyFields {
    static let byType: [String: [String]] = [
        "TransactionCreated": ["directoryServerID", "messageVersion", "customCertificate"],
        "AuthRequestParametersCreated": ["sdkReferenceNumber", "deviceDataBytes"],
        "AuthResponseReceived": ["transStatus", "transStatusReason", "acsTransID"],
        "TransactionClosed": [],
        "ChallengeStarted": ["timeoutSeconds", "acsReferenceNumber"],
        "ChallengeRequestSent": ["sdkCounterStoA", "action", "entryLength", "noEntry"],
        "ChallengeResponseReceived": ["acsCounterAtoS", "challengeCompletionInd", "acsUiType", "transStatus"],
        "ChallengeCompleted": ["transStatus"],
        "ChallengeCancelled": [],
        "ChallengeTimedOut": [],
        "ProtocolErrorOccurred": ["errorCode", "errorComponent", "errorDescription", "sentToACS"],
        "RuntimeErrorOccurred": ["errorCode", "errorMessage"],
        "EligibilityChecked": ["inputMethod", "outcome", "errorCode"],
        "TermsAccepted": ["tncDigest"],
        "DigitizationRequested": ["language"],
        "DigitizationApproved": ["digitalCardID"],
        "DigitizationDeclined": [],
        "DigitizationApprovedWithIDV": ["digitalCardID", "methods"],
        "IDVMethodSelected": ["idvID"],
        "ActivationRequired": ["state", "scheme", "source"],
        "OTPSubmitted": ["otpLength"],
        "OTPRejected": ["reason", "attemptsRemaining"],
        "AppToAppResumed": ["withTAV"],
        "CPSNotificationReceived": ["messageCode"],
        "ActivatedByIDV": [],
        "ActivationInterrupted": ["reason"],
        "ActivationResumed": [],
        "ActivationCancelled": [],
        "ActivationExpired": [],
        "ActivationFailed": ["reason"],
    ]

    /// The key fields of an event that are present, in the table's order (for an unknown type:
    /// its first three scalar fields).
    static func fields(type: String, data: JSONObject) -> JSONObject {
        var out = JSONObject()
        if let names = byType[type] {
            for name in names {
                guard let value = data[name], value != .null else { continue }
                out[name] = name == "methods" ? methodsSummary(value) : value
            }
        } else {
            for (key, value) in data {
                switch value {
                case .string, .number, .bool: out[key] = value
                case .null, .array, .object: continue
                }
                if out.count == 3 { break }
            }
        }
        return out
    }

    /// `methods` of a yellow decision as `id:type` pairs, e.g. `m1:otpBySMS m2:appToApp+cryptogram`.
    private static func methodsSummary(_ value: JSONValue) -> JSONValue {
        guard let methods = value.arrayValue else { return value }
        let parts = methods.map { method -> String in
            let object = method.objectValue
            let id = object?["id"]?.stringValue ?? "?"
            let type = object?["type"]?.stringValue ?? "?"
            let cryptogram = object?["withCryptogram"]?.boolValue == true ? "+cryptogram" : ""
            return "\(id):\(type)\(cryptogram)"
        }
        return .string(parts.joined(separator: " "))
    }

    /// `name=value name=value`, values shortened to 40 characters, for the text table.
    static func text(_ fields: JSONObject) -> String {
        fields.map { key, value in
            var shown = TextRendering.scalar(value)
            if shown.count > 40 { shown = String(shown.prefix(39)) + "…" }
            return "\(key)=\(shown)"
        }.joined(separator: " ")
    }
}
