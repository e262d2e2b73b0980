import JournalCore
import Testing

@Suite("JSON flat objects")
struct JSONFlatObjectTests {
    let parser = JSONParser()

    /// The members the flat reading finds, as an object; nil when it declines the document.
    func flat(_ text: String) -> JSONObject? {
        Array(text.utf8).withUnsafeBytes { bytes in JSONFlatObject.withMembers(of: bytes) { $0.object } }
    }

    @Test(
        "an object of plain scalars reads as the parser reads it",
        arguments: [
            "{}",
            " { } ",
            #"{"a":"b"}"#,
            "\t{\r\n\"a\" : \"\" ,\n\"n\":-0, \"m\": 120, \"t\":true,\"f\":false,\"z\":null }\n",
            #"{"transStatus":"C","acsTransID":"4b6b2a2e-8c3f-4a5e-9d1c-0f2e3d4c5b6a","n":-9223372036854775809}"#,
            #"{"":"empty key","~":"printable ascii !#$%&'()*+,-./:;<=>?@[]^_`{|}"}"#
        ])
    func anObjectOfPlainScalarsReadsAsTheParserReadsIt(text: String) throws {
        let parsed = try #require(try parser.parse(text).objectValue)
        let object = try #require(flat(text), "declined: \(text)")
        #expect(object == parsed)
        #expect(object.keys == parsed.keys)
        Array(text.utf8).withUnsafeBytes { bytes in
            _ = JSONFlatObject.withMembers(of: bytes) { members in
                for entry in parsed.entries { #expect(members.value(forKey: entry.key) == entry.value) }
                #expect(members.value(forKey: "absent") == nil)
            }
        }
    }

    @Test(
        "what only the parser can judge is declined",
        arguments: [
            "", "[]", #""a""#, "{", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{"a":1}x"#,
            #"{"a":{}}"#, #"{"a":[]}"#, #"{"a":"\n"}"#, #"{"a\u0041":1}"#, #"{"a":"é"}"#, "{\"a\":\"\u{1}\"}",
            #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":1E3}"#, #"{"a":01}"#, #"{"a":-}"#, #"{"a":+1}"#,
            #"{"a":truex}"#, #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":1,"a":2}"#, "{\"a\":1}\u{0B}",
            #"{"a":"b""#, #"{"a":"#
        ])
    func whatOnlyTheParserCanJudgeIsDeclined(text: String) {
        #expect(flat(text) == nil, "read flat: \(text)")
    }

    @Test func anObjectOfMoreMembersThanTheCapacityIsDeclined() {
        func object(_ count: Int) -> String {
            "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        }
        #expect(flat(object(JSONFlatObject.capacity))?.count == JSONFlatObject.capacity)
        #expect(flat(object(JSONFlatObject.capacity + 1)) == nil)
    }

    /// Whatever the flat reading takes, the parser takes too, with the same members: checked over
    /// every one-byte change of a few documents (each byte replaced by each of a set of bytes
    /// that matter to JSON), so a scan that is laxer than the parser anywhere fails here.
    @Test func whateverTheFlatReadingTakesTheParserTakesWithTheSameMembers() throws {
        let documents = [
            #"{"a":"xy","bc":-12,"d":true,"e":false,"f":null}"#,
            #" {"transStatus" : "Y" , "n" : 0 } "#
        ]
        let replacements = Array(#" "\{}[],:.-+0159eEtrufalsn"#.utf8) + [0x00, 0x09, 0x0A, 0x0B, 0x7F, 0x80, 0xC3, 0xFF]
        var read = 0
        var declined = 0
        for document in documents {
            let original = Array(document.utf8)
            for index in original.indices {
                for replacement in replacements {
                    for mutated in [
                        original[..<index] + [replacement] + original[(index + 1)...],
                        original[..<index] + [replacement] + original[index...],
                        original[..<index] + original[(index + 1)...]
                    ] {
                        let bytes = Array(mutated)
                        let object = bytes.withUnsafeBytes { JSONFlatObject.withMembers(of: $0) { $0.object } }
                        guard let object else {
                            declined += 1
                            continue
                        }
                        read += 1
                        let parsed = try? parser.parse(bytes).objectValue
                        #expect(parsed == object, "\(String(decoding: bytes, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(read > 100 && declined > 100)
    }
}
