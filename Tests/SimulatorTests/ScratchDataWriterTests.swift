import Domain
import JournalCore
import Testing

@testable import Simulator

/// Event data written straight from the payload's fields (``ScratchDataWriter``) are the bytes
/// `JSONWriter` writes for the event's `data` object, for built and decoded events alike.
@Suite("Scratch data writer")
struct ScratchDataWriterTests {
    static func written<Event: PackableEvent>(_ event: Event) -> [UInt8] {
        let scratch = ByteScratch(capacity: 16)
        var writer = ScratchDataWriter(into: scratch)
        event.writeData(to: &writer)
        writer.finish()
        return scratch.takeAll()
    }

    static func expected(_ data: JSONObject) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.write(.object(data), into: &bytes)
        return bytes
    }

    /// Built events with values to escape, extreme integers, arrays and objects.
    static let builtThreeDS: [ThreeDSEvent] = [
        .transactionCreated(
            .init(
                directoryServerID: "q\"uote\\d", messageVersion: .v2_3_1, customCertificate: true,
                warnings: ["SW01", "", "tab\there", "é 漢字 🙂"])),
        .transactionCreated(.init(directoryServerID: "A000000004", messageVersion: .v2_1_0, warnings: [])),
        .authRequestParametersCreated(
            .init(
                sdkReferenceNumber: "ref", deviceDataBytes: Int64.min, sdkAppIDRef: "ctl\u{01}\u{1F}",
                ephemeralKeyThumbprint: String(repeating: "x", count: 300))),
        .authRequestParametersCreated(.init(sdkReferenceNumber: "ref", deviceDataBytes: Int64.max)),
        .authRequestParametersCreated(.init(sdkReferenceNumber: "ref", deviceDataBytes: 0)),
        .authRequestParametersCreated(.init(sdkReferenceNumber: "ref", deviceDataBytes: -7)),
        .authResponseReceived(
            .init(
                threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "a",
                transStatus: .C, transStatusReason: "01")),
        .transactionClosed(NoFields()),
        .challengeStarted(.init(timeoutSeconds: 600, acsReferenceNumber: "r")),
        .challengeRequestSent(
            .init(sdkCounterStoA: ChallengeCounter(7)!, action: .submitText, entryLength: 6, noEntry: false)),
        .challengeResponseReceived(.init(acsCounterAtoS: ChallengeCounter(999)!, result: .screen(.oob))),
        .challengeResponseReceived(.init(acsCounterAtoS: .first, result: .final(.Y))),
        .challengeCompleted(.init(transStatus: .N)),
        .challengeCancelled(NoFields()),
        .challengeTimedOut(
            NoFields(
                data: JSONObject([
                    ("weird\"key", .array([.number(JSONNumber(uncheckedText: "1.50")), .null])),
                    ("n", .object(JSONObject([("b", .bool(false))])))
                ]))),
        .protocolErrorOccurred(
            .init(
                errorCode: "203", errorComponent: .A, errorDescription: "d", errorDetail: "x",
                errorMessageType: "Erro", sentToACS: false)),
        .runtimeErrorOccurred(.init(errorCode: "1", errorMessage: "line\nbreak"))
    ]

    static let builtCard: [CardEvent] = [
        .eligibilityChecked(.init(inputMethod: .bankApp, outcome: .notEligible, errorCode: "e")),
        .termsAccepted(.init(tncDigest: "abc")),
        .digitizationRequested(.init(language: "fr", pushTokenRef: nil)),
        .digitizationApproved(.init(digitalCardID: "DC")),
        .digitizationDeclined(NoFields()),
        .digitizationApprovedWithIDV(
            .init(
                digitalCardID: "DC",
                methods: [
                    IDVMethod(id: "1", type: .otpBySMS),
                    IDVMethod(id: "2", type: .appToApp, withCryptogram: true)
                ])),
        .idvMethodSelected(.init(idvID: "1")),
        .activationRequired(
            .init(state: .appToAppSelected, scheme: "MASTERCARD", source: "com.bank", requestPayloadBytes: 1024)),
        .otpSubmitted(.init(otpLength: 6)),
        .otpRejected(.init(reason: .incorrect, attemptsRemaining: 0)),
        .appToAppResumed(.init(withTAV: true)),
        .cpsNotificationReceived(.init(messageCode: "CBP.info.tokenSuspended")),
        .activatedByIDV(NoFields()),
        .activationInterrupted(.init(reason: "appTerminated")),
        .activationResumed(NoFields()),
        .activationCancelled(NoFields()),
        .activationExpired(NoFields()),
        .activationFailed(.init(reason: .other))
    ]

    @Test func builtEventsWriteTheBytesOfTheirData() {
        for event in Self.builtThreeDS {
            #expect(Self.written(event) == Self.expected(event.data), "\(event.typeName)")
        }
        for event in Self.builtCard { #expect(Self.written(event) == Self.expected(event.data), "\(event.typeName)") }
    }

    @Test func decodedEventsWriteTheDataAsReceivedAndEqualTheBuiltOnes() throws {
        // Unknown fields, nulls and number spellings are kept: the received data, not the canonical one.
        let received: [(String, String)] = [
            (
                "TransactionCreated",
                #"{"zeta":1,"directoryServerID":"A000000004","messageVersion":"2.3.1","#
                    + #""warnings":["SW01"],"alpha":[1.50,2e3]}"#
            ),
            ("AuthRequestParametersCreated", #"{"sdkReferenceNumber":"ref","deviceDataBytes":0,"sdkAppIDRef":null}"#),
            (
                "ChallengeResponseReceived",
                #"{"acsCounterAtoS":"001","challengeCompletionInd":"N","acsUiType":"06","transStatus":"whatever"}"#
            )
        ]
        for (type, json) in received {
            let data = try #require(try JSONParser().parse(Array(json.utf8)).objectValue)
            let event = try ThreeDSEvent.decode(type: type, data: data)
            #expect(Self.written(event) == Array(json.utf8))
        }
        // (Those within the catalog's rules: negative device data bytes are refused.)
        for event in Self.builtThreeDS where (try? event.checkFields()) != nil {
            let decoded = try ThreeDSEvent.decode(type: event.typeName, data: event.data)
            #expect(decoded == event)
            #expect(Self.written(decoded) == Self.written(event))
        }
        for event in Self.builtCard where (try? event.checkFields()) != nil {
            let decoded = try CardEvent.decode(type: event.typeName, data: event.data)
            #expect(decoded == event)
            #expect(Self.written(decoded) == Self.written(event))
        }
        // Events with equal fields but different data are not equal.
        let extra = try #require(try JSONParser().parse(Array(#"{"transStatus":"N","note":1}"#.utf8)).objectValue)
        #expect(
            try ThreeDSEvent.decode(type: "ChallengeCompleted", data: extra)
                != .challengeCompleted(.init(transStatus: .N)))
    }

    @Test func decimalsAreWrittenAsStringDoes() {
        for value: Int64 in [0, 1, -1, 9, 10, -10, 99, 100, 1_795_939_200_000, Int64.max, Int64.min, Int64.min + 1] {
            let scratch = ByteScratch(capacity: 16)
            scratch.appendDecimal(value)
            #expect(scratch.takeAll() == Array(String(value).utf8))
        }
    }
}
