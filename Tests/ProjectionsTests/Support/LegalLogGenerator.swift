import EventStore
import JournalCore

/// SplitMix64: a small seeded generator, so every workload is reproducible from its seed.
struct TestRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}

/// A seeded generator of legal `3ds` and `card` journeys, interleaved in one log, with occurredAt
/// values that sometimes go backwards (device clocks) and journeys left open. Small and
/// self-contained: it only has to cover every path the projections count.
struct LegalLogGenerator {
    static let base: Int64 = 1_796_083_200_000 // 2026-12-01T00:00:00.000Z
    static let span: Int64 = 3 * 86_400_000

    var random: TestRandom

    init(seed: UInt64) { random = TestRandom(seed: seed) }

    /// `transactions` 3DS streams and `digitizations` card streams, interleaved.
    mutating func log(transactions: Int, digitizations: Int) -> [RecordedEvent] {
        var journeys: [[(String, String, Int64, String)]] = []
        for i in 0..<transactions { journeys.append(threeDS(i)) }
        for i in 0..<digitizations { journeys.append(card(i)) }
        // Interleave: repeatedly take the next event of a random unfinished journey.
        var cursors = [Int](repeating: 0, count: journeys.count)
        var open = Array(journeys.indices)
        var builder = LogBuilder()
        while !open.isEmpty {
            let slot = Int.random(in: 0..<open.count, using: &random)
            let j = open[slot]
            let (stream, type, ms, data) = journeys[j][cursors[j]]
            builder.add(stream, type, ms: ms, data)
            cursors[j] += 1
            if cursors[j] == journeys[j].count { open.remove(at: slot) }
        }
        return builder.events
    }

    private mutating func clock() -> Int64 { Self.base + Int64.random(in: 0..<Self.span, using: &random) }

    private mutating func step(_ t: inout Int64) -> Int64 {
        if random.chance(6) {
            t -= Int64.random(in: 1...600_000, using: &random) // a device clock behind the server's
        } else {
            t += Int64.random(in: 1...180_000, using: &random)
        }
        return t
    }

    private static let directoryServers = [
        "A000000003", "A000000004", "A000000025", "A000000324", "A000000042",
        "F055545342", "F155545342"
    ]

    mutating func threeDS(_ index: Int) -> [(String, String, Int64, String)] {
        let stream = "3ds-00000000-0000-4000-8000-\(String(index, radix: 16).leftPadded(12))"
        var t = clock()
        var out: [(String, String, Int64, String)] = []
        func emit(_ type: String, _ data: String = "{}", _ t: Int64) { out.append((stream, type, t, data)) }
        let ds = random.pick(Self.directoryServers)
        let mv = random.pick(["2.1.0", "2.2.0", "2.3.0", "2.3.1"])
        emit("TransactionCreated", #"{"directoryServerID":"\#(ds)","messageVersion":"\#(mv)"}"#, t)
        if random.chance(5) { return out }
        emit("AuthRequestParametersCreated", #"{"sdkReferenceNumber":"3DS_LOA_SDK_X","deviceDataBytes":900}"#, step(&t))
        if random.chance(5) {
            emit("TransactionClosed", "{}", step(&t))
            return out
        }
        let ares = random.pick(["Y", "N", "U", "A", "R", "I", "C", "C", "C", "D"])
        emit(
            "AuthResponseReceived",
            #"{"threeDSServerTransID":"8a880dc0-d2d2-4067-bcb1-b08d1690b26e","#
                + #""acsTransID":"x","transStatus":"\#(ares)"}"#,
            step(&t))
        guard ares == "C" || ares == "D" else {
            if !random.chance(10) { emit("TransactionClosed", "{}", step(&t)) }
            return out
        }
        if random.chance(5) {
            emit("TransactionClosed", "{}", step(&t))
            return out
        }
        emit("ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"ACS1"}"#, step(&t))
        var counter = 0
        var ui: String? = nil
        while true {
            // The next request: initial first, then an action that fits the screen (or cancel).
            let action: String
            if let screen = ui {
                if random.chance(8) {
                    action = "cancel"
                } else {
                    switch screen {
                    case "01": action = random.chance(25) ? "resend" : "submitText"
                    case "02", "03": action = "submitSelection"
                    case "04": action = "oobContinue"
                    case "05": action = "htmlForm"
                    case "06": action = random.pick(["oobContinue", "htmlForm"])
                    default: action = "continue"
                    }
                }
            } else {
                action = "initial"
            }
            // Ending before (or instead of) the request.
            if random.chance(6) {
                emit("ChallengeTimedOut", "{}", step(&t))
                return out
            }
            if random.chance(2) { return out } // still open
            emit(
                "ChallengeRequestSent",
                #"{"sdkCounterStoA":"\#(String(counter).leftPadded(3))","action":"\#(action)"}"#, step(&t))
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 4 {
                emit(
                    "ProtocolErrorOccurred",
                    #"{"errorCode":"\#(random.pick(["101", "201", "203", "302", "102", "207"]))","errorComponent":""#
                        + #"\#(random.pick(["C", "S", "A"]))","errorDescription":"d","sentToACS":true}"#,
                    step(&t))
                return out
            }
            if roll < 7 {
                emit(
                    "RuntimeErrorOccurred",
                    #"{"errorCode":"\#(random.pick(["402", "1002", "STDSRuntimeErrorCodeParsingError"]))","#
                        + #""errorMessage":"m"}"#,
                    step(&t))
                return out
            }
            if roll < 10 {
                emit("ChallengeTimedOut", "{}", step(&t))
                return out
            }
            let counterText = String(counter).leftPadded(3)
            let final = action == "cancel" || counter >= 4 || (counter > 0 && random.chance(40))
            if final {
                let status = random.chance(75) ? "Y" : "N"
                emit(
                    "ChallengeResponseReceived",
                    #"{"acsCounterAtoS":"\#(counterText)","challengeCompletionInd":"Y","transStatus":"\#(status)"}"#,
                    step(&t))
                if random.chance(3) { return out }
                if action == "cancel" {
                    emit("ChallengeCancelled", "{}", step(&t))
                } else {
                    emit("ChallengeCompleted", #"{"transStatus":"\#(status)"}"#, step(&t))
                }
                return out
            }
            let screen = random.pick(["01", "01", "01", "02", "03", "04", "05", "06", "07"])
            emit(
                "ChallengeResponseReceived",
                #"{"acsCounterAtoS":"\#(counterText)","challengeCompletionInd":"N","acsUiType":"\#(screen)"}"#, step(&t)
            )
            ui = screen
            counter += 1
        }
    }

    mutating func card(_ index: Int) -> [(String, String, Int64, String)] {
        let stream = "card-00000000-0000-4000-9000-\(String(index, radix: 16).leftPadded(12))"
        var t = clock()
        var out: [(String, String, Int64, String)] = []
        func emit(_ type: String, _ data: String = "{}", _ t: Int64) { out.append((stream, type, t, data)) }
        if random.chance(8) {
            emit("EligibilityChecked", #"{"inputMethod":"manual","outcome":"notEligible"}"#, t)
            return out
        }
        emit("EligibilityChecked", #"{"inputMethod":"bankApp","outcome":"eligible"}"#, t)
        if random.chance(3) { return out }
        emit("TermsAccepted", #"{"tncDigest":"abc"}"#, step(&t))
        emit("DigitizationRequested", #"{"language":"en"}"#, step(&t))
        let flow = Int.random(in: 0..<100, using: &random)
        if flow < 15 {
            emit("DigitizationApproved", #"{"digitalCardID":"D1"}"#, step(&t))
            return out
        }
        if flow < 22 {
            emit("DigitizationDeclined", "{}", step(&t))
            return out
        }
        // Yellow: offer 1–4 methods.
        let all: [(String, String, Bool?)] = [
            ("m1", "otpBySMS", nil), ("m2", "otpByEmail", nil),
            ("m3", "customerService", nil), ("m4", "webService", nil),
            ("m5", "appToApp", true), ("m6", "appToApp", false)
        ]
        var offered: [(String, String, Bool?)] = []
        for method in all where random.chance(45) { offered.append(method) }
        if offered.isEmpty { offered.append(all[0]) }
        let methodsJSON = offered.map { id, type, crypto in
            crypto.map { #"{"id":"\#(id)","type":"\#(type)","withCryptogram":\#($0)}"# }
                ?? #"{"id":"\#(id)","type":"\#(type)"}"#
        }.joined(separator: ",")
        emit("DigitizationApprovedWithIDV", #"{"digitalCardID":"D2","methods":[\#(methodsJSON)]}"#, step(&t))
        var resumed = false
        for _ in 0..<4 {
            // Awaiting selection.
            if random.chance(5) {
                emit("ActivationCancelled", "{}", step(&t))
                return out
            }
            if random.chance(4) {
                emit("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenProvisioned"}"#, step(&t))
                return out
            }
            let choices = offered.filter { !(resumed && $0.1 == "appToApp" && $0.2 == false) }
            guard !choices.isEmpty else {
                emit("ActivationExpired", "{}", step(&t))
                return out
            }
            let (id, type, crypto) = random.pick(choices)
            emit("IDVMethodSelected", #"{"idvID":"\#(id)"}"#, step(&t))
            if random.chance(5) {
                emit("ActivationInterrupted", #"{"reason":"appBackgrounded"}"#, step(&t))
                if random.chance(30) {
                    emit("ActivationExpired", "{}", step(&t))
                    return out
                }
                emit("ActivationResumed", "{}", step(&t))
                resumed = true
                continue
            }
            switch type {
            case "otpBySMS", "otpByEmail":
                emit("ActivationRequired", #"{"state":"otpNeeded"}"#, step(&t))
                var backToSelection = false
                for attempt in 0..<3 {
                    if random.chance(4) { return out } // abandoned, still open
                    emit("OTPSubmitted", #"{"otpLength":6}"#, step(&t))
                    let verdict = Int.random(in: 0..<100, using: &random)
                    if verdict < 50 {
                        emit("ActivatedByIDV", "{}", step(&t))
                        return out
                    }
                    if verdict < 65 {
                        emit("OTPRejected", #"{"reason":"expired"}"#, step(&t))
                        backToSelection = true
                        break
                    }
                    let left = 2 - attempt
                    emit("OTPRejected", #"{"reason":"incorrect","attemptsRemaining":\#(left)}"#, step(&t))
                    if left == 0 {
                        backToSelection = true
                        break
                    }
                }
                if !backToSelection { return out }
                if random.chance(25) {
                    emit("ActivationFailed", #"{"reason":"otpAttemptsExhausted"}"#, step(&t))
                    return out
                }
            case "appToApp":
                emit("ActivationRequired", #"{"state":"appToAppSelected"}"#, step(&t))
                emit("AppToAppResumed", #"{"withTAV":\#(crypto == true)}"#, step(&t))
                if crypto == true {
                    if random.chance(80) {
                        emit("ActivatedByIDV", "{}", step(&t))
                    } else {
                        emit("ActivationFailed", #"{"reason":"idvFailed"}"#, step(&t))
                    }
                    return out
                }
                fallthrough
            default:
                // Waits for the issuer.
                if random.chance(15) { emit("CPSNotificationReceived", #"{"messageCode":"CBP.info.other"}"#, step(&t)) }
                let end = Int.random(in: 0..<100, using: &random)
                if end < 60 {
                    emit("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenProvisioned"}"#, step(&t))
                } else if end < 75 {
                    emit("ActivationExpired", "{}", step(&t))
                } else if end < 85 {
                    emit("ActivationFailed", #"{"reason":"deviceUnsafe"}"#, step(&t))
                }
                return out
            }
        }
        emit("ActivationExpired", "{}", step(&t))
        return out
    }
}
