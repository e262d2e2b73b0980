@testable import Projections
import Testing

@Suite("Reading fields straight from the stored JSON")
struct JSONFieldScannerTests {
    private func field(_ json: String, _ key: StaticString) -> String? {
        JSONFieldScanner.string(key, in: Array(json.utf8))
    }

    @Test func findsTopLevelStringsAfterAnyOtherValues() {
        let json = #"{"n":-1.5e3,"b":true,"x":null,"o":{"action":"no","a":[1,{"b":"]"}]},"s":"}\"","action":"submitText"}"#
        #expect(field(json, "action") == "submitText")
        #expect(field(json, "s") == "}\"")
    }

    @Test func ignoresKeysInsideNestedValuesAndNonStrings() {
        #expect(field(#"{"o":{"reason":"inner"}}"#, "reason") == nil)
        #expect(field(#"{"reason":7}"#, "reason") == nil)
        #expect(field(#"{"reasons":"x"}"#, "reason") == nil)
    }

    @Test func decodesEscapesAndToleratesWhitespace() {
        #expect(field(" { \"code\" : \"a\\u00e9\\\"b\" } ", "code") == "aé\"b")
    }

    @Test func malformedTextGivesNilNeverATrap() {
        for text in ["", "{", "{\"a\"", "{\"a\":", "{\"a\":\"x", "[\"a\"]", "{\"a\":{", "{\"a\":1,", "{\"a\"1}", "\"a\""] {
            #expect(field(text, "a") == nil)
        }
    }
}
