import JournalCore
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    let parser = JSONParser()

    @Test("strings are escaped wherever the byte that needs it sits, in a word or in the tail")
    func escapesEachSpecialByteAtEveryOffset() {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [0x22]
            for byte in bytes {
                switch byte {
                case 0x22, 0x5C: out += [0x5C, byte]
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0..<0x20:
                    let digits = Array("0123456789abcdef".utf8)
                    out += Array(#"\u00"#.utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
                default: out.append(byte)
                }
            }
            return out + [0x22]
        }
        let specials: [UInt8] = Array(0..<0x20) + [0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]
        for length in [1, 7, 8, 9, 16, 23] {
            for offset in 0..<length {
                for special in specials {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = special
                    var out: [UInt8] = []
                    bytes.withUnsafeBufferPointer { JSONWriter.writeString($0, into: &out) }
                    #expect(out == reference(bytes), "byte \(special) at \(offset) of \(length)")
                }
            }
        }
    }

    @Test func keepsKeyOrderAndNumberSpellingThroughAWriteRoundTrip() throws {
        let text = #"{"b":1.50,"a":[1e3,-0,12345678901234567890123],"c":{"z":null,"y":true}}"#
        #expect(JSONWriter.string(try parser.parse(text)) == text)
    }

    @Test func equivalenceIgnoresKeyOrderAndNumberSpellingButNotArrayOrder() throws {
        let a = try parser.parse(#"{"x":100,"y":[1,2],"z":"s"}"#)
        let b = try parser.parse(#"{"z":"s","y":[1.0,2e0],"x":1E2}"#)
        let c = try parser.parse(#"{"z":"s","y":[2,1],"x":100}"#)
        #expect(a.isEquivalent(to: b))
        #expect(!a.isEquivalent(to: c))
        #expect(a != b)
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, "duplicate key"),
        ("{\"a\":\"\u{01}\"}", "control character"),
        (#"{"a":01}"#, "leading zero"),
        (#"{"a":1} x"#, "after the JSON value"),
        (#"{"a":"\ud800"}"#, "lone high surrogate"),
        (#"{"a":tru}"#, "invalid literal"),
        ("", "end of input"),
        (#"{"a":"x"#, "unterminated string")
    ])
    func rejectsMalformedDocumentsWithAReason(text: String, reason: String) {
        #expect {
            _ = try parser.parse(text)
        } throws: { error in
            (error as? JSONParseError)?.reason.contains(reason) == true
        }
    }

    @Test func bytesGivesTheTextWriteAppendsWithAndWithoutEscapes() throws {
        for text in [
            #"{}"#, #"[]"#, #"{"a":[1,2.50,-3e2,true,false,null,{}]}"#,
            #"{"q":"say \"hi\"\n","k\\ey":"\u0001","é":"ünïcödé"}"#, #""just a string""#, "12345678901234567890"
        ] {
            let value = try parser.parse(text)
            var appended: [UInt8] = []
            JSONWriter.write(value, into: &appended)
            #expect(JSONWriter.bytes(value) == appended)
            #expect(String(decoding: appended, as: UTF8.self) == text)
        }
    }

    @Test func nestedContainersKeepTheirOwnMembersInOrder() throws {
        // Objects and arrays open inside one another share the parser's scratch: each must end up
        // with exactly its own members, in order, and a key may repeat across levels.
        let text =
            #"{"a":[1,{"a":2,"b":[3,[],{}],"c":{"a":[4,5]}},6],"b":{"b":{"b":[]}},"c":[[[7]],[8,9]],"d":{}}"#
        let value = try parser.parse(text)
        #expect(JSONWriter.string(value) == text)
        guard case let .object(top) = value, case let .array(first)? = top["a"], case let .object(inner) = first[1]
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(top.keys == ["a", "b", "c", "d"])
        #expect(first.count == 3)
        #expect(inner.keys == ["a", "b", "c"])
    }

    @Test func anErrorDeepInsideOpenContainersIsReportedAndTheNextParseIsClean() throws {
        #expect(throws: JSONParseError.self) { _ = try parser.parse(#"{"a":[1,{"b":[2,{"c":"x","c":1}]}]}"#) }
        #expect(throws: JSONParseError.self) { _ = try parser.parse(#"{"a":[1,{"b":[2,{"c":"#) }
        let value = try parser.parse(#"{"x":[1,2],"y":{"z":3}}"#)
        #expect(JSONWriter.string(value) == #"{"x":[1,2],"y":{"z":3}}"#)
    }

    @Test func rejectsInvalidUTF8InStrings() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError.self) { _ = try parser.parse(bytes) }
    }

    @Test func rejectsTenThousandDeepNestingWithoutCrashing() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { _ = try parser.parse(text) }
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try parser.parse(#""a\"b\\c\n\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c\né😀"))
        #expect(JSONWriter.string(value) == "\"a\\\"b\\\\c\\né😀\"")
    }

    @Test func integerNumbersAreReadExactly() throws {
        let value = try parser.parse("9223372036854775807")
        #expect(value.numberValue?.int64 == Int64.max)
        #expect(try parser.parse("1.0").numberValue?.int64 == nil)
        #expect(try parser.parse("99999999999999999999").numberValue?.int64 == nil)
    }
}

@Suite("Timestamp")
struct TimestampTests {
    @Test func parsesAndFormatsTheEnvelopeFormatExactly() throws {
        let text = "2026-11-29T10:15:02.125Z"
        let stamp = try #require(Timestamp(text))
        #expect(stamp.description == text)
        #expect(Timestamp("1970-01-01T00:00:00.000Z")?.millisecondsSinceEpoch == 0)
        #expect(Timestamp("2024-02-29T23:59:59.999Z")?.description == "2024-02-29T23:59:59.999Z")
    }

    @Test(arguments: [
        "2026-11-29T10:15:02Z", "2026-11-29T10:15:02.125z", "2026-11-29 10:15:02.125Z",
        "2026-02-30T00:00:00.000Z", "2026-11-29T24:00:00.000Z", "2026-11-29T10:15:02.1250Z"
    ])
    func rejectsAnythingButTheExactFormat(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test("every formatted timestamp parses back to its millisecond, years 0000 to 9999")
    func formattingRoundTripsThroughTheParser() throws {
        var random = SystemRandomNumberGenerator()
        let last: Int64 = 253_402_300_799_999 // 9999-12-31T23:59:59.999Z
        let edges: [Int64] = [0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, last]
        let randoms = (0..<20_000).map { _ in Int64.random(in: -62_167_219_200_000...last, using: &random) }
        for millis in edges + randoms {
            let text = Timestamp(millisecondsSinceEpoch: millis).description
            #expect(text.utf8.count == 24)
            #expect(Timestamp(text)?.millisecondsSinceEpoch == millis, "\(millis) formatted as \(text)")
        }
    }

    @Test func queryBoundsAcceptADateAsMidnightUTC() {
        #expect(Timestamp(queryBound: "2026-11-29")?.description == "2026-11-29T00:00:00.000Z")
        #expect(Timestamp(queryBound: "2026-11-2") == nil)
    }
}

@Suite("UUID text")
struct UUIDTextTests {
    @Test func acceptsEitherCaseAndChecksLowercaseOnlyOnRequest() {
        #expect(UUIDText.isUUID("0B9E2C3A-1234-4ABC-8DEF-0123456789AB"))
        #expect(!UUIDText.isLowercaseUUID("0B9E2C3A-1234-4ABC-8DEF-0123456789AB"))
        #expect(UUIDText.isLowercaseUUID("0b9e2c3a-1234-4abc-8def-0123456789ab"))
        #expect(!UUIDText.isUUID("0b9e2c3a12344abc8def0123456789ab"))
        #expect(!UUIDText.isUUID("0b9e2c3a-1234-4abc-8def-0123456789ag"))
    }

    @Test func refusesWrongLengthsMisplacedDashesAndNonASCIIAndChecksSubstringsAlike() {
        let uuid = "0b9e2c3a-1234-4abc-8def-0123456789ab"
        #expect(!UUIDText.isUUID(uuid + "0"))
        #expect(!UUIDText.isUUID(String(uuid.dropLast())))
        #expect(!UUIDText.isUUID("0b9e2c3a1-234-4abc-8def-0123456789ab"))
        #expect(!UUIDText.isUUID("0b9e2c3a-1234-4abc-8def-0123456789aé"))
        #expect(!UUIDText.isUUID(""))
        #expect(UUIDText.isLowercaseUUID(("{" + uuid + "}").dropFirst().dropLast()))
        #expect(!UUIDText.isUUID(("{" + uuid + "}").dropFirst()))
    }

    /// The check written plainly, byte by byte, as it was before the table.
    static func reference(_ bytes: [UInt8], from start: Int, lowercaseOnly: Bool) -> Bool {
        guard bytes.count == start + 36 else { return false }
        for offset in 0..<36 {
            let byte = bytes[start + offset]
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): break
                case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: break
                default: return false
                }
            }
        }
        return true
    }

    @Test func everyByteValueAtEveryPositionIsJudgedAsTheByteByByteCheckDoes() {
        let uuids = [
            "0b9e2c3a-1234-4abc-8def-0123456789ab", "0B9E2C3A-1234-4ABC-8DEF-0123456789AB",
            "ffffffff-ffff-4fff-bfff-ffffffffffff", "00000000-0000-4000-8000-000000000000"
        ]
        for uuid in uuids {
            for prefix in [[], Array("x-".utf8)] as [[UInt8]] {
                let valid = prefix + Array(uuid.utf8)
                for position in prefix.count..<valid.count {
                    for byte in UInt8(0)...UInt8(255) {
                        var bytes = valid
                        bytes[position] = byte
                        for lowercaseOnly in [false, true] {
                            let checked = bytes.withUnsafeBufferPointer {
                                UUIDText.isUUID($0, from: prefix.count, lowercaseOnly: lowercaseOnly)
                            }
                            #expect(
                                checked == Self.reference(bytes, from: prefix.count, lowercaseOnly: lowercaseOnly),
                                "\(uuid) byte \(byte) at \(position)")
                        }
                    }
                }
                // Too short and too long, and a start past the end.
                for bytes in [Array(valid.dropLast()), valid + [UInt8(ascii: "0")]] {
                    #expect(
                        !bytes.withUnsafeBufferPointer { UUIDText.isUUID($0, from: prefix.count, lowercaseOnly: false) }
                    )
                }
                #expect(
                    !valid.withUnsafeBufferPointer { UUIDText.isUUID($0, from: valid.count + 1, lowercaseOnly: false) })
            }
        }
    }
}
