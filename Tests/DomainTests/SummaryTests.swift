import Domain
import JournalCore
import Simulator
import Testing

/// `journal state` and `replay` print these: the whole summary is asserted, byte for byte.
@Suite("State summaries")
struct SummaryTests {
    @Test func threeDSSummaryDescribesARunningChallengeCompletely() throws {
        let state = try fold(
            threeDSStream,
            TDS.textScreen + [
                TDS.request("001", "submitText"), TDS.screen("001", "04"),
                TDS.request("002", "oobContinue")
            ])
        #expect(
            JSONWriter.string(.object(state.summary()))
                == #"""
                {"category":"3ds","status":"challenge","step":"awaitingResponse","terminal":false,\#
                "outcome":"open","directoryServerID":"A000000003","messageVersion":"2.2.0",\#
                "authResponseTransStatus":"C","challengeStartedAt":"2026-11-29T10:00:04.000Z",\#
                "timeoutSeconds":300,"deadline":"2026-11-29T10:05:04.000Z","lastCounter":"002",\#
                "requestInFlight":{"counter":"002","action":"oobContinue"},"lastUiType":"04","uiTypesSeen":["01",\#
                "04"],"requests":3,"otpSubmissions":1,"resends":0,"cancelRequested":false,"finalTransStatus":null,\#
                "errorCode":null}
                """#
        )
        #expect(
            state.textSummary
                == """
                category=3ds status=challenge step=awaitingResponse terminal=false outcome=open \
                directoryServerID=A000000003 messageVersion=2.2.0 authResponseTransStatus=C \
                challengeStartedAt=2026-11-29T10:00:04.000Z timeoutSeconds=300 deadline=2026-11-29T10:05:04.000Z \
                lastCounter=002 requestInFlight.counter=002 requestInFlight.action=oobContinue lastUiType=04 \
                uiTypesSeen=01,04 requests=3 otpSubmissions=1 resends=0 cancelRequested=false
                """
        )
    }

    @Test func threeDSSummaryOfAFrictionlessTransaction() throws {
        let state = try fold(threeDSStream, [TDS.created, TDS.params, TDS.ares("Y"), Step("TransactionClosed")])
        #expect(
            JSONWriter.string(.object(state.summary()))
                == #"""
                {"category":"3ds","status":"ended","step":null,"terminal":true,"outcome":"closed",\#
                "directoryServerID":"A000000003","messageVersion":"2.2.0","authResponseTransStatus":"Y",\#
                "challengeStartedAt":null,"timeoutSeconds":null,"deadline":null,"lastCounter":null,\#
                "requestInFlight":null,"lastUiType":null,"uiTypesSeen":[],"requests":0,"otpSubmissions":0,\#
                "resends":0,"cancelRequested":false,"finalTransStatus":null,"errorCode":null}
                """#
        )
    }

    @Test func cardSummaryDescribesAPendingActivationCompletely() throws {
        let state = try fold(
            cardStream,
            Card.otpNeeded + [
                Card.otp, Step("OTPRejected", #"{"reason":"expired"}"#),
                Step("ActivationInterrupted", #"{"reason":"appTerminated"}"#),
                Step("ActivationResumed"), Card.select("a2a"), Card.required("appToAppSelected")
            ])
        #expect(
            JSONWriter.string(.object(state.summary()))
                == #"""
                {"category":"card","status":"pendingActivation","step":"appToAppSelected","terminal":false,\#
                "outcome":"open","inputMethod":"manual","eligibilityErrorCode":null,"termsAccepted":true,\#
                "language":"en","digitalCardID":"DC-1","offeredMethods":["sms","mail","a2a","a2a-plain","call",\#
                "web"],"selectedMethod":{"id":"a2a","type":"appToApp","withCryptogram":true},"resumed":true,\#
                "selections":2,"attempts":1,"otpRejections":1,"interruptions":1,"appToAppResumedWithTAV":null,\#
                "activatedBy":null,"failureReason":null}
                """#
        )
    }

    @Test func cardSummaryOfAnActivatedJourney() throws {
        let state = try fold(cardStream, Card.otpNeeded + [Card.otp, Step("ActivatedByIDV")])
        #expect(
            state.textSummary
                == """
                category=card status=ended terminal=true outcome=activated inputMethod=manual termsAccepted=true \
                language=en digitalCardID=DC-1 offeredMethods=sms,mail,a2a,a2a-plain,call,web \
                selectedMethod.id=sms selectedMethod.type=otpBySMS resumed=false selections=1 attempts=1 \
                otpRejections=0 interruptions=0 activatedBy=idv
                """
        )
    }

    @Test func summariesAreTheSameOnEveryRun() {
        func digest() -> String {
            let generator = JourneyGenerator(seed: 11)
            return (0..<200).map {
                JSONWriter.string(.object(generator.journey($0 % 2 == 0 ? .threeDS : .card).finalState.summary()))
            }
            .joined(separator: "\n")
        }
        #expect(digest() == digest())
    }

    @Test func summaryKeysAreTheSameForEveryStateOfACategory() throws {
        let generator = JourneyGenerator(seed: 5)
        var keys: [StreamCategory: [String]] = [:]
        for index in 0..<100 {
            let journey = generator.journey(index % 2 == 0 ? .threeDS : .card)
            var state = try JourneyState.initial(for: journey.stream)
            for event in journey.events {
                try state.apply(type: event.type, data: event.data, occurredAt: event.occurredAt)
                let seen = state.summary().keys
                if let known = keys[journey.category] { #expect(seen == known) } else { keys[journey.category] = seen }
            }
        }
    }

    @Test func summaryBytesAreTheTextOfTheSummaryObjectForEveryStateOfManyJourneys() throws {
        var compared = 0
        for seed: UInt64 in 1...20 {
            let generator = JourneyGenerator(seed: seed)
            for index in 0..<100 {
                let journey = generator.journey(index % 2 == 0 ? .threeDS : .card)
                var state = try JourneyState.initial(for: journey.stream)
                var states = [state]
                for event in journey.events {
                    try state.apply(type: event.type, data: event.data, occurredAt: event.occurredAt)
                    states.append(state)
                }
                for state in states {
                    // Appended after other bytes, as `replay --all` writes one summary after another.
                    var bytes = Array("prefix\n".utf8)
                    state.writeSummary(into: &bytes)
                    #expect(bytes == Array("prefix\n".utf8) + JSONWriter.bytes(.object(state.summary())))
                    compared += 1
                }
            }
        }
        #expect(compared > 10_000)
    }

    @Test func summaryBytesEscapeStringsAsTheJSONWriterDoes() throws {
        // A digital card id is free text from the event: quotes, backslashes and control
        // characters are escaped the same way on both paths.
        let approved = Step(
            "DigitizationApprovedWithIDV",
            #"{"digitalCardID":"DC-\"1\"\\\u0001é","methods":[{"id":"s\tms","type":"otpBySMS"}]}"#)
        let state = try fold(
            cardStream, [Card.eligible, Card.terms, Card.requested, approved, Card.select("s\\tms")])
        #expect(JSONWriter.string(.object(state.summary())).contains(#""digitalCardID":"DC-\"1\"\\\u0001é""#))
        var bytes: [UInt8] = []
        state.writeSummary(into: &bytes)
        #expect(bytes == JSONWriter.bytes(.object(state.summary())))
    }
}
