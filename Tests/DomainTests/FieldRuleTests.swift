import Domain
import JournalCore
import Simulator
import Testing

/// `checkFields()` (what `execute` runs on the events a command builds) checks the same catalog
/// rules as decoding the event's `data`, and fails with the same error.
@Suite("Field rules on built events")
struct FieldRuleTests {
    /// The error of decoding `data` as `type`, or nil.
    static func decodingError(_ type: String, _ data: JSONObject, threeDS: Bool) -> EventDecodingError? {
        do {
            if threeDS {
                _ = try ThreeDSEvent.decode(type: type, data: data)
            } else {
                _ = try CardEvent.decode(type: type, data: data)
            }
            return nil
        } catch {
            return error
        }
    }

    static func checkError(_ event: ThreeDSEvent) -> EventDecodingError? {
        do { try event.checkFields() } catch { return error }
        return nil
    }

    static func checkError(_ event: CardEvent) -> EventDecodingError? {
        do { try event.checkFields() } catch { return error }
        return nil
    }

    /// Events built with values the catalog refuses, one per rule beyond the JSON types.
    static let invalidThreeDS: [ThreeDSEvent] = [
        .transactionCreated(.init(directoryServerID: "X999", messageVersion: .v2_2_0)),
        .transactionCreated(.init(directoryServerID: "X999", messageVersion: .v2_2_0, customCertificate: false)),
        .authRequestParametersCreated(.init(sdkReferenceNumber: "ref", deviceDataBytes: -1)),
        .authResponseReceived(.init(threeDSServerTransID: "not-a-uuid", acsTransID: "a", transStatus: .C)),
        .authResponseReceived(
            .init(threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26", acsTransID: "a", transStatus: .C)),
        .challengeStarted(.init(timeoutSeconds: 299, acsReferenceNumber: "r")),
        .challengeStarted(.init(timeoutSeconds: 1_000_000_001, acsReferenceNumber: "r")),
        .challengeRequestSent(.init(sdkCounterStoA: .first, action: .submitText, entryLength: -1)),
        .runtimeErrorOccurred(.init(errorCode: "1", errorMessage: String(repeating: "é", count: 257)))
    ]

    static let invalidCard: [CardEvent] = [
        .digitizationApprovedWithIDV(.init(digitalCardID: "DC", methods: [])),
        .digitizationApprovedWithIDV(
            .init(
                digitalCardID: "DC",
                methods: [
                    IDVMethod(id: "1", type: .otpBySMS),
                    IDVMethod(id: "2", type: .otpByEmail),
                    IDVMethod(id: "1", type: .appToApp)
                ])),
        .activationRequired(.init(state: .otpNeeded, requestPayloadBytes: -1)),
        .otpSubmitted(.init(otpLength: 3)),
        .otpSubmitted(.init(otpLength: 13)),
        .otpRejected(.init(reason: .incorrect, attemptsRemaining: -1))
    ]

    @Test func aBuiltEventBreakingARuleFailsWithTheErrorDecodingItsDataGives() throws {
        for event in Self.invalidThreeDS {
            let decoding = try #require(Self.decodingError(event.typeName, event.data, threeDS: true))
            #expect(Self.checkError(event) == decoding)
        }
        for event in Self.invalidCard {
            let decoding = try #require(Self.decodingError(event.typeName, event.data, threeDS: false))
            #expect(Self.checkError(event) == decoding)
        }
    }

    @Test func builtEventsWithinTheRulesPassBothChecks() {
        let valid: [ThreeDSEvent] = [
            .transactionCreated(.init(directoryServerID: "X999", messageVersion: .v2_2_0, customCertificate: true)),
            .authRequestParametersCreated(.init(sdkReferenceNumber: "ref", deviceDataBytes: 0)),
            .challengeStarted(.init(timeoutSeconds: 300, acsReferenceNumber: "r")),
            .challengeStarted(.init(timeoutSeconds: 1_000_000_000, acsReferenceNumber: "r")),
            .challengeRequestSent(.init(sdkCounterStoA: .first, action: .submitText, entryLength: 0)),
            .runtimeErrorOccurred(.init(errorCode: "1", errorMessage: String(repeating: "é", count: 256)))
        ]
        for event in valid {
            #expect(Self.checkError(event) == nil)
            #expect(Self.decodingError(event.typeName, event.data, threeDS: true) == nil)
        }
        let card: [CardEvent] = [
            .activationRequired(.init(state: .otpNeeded, requestPayloadBytes: 0)),
            .otpSubmitted(.init(otpLength: 4)),
            .otpSubmitted(.init(otpLength: 12)),
            .otpRejected(.init(reason: .incorrect, attemptsRemaining: 0))
        ]
        for event in card {
            #expect(Self.checkError(event) == nil)
            #expect(Self.decodingError(event.typeName, event.data, threeDS: false) == nil)
        }
    }

    @Test(
        "every generated event passes decoding, and its decoded value passes checkFields",
        arguments: Array(UInt64(1)...5))
    func generatedEventsPassBothChecks(seed: UInt64) throws {
        let generator = JourneyGenerator(seed: seed)
        for index in 0..<200 {
            let journey = generator.journey(index % 2 == 0 ? .threeDS : .card)
            for event in journey.events {
                if index % 2 == 0 {
                    let decoded = try ThreeDSEvent.decode(type: event.type, data: event.data)
                    #expect(Self.checkError(decoded) == nil)
                } else {
                    let decoded = try CardEvent.decode(type: event.type, data: event.data)
                    #expect(Self.checkError(decoded) == nil)
                }
            }
        }
    }
}
