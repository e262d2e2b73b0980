import JournalCore
import Projections

/// Runs a query over a hand-built log and returns its compact JSON, for exact comparisons.
func answer(
    _ backend: DatabaseBackend, _ log: LogBuilder, since: String? = nil, until: String? = nil,
    _ query: (ProjectionEngine, QueryWindow) throws -> any QueryReport
) throws -> String {
    let db = try TemporaryDatabase(backend)
    defer { db.remove() }
    let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log.events))
    defer { engine.close() }
    let window = QueryWindow(
        since: since.flatMap { Timestamp(queryBound: $0) },
        until: until.flatMap { Timestamp(queryBound: $0) })
    return JSONWriter.string(try query(engine, window).json)
}

/// Hand-built journeys for the known-answer tests.
extension LogBuilder {
    static let ds = #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#

    /// A 3DS transaction up to a running challenge, at minute `m` of 2026-11-29T10.
    mutating func challenge(_ stream: String, ds: String = "A000000003", at m: Int) {
        add(stream, "TransactionCreated", at: t(m, 0), #"{"directoryServerID":"\#(ds)","messageVersion":"2.2.0"}"#)
        add(stream, "AuthRequestParametersCreated", at: t(m, 1), #"{"sdkReferenceNumber":"R","deviceDataBytes":1}"#)
        add(
            stream, "AuthResponseReceived", at: t(m, 2),
            #"{"threeDSServerTransID":"8a880dc0-d2d2-4067-bcb1-b08d1690b26e","acsTransID":"a","transStatus":"C"}"#)
        add(stream, "ChallengeStarted", at: t(m, 3), #"{"timeoutSeconds":300,"acsReferenceNumber":"X"}"#)
    }

    mutating func request(_ stream: String, _ counter: String, _ action: String, at: String) {
        add(stream, "ChallengeRequestSent", at: at, #"{"sdkCounterStoA":"\#(counter)","action":"\#(action)"}"#)
    }

    mutating func screen(_ stream: String, _ counter: String, ui: String, at: String) {
        add(
            stream, "ChallengeResponseReceived", at: at,
            #"{"acsCounterAtoS":"\#(counter)","challengeCompletionInd":"N","acsUiType":"\#(ui)"}"#)
    }

    mutating func final(_ stream: String, _ counter: String, _ status: String, at: String) {
        add(
            stream, "ChallengeResponseReceived", at: at,
            #"{"acsCounterAtoS":"\#(counter)","challengeCompletionInd":"Y","transStatus":"\#(status)"}"#)
    }

    /// A card journey up to the yellow decision offering SMS (m1), email (m2) and web (m3).
    mutating func yellow(_ stream: String, at m: Int) {
        add(stream, "EligibilityChecked", at: t(m, 0), #"{"inputMethod":"manual","outcome":"eligible"}"#)
        add(stream, "DigitizationRequested", at: t(m, 1), #"{"language":"en"}"#)
        add(
            stream, "DigitizationApprovedWithIDV", at: t(m, 2),
            #"{"digitalCardID":"D","methods":[{"id":"m1","type":"otpBySMS"},{"id":"m2","type":"otpByEmail"},"#
                + #"{"id":"m3","type":"webService"}]}"#
        )
    }

    mutating func select(_ stream: String, _ id: String, at: String) {
        add(stream, "IDVMethodSelected", at: at, #"{"idvID":"\#(id)"}"#)
        if id != "m3" { add(stream, "ActivationRequired", at: at, #"{"state":"otpNeeded"}"#) }
    }

    /// `2026-11-29T10:MM:SS.000Z`.
    func t(_ minute: Int, _ second: Int) -> String {
        "2026-11-29T10:\(String(minute).leftPadded(2)):\(String(second).leftPadded(2)).000Z"
    }
}
