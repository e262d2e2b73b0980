import EventStore
import JournalCore

/// Hand-written legal event streams for end-to-end tests: 3DS transactions (challenged with an
/// OTP, frictionless) and card digitizations (green, yellow with OTP), as NDJSON envelope lines.
/// Deterministic: ids and times come from counters.
struct LegalEvents {
    private var nextEventNumber = 0
    private var clock: Int64 = 1_796_292_000_000 // 2026-12-03T10:40:00.000Z

    /// `00000000-0000-4000-8000-<12 hex digits of n>` (lowercase).
    static func uuid(_ n: Int, prefix: String = "00000000") -> String {
        let hex = String(n, radix: 16)
        return "\(prefix)-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// Event `n` of a stream the tests append through the library, which applies no domain rule
    /// (a broken stream): id `bad00000-…`, occurredAt 1,796,300,000,000 + `n` ms.
    static func unchecked(_ n: Int, _ type: String, _ data: String) -> ProposedEvent {
        ProposedEvent(
            id: uuid(n, prefix: "bad00000"), type: type,
            occurredAt: Timestamp(millisecondsSinceEpoch: 1_796_300_000_000 + Int64(n)), data: Array(data.utf8))
    }

    static func threeDSStream(_ n: Int) -> String { "3ds-" + uuid(n, prefix: "3d500000") }
    static func cardStream(_ n: Int) -> String { "card-" + uuid(n, prefix: "ca4d0000") }

    mutating func line(_ stream: String, _ type: String, _ data: String, meta: String? = nil) -> String {
        nextEventNumber += 1
        clock += 1500
        let id = Self.uuid(nextEventNumber, prefix: "e0000000")
        let metaPart = meta.map { #","meta":\#($0)"# } ?? ""
        return
            #"{"id":"\#(id)","stream":"\#(stream)","type":"\#(type)","#
            + #""occurredAt":"\#(Self.timestamp(clock))","data":\#(data)\#(metaPart)}"#
    }

    /// A challenged 3DS transaction with one OTP entry: 9 events.
    mutating func challenged(_ n: Int) -> [String] {
        let s = Self.threeDSStream(n)
        return [
            line(
                s, "TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#,
                meta: #"{"platform":"iOS","sdkVersion":"2.4.1"}"#),
            line(
                s, "AuthRequestParametersCreated",
                #"{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":2048}"#),
            line(
                s, "AuthResponseReceived",
                #"{"threeDSServerTransID":"\#(Self.uuid(n, prefix: "5e000000"))","#
                    + #""acsTransID":"acs-\#(n)","transStatus":"C"}"#
            ),
            line(s, "ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"ACS-REF-7"}"#),
            line(s, "ChallengeRequestSent", #"{"sdkCounterStoA":"000","action":"initial"}"#),
            line(
                s, "ChallengeResponseReceived",
                #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"01"}"#),
            line(s, "ChallengeRequestSent", #"{"sdkCounterStoA":"001","action":"submitText","entryLength":6}"#),
            line(
                s, "ChallengeResponseReceived",
                #"{"acsCounterAtoS":"001","challengeCompletionInd":"Y","transStatus":"Y"}"#),
            line(s, "ChallengeCompleted", #"{"transStatus":"Y"}"#)
        ]
    }

    /// A frictionless 3DS transaction: 4 events.
    mutating func frictionless(_ n: Int) -> [String] {
        let s = Self.threeDSStream(n)
        return [
            line(s, "TransactionCreated", #"{"directoryServerID":"A000000004","messageVersion":"2.3.1"}"#),
            line(
                s, "AuthRequestParametersCreated",
                #"{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":0}"#),
            line(
                s, "AuthResponseReceived",
                #"{"threeDSServerTransID":"\#(Self.uuid(n, prefix: "5e000000"))","#
                    + #""acsTransID":"acs-\#(n)","transStatus":"Y"}"#
            ),
            line(s, "TransactionClosed", "{}")
        ]
    }

    /// A yellow-flow digitization activated by OTP: 8 events.
    mutating func yellowOTP(_ n: Int) -> [String] {
        let s = Self.cardStream(n)
        return [
            line(s, "EligibilityChecked", #"{"inputMethod":"manual","outcome":"eligible"}"#),
            line(s, "TermsAccepted", #"{"tncDigest":"tnc-v3"}"#),
            line(s, "DigitizationRequested", #"{"language":"en"}"#),
            line(
                s, "DigitizationApprovedWithIDV",
                #"{"digitalCardID":"dc-\#(n)","methods":[{"id":"m1","type":"otpBySMS"},{"id":"m2","#
                    + #""type":"appToApp","withCryptogram":true}]}"#
            ),
            line(s, "IDVMethodSelected", #"{"idvID":"m1"}"#),
            line(s, "ActivationRequired", #"{"state":"otpNeeded"}"#),
            line(s, "OTPSubmitted", #"{"otpLength":6}"#),
            line(s, "ActivatedByIDV", "{}")
        ]
    }

    /// A green-flow digitization: 4 events.
    mutating func green(_ n: Int) -> [String] {
        let s = Self.cardStream(n)
        return [
            line(s, "EligibilityChecked", #"{"inputMethod":"bankApp","outcome":"eligible"}"#),
            line(s, "TermsAccepted", #"{"tncDigest":"tnc-v3"}"#),
            line(s, "DigitizationRequested", #"{"language":"fr"}"#),
            line(s, "DigitizationApproved", #"{"digitalCardID":"dc-\#(n)"}"#)
        ]
    }

    /// At least `count` legal events, mixing the four journeys, interleaving streams in groups.
    mutating func events(atLeast count: Int) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(count + 9)
        var n = 0
        while lines.count < count {
            n += 1
            switch n % 4 {
            case 0: lines += challenged(n)
            case 1: lines += frictionless(n)
            case 2: lines += yellowOTP(n)
            default: lines += green(n)
            }
        }
        return lines
    }

    static func timestamp(_ milliseconds: Int64) -> String {
        // Civil-from-days (Howard Hinnant), UTC.
        let millis = Int(milliseconds % 1000)
        let seconds = milliseconds / 1000
        let secondsOfDay = Int(seconds % 86_400)
        let z = Int(seconds / 86_400) + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3600, 2)):"
            + "\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2)).\(pad(millis, 3))Z"
    }
}
