import JournalCore
import Testing

@testable import JournalApp

@Suite("Audit key fields")
struct AuditKeyFieldsTests {
    func object(_ text: String) throws -> JSONObject {
        try #require(try JSONParser().parse(text).objectValue)
    }

    @Test func decodableEventsShowTheDomainsKeyFields() throws {
        let fields = AuditKeyFields.fields(
            type: "ChallengeRequestSent",
            data: try object(#"{"sdkCounterStoA":"001","action":"submitText","entryLength":6}"#))
        #expect(AuditKeyFields.text(fields) == "sdkCounterStoA=001 action=submitText")
    }

    @Test func undecodableEventsShowTheirFirstThreeScalarFieldsAsStored() throws {
        let data = try object(#"{"nested":{"a":1},"b":"two","c":3,"d":true,"e":"five"}"#)
        #expect(AuditKeyFields.text(AuditKeyFields.fields(type: "SomethingNew", data: data)) == "b=two c=3 d=true")
        let damaged = try object(#"{"sdkCounterStoA":"1","action":"submitText"}"#)
        #expect(
            AuditKeyFields.text(AuditKeyFields.fields(type: "ChallengeRequestSent", data: damaged))
                == "sdkCounterStoA=1 action=submitText")
    }

    @Test func longValuesAreShortenedForTheTable() {
        let fields = JSONObject([(key: "reason", value: .string(String(repeating: "x", count: 60)))])
        #expect(AuditKeyFields.text(fields) == "reason=" + String(repeating: "x", count: 39) + "…")
    }
}
