import Domain
import JournalCore
import Testing

/// Parses a JSON object literal used in a test (traps on a typo in the test itself).
func object(_ json: String) -> JSONObject {
    guard case let .object(object)? = try? JSONParser().parse(json) else {
        fatalError("test JSON is not an object: \(json)")
    }
    return object
}

func value(_ json: String) -> JSONValue {
    guard let value = try? JSONParser().parse(json) else { fatalError("test JSON is invalid: \(json)") }
    return value
}

let threeDSStream = "3ds-0b9e5a4c-7f1e-4c7a-9d8e-2f4b6a1c3d5e"
let cardStream = "card-5F0C2E1A-3B4D-4E6F-8A9B-0C1D2E3F4A5B"
let t0 = Timestamp("2026-11-29T10:00:00.000Z")!

/// One event of a test script: type, data JSON, and seconds after `t0`.
struct Step {
    var type: String
    var data: String
    var at: Int64?

    init(_ type: String, _ data: String = "{}", at: Int64? = nil) {
        self.type = type
        self.data = data
        self.at = at
    }
}

/// Folds `steps` into the stream; each step without `at` happens one second after the previous.
func fold(_ stream: String, _ steps: [Step]) throws -> JourneyState {
    var state = try JourneyState.initial(for: stream)
    var seconds: Int64 = 0
    for step in steps {
        seconds = step.at ?? seconds + 1
        try state.apply(type: step.type, data: object(step.data), occurredAt: t0.adding(milliseconds: seconds * 1000))
    }
    return state
}

/// Folds `prefix` (which must be legal) then returns the rejection of `last`, nil when accepted.
func rejection(_ stream: String, _ prefix: [Step], then last: Step) -> DomainRejection? {
    var state: JourneyState
    do { state = try fold(stream, prefix) } catch {
        Issue.record("the legal prefix was rejected: \(error)")
        return nil
    }
    var seconds = Int64(prefix.count)
    for step in prefix { if let at = step.at { seconds = max(seconds, at) } }
    seconds = last.at ?? seconds + 1
    do {
        try state.apply(type: last.type, data: object(last.data), occurredAt: t0.adding(milliseconds: seconds * 1000))
        return nil
    } catch {
        return error
    }
}

// MARK: - 3DS script pieces

enum TDS {
    static let created = Step("TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#)
    static let params = Step(
        "AuthRequestParametersCreated", #"{"sdkReferenceNumber":"3DS_LOA_SDK_TEST_020200_00001","deviceDataBytes":512}"#
    )
    static func ares(_ status: String) -> Step {
        Step(
            "AuthResponseReceived",
            #"{"threeDSServerTransID":"8a880dc0-d2d2-4067-bcb1-b08d1690b26e","#
                + #""acsTransID":"d7c1ee99-9478-44a6-b1f2-391e29c6b340","transStatus":"\#(status)"}"#
        )
    }
    static let started = Step("ChallengeStarted", #"{"timeoutSeconds":300,"acsReferenceNumber":"3DS_LOA_ACS_TEST_1"}"#)
    static func request(_ counter: String, _ action: String) -> Step {
        Step("ChallengeRequestSent", #"{"sdkCounterStoA":"\#(counter)","action":"\#(action)"}"#)
    }
    static func screen(_ counter: String, _ ui: String) -> Step {
        Step(
            "ChallengeResponseReceived",
            #"{"acsCounterAtoS":"\#(counter)","challengeCompletionInd":"N","acsUiType":"\#(ui)"}"#)
    }
    static func final(_ counter: String, _ status: String) -> Step {
        Step(
            "ChallengeResponseReceived",
            #"{"acsCounterAtoS":"\#(counter)","challengeCompletionInd":"Y","transStatus":"\#(status)"}"#)
    }
    static func completed(_ status: String) -> Step { Step("ChallengeCompleted", #"{"transStatus":"\#(status)"}"#) }

    /// Up to a running challenge with no request yet.
    static let challengePrefix = [created, params, ares("C"), started]
    /// A challenge showing a text screen after request 000.
    static let textScreen = challengePrefix + [request("000", "initial"), screen("000", "01")]
}

// MARK: - Card script pieces

enum Card {
    static let eligible = Step("EligibilityChecked", #"{"inputMethod":"manual","outcome":"eligible"}"#)
    static let terms = Step("TermsAccepted", #"{"tncDigest":"9f86d081884c7d659a2feaa0c55ad015"}"#)
    static let requested = Step("DigitizationRequested", #"{"language":"en","pushTokenRef":"ptr-1"}"#)
    static let yellow = Step(
        "DigitizationApprovedWithIDV",
        #"""
        {"digitalCardID":"DC-1","methods":[{"id":"sms","type":"otpBySMS"},{"id":"mail","type":"otpByEmail"},
        {"id":"a2a","type":"appToApp","withCryptogram":true},{"id":"a2a-plain",\#
        "type":"appToApp","withCryptogram":false},
        {"id":"call","type":"customerService"},{"id":"web","type":"webService"}]}
        """#)
    static func select(_ id: String) -> Step { Step("IDVMethodSelected", #"{"idvID":"\#(id)"}"#) }
    static func required(_ state: String) -> Step { Step("ActivationRequired", #"{"state":"\#(state)"}"#) }
    static let otp = Step("OTPSubmitted", #"{"otpLength":6}"#)
    static let provisioned = Step("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenProvisioned"}"#)

    static let yellowPrefix = [eligible, terms, requested, yellow]
    static let otpNeeded = yellowPrefix + [select("sms"), required("otpNeeded")]
}
