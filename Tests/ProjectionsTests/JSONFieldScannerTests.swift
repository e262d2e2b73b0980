import Testing

@testable import Projections

@Suite("Reading fields straight from the stored JSON")
struct JSONFieldScannerTests {
    private func field(_ json: String, _ key: StaticString) -> String? {
        JSONFieldScanner.string(key, in: Array(json.utf8))
    }

    @Test func findsTopLevelStringsAfterAnyOtherValues() {
        let json =
            #"{"n":-1.5e3,"b":true,"x":null,"o":{"action":"no","a":[1,{"b":"]"}]},"s":"}\"","action":"submitText"}"#
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

    @Test("two fields read in one pass equal two reads of one field, on every prefix of the text")
    func twoFieldsInOnePassEqualTwoSingleReads() {
        let texts = [
            #"{"n":-1.5e3,"b":true,"o":{"a":"in","c":[1,{"b":"]"}]},"a":"x","c":"y","a":"dup"}"#,
            #"{"c":"first","a":7,"a":"late","c":"dup"}"#,
            #"{ "a" : "sp\"ace" , "\u0063" : "esc-key", "c" : "\u00e9" }"#,
            #"{"a":{"c":"nested"},"c":null,"a":"after"}"#
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            for end in 0...bytes.count {
                let prefix = Array(bytes[..<end])
                let pair = prefix.withUnsafeBufferPointer { JSONFieldScanner.strings("a", "c", in: $0) }
                #expect(
                    pair.0 == JSONFieldScanner.string("a", in: prefix), "\(String(decoding: prefix, as: UTF8.self))")
                #expect(
                    pair.1 == JSONFieldScanner.string("c", in: prefix), "\(String(decoding: prefix, as: UTF8.self))")
            }
        }
    }

    @Test func malformedTextGivesNilNeverATrap() {
        for text in [
            "", "{", "{\"a\"", "{\"a\":", "{\"a\":\"x", "[\"a\"]", "{\"a\":{", "{\"a\":1,", "{\"a\"1}", "\"a\""
        ] {
            #expect(field(text, "a") == nil)
        }
    }
}
