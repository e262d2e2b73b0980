import Domain
import JournalCore
import Testing

@Suite("Event catalog")
struct EventCatalogTests {
    /// One valid `data` object per event type, with unknown extra fields and odd number spellings.
    static let validEvents: [(String, String)] = [
        (
            "TransactionCreated",
            #"{"zeta":1,"directoryServerID":"A000000004","messageVersion":"2.3.1","#
                + #""warnings":["SW01"],"alpha":[1.50,2e3]}"#
        ),
        ("TransactionCreated", #"{"directoryServerID":"X999","messageVersion":"2.1.0","customCertificate":true}"#),
        (
            "AuthRequestParametersCreated",
            #"{"sdkReferenceNumber":"ref","deviceDataBytes":0,"sdkAppIDRef":null,"extra":{"b":1,"a":2}}"#
        ),
        (
            "AuthResponseReceived",
            #"{"threeDSServerTransID":"8A880DC0-D2D2-4067-BCB1-B08D1690B26E","acsTransID":"x","#
                + #""transStatus":"D","transStatusReason":"01"}"#
        ),
        ("TransactionClosed", #"{"note":"frictionless"}"#),
        ("TransactionClosed", "{}"),
        ("ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"r"}"#),
        ("ChallengeRequestSent", #"{"sdkCounterStoA":"012","action":"submitText","entryLength":6,"noEntry":false}"#),
        (
            "ChallengeResponseReceived",
            #"{"acsCounterAtoS":"001","challengeCompletionInd":"N","acsUiType":"06","transStatus":"whatever"}"#
        ),
        (
            "ChallengeResponseReceived",
            #"{"acsCounterAtoS":"001","challengeCompletionInd":"Y","transStatus":"N","acsUiType":"99"}"#
        ),
        ("ChallengeCompleted", #"{"transStatus":"Y"}"#),
        ("ChallengeCancelled", "{}"),
        ("ChallengeTimedOut", "{}"),
        (
            "ProtocolErrorOccurred",
            #"{"errorCode":"302","errorComponent":"C","errorDescription":"d","errorDetail":"acsCounterAtoS","#
                + #""errorMessageType":"CRes","sentToACS":true}"#
        ),
        ("RuntimeErrorOccurred", #"{"errorCode":"STDSRuntimeErrorCodeParsingError","errorMessage":"bad"}"#),
        ("EligibilityChecked", #"{"inputMethod":"pushSession","outcome":"notEligible","errorCode":"fpanNotEligible"}"#),
        ("TermsAccepted", #"{"tncDigest":"abc"}"#),
        ("DigitizationRequested", #"{"language":"fr","pushTokenRef":"ref"}"#),
        ("DigitizationApproved", #"{"digitalCardID":"DC"}"#),
        ("DigitizationDeclined", "{}"),
        (
            "DigitizationApprovedWithIDV",
            #"{"digitalCardID":"DC","methods":[{"id":"1","type":"otpBySMS","withCryptogram":null,"label":"SMS"},"#
                + #"{"id":"2","type":"appToApp","withCryptogram":false}]}"#
        ),
        ("IDVMethodSelected", #"{"idvID":"1"}"#),
        (
            "ActivationRequired",
            #"{"state":"appToAppSelected","scheme":"MASTERCARD","source":"com.bank","requestPayloadBytes":1024}"#
        ),
        ("OTPSubmitted", #"{"otpLength":4}"#),
        ("OTPSubmitted", #"{"otpLength":12}"#),
        ("OTPRejected", #"{"reason":"incorrect","attemptsRemaining":2}"#),
        ("AppToAppResumed", #"{"withTAV":true}"#),
        ("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenSuspended"}"#),
        ("ActivatedByIDV", "{}"),
        ("ActivationInterrupted", #"{"reason":"appTerminated"}"#),
        ("ActivationResumed", "{}"),
        ("ActivationCancelled", "{}"),
        ("ActivationExpired", "{}"),
        ("ActivationFailed", #"{"reason":"deviceUnsafe"}"#)
    ]

    @Test("decode then encode gives back exactly the received data", arguments: validEvents)
    func decodeThenEncodeGivesBackTheReceivedData(type: String, json: String) throws {
        let data = object(json)
        let event = try DomainEvent.decode(type: type, data: data)
        #expect(event.typeName == type)
        #expect(event.data == data)
        #expect(JSONWriter.string(.object(event.data)) == json)
    }

    @Test func everyCatalogTypeHasAValidExample() {
        let covered = Set(Self.validEvents.map(\.0))
        #expect(covered == Set(ThreeDSEvent.typeNames + CardEvent.typeNames))
    }

    /// Invalid data and the exact reason expected.
    static let invalidEvents: [(String, String, String)] = [
        (
            "ChallengeStarted", #"{"timeoutSeconds":299,"acsReferenceNumber":"r"}"#,
            "ChallengeStarted.timeoutSeconds must be >= 300, got 299"
        ),
        (
            "ChallengeStarted", #"{"timeoutSeconds":300.0,"acsReferenceNumber":"r"}"#,
            "ChallengeStarted.timeoutSeconds must be an integer, got number"
        ),
        (
            "ChallengeStarted", #"{"timeoutSeconds":3e2,"acsReferenceNumber":"r"}"#,
            "ChallengeStarted.timeoutSeconds must be an integer, got number"
        ),
        (
            "ChallengeStarted", #"{"timeoutSeconds":null,"acsReferenceNumber":"r"}"#,
            "ChallengeStarted.timeoutSeconds is required"
        ),
        (
            "ChallengeStarted", #"{"timeoutSeconds":"300","acsReferenceNumber":"r"}"#,
            "ChallengeStarted.timeoutSeconds must be an integer, got string"
        ),
        (
            "TransactionCreated", #"{"directoryServerID":"X999","messageVersion":"2.2.0"}"#,
            #"TransactionCreated.directoryServerID must be a known directory server ID unless "#
                + #"customCertificate is true, got "X999""#
        ),
        (
            "TransactionCreated", #"{"directoryServerID":"X999","messageVersion":"2.2.0","customCertificate":false}"#,
            #"TransactionCreated.directoryServerID must be a known directory server ID unless "#
                + #"customCertificate is true, got "X999""#
        ),
        (
            "TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.0.0"}"#,
            #"TransactionCreated.messageVersion must be one of 2.1.0, 2.2.0, 2.3.0, 2.3.1, got "2.0.0""#
        ),
        (
            "TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0","warnings":["SW01",3]}"#,
            "TransactionCreated.warnings[1] must be a string, got integer"
        ),
        (
            "AuthRequestParametersCreated", #"{"sdkReferenceNumber":"r","deviceDataBytes":-1}"#,
            "AuthRequestParametersCreated.deviceDataBytes must be >= 0, got -1"
        ),
        (
            "AuthResponseReceived", #"{"threeDSServerTransID":"not-a-uuid","acsTransID":"x","transStatus":"Y"}"#,
            #"AuthResponseReceived.threeDSServerTransID must be a UUID, got "not-a-uuid""#
        ),
        (
            "AuthResponseReceived",
            #"{"threeDSServerTransID":"8a880dc0-d2d2-4067-bcb1-b08d1690b26e","acsTransID":"x","transStatus":"Q"}"#,
            #"AuthResponseReceived.transStatus must be one of Y, N, U, A, C, D, R, I, got "Q""#
        ),
        (
            "ChallengeRequestSent", #"{"sdkCounterStoA":"01","action":"initial"}"#,
            #"ChallengeRequestSent.sdkCounterStoA must be three decimal digits, got "01""#
        ),
        (
            "ChallengeRequestSent", #"{"sdkCounterStoA":"000","action":"submit"}"#,
            #"ChallengeRequestSent.action must be one of initial, submitText, resend, submitSelection, oobContinue, "#
                + #"htmlForm, continue, cancel, got "submit""#
        ),
        (
            "ChallengeResponseReceived", #"{"acsCounterAtoS":"000","challengeCompletionInd":"N"}"#,
            "ChallengeResponseReceived.acsUiType is required"
        ),
        (
            "ChallengeResponseReceived", #"{"acsCounterAtoS":"000","challengeCompletionInd":"Y","acsUiType":"01"}"#,
            "ChallengeResponseReceived.transStatus is required"
        ),
        (
            "ChallengeResponseReceived", #"{"acsCounterAtoS":"000","challengeCompletionInd":"Y","transStatus":"C"}"#,
            #"ChallengeResponseReceived.transStatus must be one of Y, N, got "C""#
        ),
        (
            "ChallengeResponseReceived", #"{"acsCounterAtoS":"000","challengeCompletionInd":"N","acsUiType":"08"}"#,
            #"ChallengeResponseReceived.acsUiType must be one of 01, 02, 03, 04, 05, 06, 07, got "08""#
        ),
        (
            "ChallengeResponseReceived", #"{"acsCounterAtoS":"000","challengeCompletionInd":"X","acsUiType":"01"}"#,
            #"ChallengeResponseReceived.challengeCompletionInd must be one of Y, N, got "X""#
        ),
        (
            "ChallengeCompleted", #"{"transStatus":"A"}"#,
            #"ChallengeCompleted.transStatus must be one of Y, N, got "A""#
        ),
        (
            "ProtocolErrorOccurred",
            #"{"errorCode":"101","errorComponent":"X","errorDescription":"d","sentToACS":true}"#,
            #"ProtocolErrorOccurred.errorComponent must be one of C, S, D, A, got "X""#
        ),
        (
            "ProtocolErrorOccurred", #"{"errorCode":"101","errorComponent":"C","errorDescription":"d"}"#,
            "ProtocolErrorOccurred.sentToACS is required"
        ),
        (
            "RuntimeErrorOccurred", #"{"errorCode":101,"errorMessage":"m"}"#,
            "RuntimeErrorOccurred.errorCode must be a string, got integer"
        ),
        (
            "EligibilityChecked", #"{"inputMethod":"nfc","outcome":"eligible"}"#,
            #"EligibilityChecked.inputMethod must be one of manual, bankApp, pushSession, got "nfc""#
        ),
        (
            "DigitizationApprovedWithIDV", #"{"digitalCardID":"DC","methods":[]}"#,
            "DigitizationApprovedWithIDV.methods must not be empty"
        ),
        (
            "DigitizationApprovedWithIDV",
            #"{"digitalCardID":"DC","methods":[{"id":"1","type":"otpBySMS"},{"id":"1","type":"webService"}]}"#,
            #"DigitizationApprovedWithIDV.methods[1].id must be unique, got "1" twice"#
        ),
        (
            "DigitizationApprovedWithIDV", #"{"digitalCardID":"DC","methods":[{"id":"1","type":"appToApp"}]}"#,
            "DigitizationApprovedWithIDV.methods[0].withCryptogram is required for appToApp methods"
        ),
        (
            "DigitizationApprovedWithIDV",
            #"{"digitalCardID":"DC","methods":[{"id":"1","type":"otpByEmail","withCryptogram":false}]}"#,
            "DigitizationApprovedWithIDV.methods[0].withCryptogram is allowed for appToApp "
                + "methods only, got it on otpByEmail"
        ),
        (
            "DigitizationApprovedWithIDV", #"{"digitalCardID":"DC","methods":[{"id":"1","type":"sms"}]}"#,
            #"DigitizationApprovedWithIDV.methods[0].type must be one of otpBySMS, otpByEmail, customerService, "#
                + #"webService, appToApp, got "sms""#
        ),
        (
            "DigitizationApprovedWithIDV", #"{"digitalCardID":"DC","methods":["sms"]}"#,
            "DigitizationApprovedWithIDV.methods[0] must be an object, got string"
        ),
        (
            "ActivationRequired", #"{"state":"aborted"}"#,
            #"ActivationRequired.state must be one of otpNeeded, appToAppSelected, got "aborted""#
        ),
        ("OTPSubmitted", #"{"otpLength":3}"#, "OTPSubmitted.otpLength must be between 4 and 12, got 3"),
        ("OTPSubmitted", #"{"otpLength":13}"#, "OTPSubmitted.otpLength must be between 4 and 12, got 13"),
        ("OTPRejected", #"{"reason":"wrong"}"#, #"OTPRejected.reason must be one of incorrect, expired, got "wrong""#),
        (
            "OTPRejected", #"{"reason":"incorrect","attemptsRemaining":-1}"#,
            "OTPRejected.attemptsRemaining must be >= 0, got -1"
        ),
        ("AppToAppResumed", #"{"withTAV":"yes"}"#, "AppToAppResumed.withTAV must be a boolean, got string"),
        (
            "ActivationFailed", #"{"reason":"timeout"}"#,
            #"ActivationFailed.reason must be one of otpAttemptsExhausted, deviceUnsafe, "#
                + #"idvFailed, other, got "timeout""#
        ),
        ("CPSNotificationReceived", "{}", "CPSNotificationReceived.messageCode is required")
    ]

    @Test("invalid data is refused with a reason naming the type, the field and the rule", arguments: invalidEvents)
    func invalidDataIsRefusedWithItsReason(type: String, json: String, reason: String) {
        #expect(throws: EventDecodingError.self) { try DomainEvent.decode(type: type, data: object(json)) }
        do {
            _ = try DomainEvent.decode(type: type, data: object(json))
        } catch {
            #expect(error.message == reason)
            #expect(error.eventType == type)
        }
    }

    @Test func runtimeErrorMessageIsLimitedTo256CodePoints() throws {
        let ok = String(repeating: "é", count: 256)
        _ = try DomainEvent.decode(
            type: "RuntimeErrorOccurred", data: object(#"{"errorCode":"1","errorMessage":"\#(ok)"}"#))
        let long = String(repeating: "é", count: 257)
        #expect(throws: EventDecodingError.self) {
            try DomainEvent.decode(
                type: "RuntimeErrorOccurred", data: object(#"{"errorCode":"1","errorMessage":"\#(long)"}"#))
        }
    }

    @Test func unknownTypeIsADistinctError() {
        do {
            _ = try DomainEvent.decode(type: "TransactionExploded", data: JSONObject())
            Issue.record("accepted an unknown type")
        } catch {
            #expect(error.kind == .unknownType)
            #expect(error.message == "TransactionExploded is not an event type of the catalog")
        }
    }

    @Test func longValuesAreNeverEchoedInReasons() {
        do {
            _ = try DomainEvent.decode(
                type: "ChallengeRequestSent",
                data: object(#"{"sdkCounterStoA":"4111111111111111","action":"initial"}"#))
            Issue.record("accepted a bad counter")
        } catch {
            #expect(!error.message.contains("4111"))
            #expect(
                error.message
                    == "ChallengeRequestSent.sdkCounterStoA must be three decimal digits, got a string of 16 characters"
            )
        }
    }

    @Test func eventsBuiltInCodeEncodeInCatalogOrderWithoutAbsentFields() {
        let event = ThreeDSEvent.challengeRequestSent(.init(sdkCounterStoA: ChallengeCounter(7)!, action: .resend))
        #expect(JSONWriter.string(.object(event.data)) == #"{"sdkCounterStoA":"007","action":"resend"}"#)
        let methods = CardEvent.digitizationApprovedWithIDV(
            .init(
                digitalCardID: "DC",
                methods: [
                    IDVMethod(id: "a", type: .appToApp, withCryptogram: true), IDVMethod(id: "s", type: .otpBySMS)
                ]))
        #expect(
            JSONWriter.string(.object(methods.data))
                == #"{"digitalCardID":"DC","methods":[{"id":"a","type":"appToApp","withCryptogram":true},"#
                + #"{"id":"s","type":"otpBySMS"}]}"#
        )
    }

    @Test func streamNamesFollowTheCategoryRules() throws {
        #expect(try StreamCategory.of(stream: threeDSStream) == .threeDS)
        #expect(try StreamCategory.of(stream: cardStream) == .card)
        #expect(try StreamCategory.of(stream: cardStream.lowercased()) == .card)
        #expect(throws: StreamCategoryError.self) {
            try StreamCategory.of(stream: "3ds-0B9E5A4C-7F1E-4C7A-9D8E-2F4B6A1C3D5E")
        }
        #expect(throws: StreamCategoryError.self) { try StreamCategory.of(stream: "3ds-abc") }
        #expect(throws: StreamCategoryError.self) { try StreamCategory.of(stream: "card-") }
        #expect(throws: StreamCategoryError.self) {
            try StreamCategory.of(stream: "wallet-0b9e5a4c-7f1e-4c7a-9d8e-2f4b6a1c3d5e")
        }
        #expect(throws: StreamCategoryError.self) {
            try JourneyState.initial(for: "3DS-0b9e5a4c-7f1e-4c7a-9d8e-2f4b6a1c3d5e")
        }
    }

    @Test func anEventOfTheOtherCategoryIsRefusedWithTheCategoryNamed() {
        let refused = rejection(threeDSStream, [], then: Card.eligible)
        #expect(refused?.reason == "EligibilityChecked is a card event, not allowed in a 3ds stream")
        #expect(refused?.rule == .catalog)
        let other = rejection(cardStream, [], then: TDS.created)
        #expect(other?.reason == "TransactionCreated is a 3ds event, not allowed in a card stream")
    }
}

extension EventCatalogTests {
    @Test func keyFieldsNameWhatAnAuditShowsFirst() throws {
        let request = try DomainEvent.decode(
            type: "ChallengeRequestSent",
            data: object(#"{"sdkCounterStoA":"001","action":"submitText","entryLength":6}"#))
        #expect(request.keyFieldsText == "sdkCounterStoA=001 action=submitText")
        let response = try DomainEvent.decode(
            type: "ChallengeResponseReceived",
            data: object(#"{"acsCounterAtoS":"001","challengeCompletionInd":"Y","transStatus":"N"}"#))
        #expect(response.keyFieldsText == "acsCounterAtoS=001 challengeCompletionInd=Y transStatus=N")
        let rejected = try DomainEvent.decode(
            type: "OTPRejected", data: object(#"{"reason":"incorrect","attemptsRemaining":2}"#))
        #expect(rejected.keyFieldsText == "reason=incorrect attemptsRemaining=2")
        #expect(try DomainEvent.decode(type: "ActivationResumed", data: JSONObject()).keyFieldsText == "")
    }
}

extension EventCatalogTests {
    @Test(
        "any field replaced by any JSON type is decoded or refused with a reason, never a crash", arguments: validEvents
    )
    func anyFieldOfAnyTypeIsDecodedOrRefused(type: String, json: String) {
        let replacements: [JSONValue] = [
            .null, .bool(true), .number(JSONNumber(1)), .number(JSONNumber(uncheckedText: "1.5")),
            .number(JSONNumber(uncheckedText: "123456789012345678901234567890")), .string(""), .string("x"),
            .array([]), .array([.object(JSONObject())]), .object(JSONObject())
        ]
        let original = object(json)
        for key in original.keys {
            for replacement in replacements {
                var data = original
                data[key] = replacement
                do {
                    let event = try DomainEvent.decode(type: type, data: data)
                    #expect(event.data == data)
                } catch {
                    #expect(error.eventType == type)
                    #expect(error.message.hasPrefix("\(type).\(error.field ?? "")"))
                    #expect(error.field != nil)
                }
            }
        }
    }
}
