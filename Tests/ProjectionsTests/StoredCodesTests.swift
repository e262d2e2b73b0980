import Domain
import Testing

@testable import Projections

@Suite("Stored codes")
struct StoredCodesTests {
    @Test("every outcome of both aggregates has one stored code")
    func everyOutcomeHasOneCode() {
        #expect(Set(ThreeDSTransaction.OutcomeKey.storedOrder) == Set(ThreeDSTransaction.OutcomeKey.allCases))
        #expect(ThreeDSTransaction.OutcomeKey.storedOrder.count == ThreeDSTransaction.OutcomeKey.allCases.count)
        #expect(Set(CardDigitization.OutcomeKey.storedOrder) == Set(CardDigitization.OutcomeKey.allCases))
        #expect(CardDigitization.OutcomeKey.storedOrder.count == CardDigitization.OutcomeKey.allCases.count)
    }

    @Test("the 3ds read model stores each outcome under its fixed code")
    func threeDSOutcomeCodesAreFixed() {
        let expected: [ThreeDSTransaction.OutcomeKey: Int64] = [
            .open: 0, .completedY: 1, .completedN: 2, .cancelled: 3, .timedOut: 4, .protocolError: 5,
            .runtimeError: 6, .closed: 7
        ]
        for key in ThreeDSTransaction.OutcomeKey.allCases {
            #expect(key.code == expected[key])
            #expect(ThreeDSTransaction.OutcomeKey(code: key.code) == key)
        }
        #expect(ThreeDSTransaction.OutcomeKey(code: 8) == nil)
    }

    @Test("the card read model stores each outcome under its fixed code")
    func cardOutcomeCodesAreFixed() {
        let expected: [CardDigitization.OutcomeKey: Int64] = [
            .open: 0, .activated: 1, .failed: 2, .cancelled: 3, .expired: 4, .declined: 5, .notEligible: 6,
            .approved: 7
        ]
        for key in CardDigitization.OutcomeKey.allCases {
            #expect(key.code == expected[key])
            #expect(CardDigitization.OutcomeKey(code: key.code) == key)
        }
        #expect(CardDigitization.OutcomeKey(code: -1) == nil)
    }

    @Test("a type id keeps its catalog type, or none for a type outside the catalog")
    func typeCodesKeepTheCatalogType() {
        for type in EventType.allCases {
            let code = TypeCode(name: type.name)
            #expect(code.type == type)
            #expect(TypeCode(rawValue: code.rawValue)?.type == type)
        }
        #expect(TypeCode(name: "SomethingElse").type == nil)
        #expect(TypeCode(name: "SomethingElse").rawValue != UInt8.max)
    }
}
