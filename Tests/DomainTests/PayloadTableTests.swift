import Domain
import JournalCore
import Testing

@Suite("Payload tables")
struct PayloadTableTests {
    @Test("a built payload equals the same payload decoded from its canonical data")
    func builtEqualsDecodedCanonical() throws {
        let built = ThreeDSEvent.transactionCreated(
            .init(
                directoryServerID: "A000000004", messageVersion: .v2_2_0,
                warnings: ["SW01"]))
        let decoded = try ThreeDSEvent.decode(type: built.typeName, data: built.data)
        #expect(decoded == built)
        let card = CardEvent.otpRejected(.init(reason: .incorrect, attemptsRemaining: 2))
        #expect(try CardEvent.decode(type: card.typeName, data: card.data) == card)
    }

    @Test("payloads differing in one field, or in extra data kept as received, are not equal")
    func differentFieldsOrDataAreNotEqual() throws {
        let built = CardEvent.OTPRejected(reason: .incorrect, attemptsRemaining: 2)
        #expect(built != CardEvent.OTPRejected(reason: .incorrect, attemptsRemaining: 1))
        #expect(built != CardEvent.OTPRejected(reason: .expired, attemptsRemaining: 2))
        #expect(built != CardEvent.OTPRejected(reason: .incorrect))
        var data = built.data
        data["note"] = .string("extra")
        let decoded = try CardEvent.decode(type: "OTPRejected", data: data)
        #expect(decoded != CardEvent.otpRejected(built))
    }

    @Test("a challenge response's result is written as its indicator and the field the indicator calls for")
    func challengeResultWritesTwoFields() {
        let screen = ThreeDSEvent.ChallengeResponseReceived(
            acsCounterAtoS: ChallengeCounter(1)!, result: .screen(.text))
        #expect(
            JSONWriter.string(.object(screen.data))
                == #"{"acsCounterAtoS":"001","challengeCompletionInd":"N","acsUiType":"01"}"#)
        let final = ThreeDSEvent.ChallengeResponseReceived(acsCounterAtoS: ChallengeCounter(2)!, result: .final(.Y))
        #expect(
            JSONWriter.string(.object(final.data))
                == #"{"acsCounterAtoS":"002","challengeCompletionInd":"Y","transStatus":"Y"}"#)
    }
}
