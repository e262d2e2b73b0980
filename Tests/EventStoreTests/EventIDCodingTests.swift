import Testing

@testable import EventStore

/// Event ids as stored: a lowercase canonical UUID as 16 bytes, any other spelling as its text.
@Suite("Event id coding")
struct EventIDCodingTests {
    @Test
    func aLowercaseUUIDPacksIntoItsSixteenBytesAndBack() throws {
        let id = "0123abcd-ef45-4678-9abc-def012345678"
        let words = try #require(EventIDCoding.packedWords(id))
        #expect(words.high == 0x0123_abcd_ef45_4678)
        #expect(words.low == 0x9abc_def0_1234_5678)
        let bytes = try #require(EventIDCoding.packed(id))
        #expect(
            bytes == [0x01, 0x23, 0xab, 0xcd, 0xef, 0x45, 0x46, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x56, 0x78])
        #expect(bytes.withUnsafeBytes { EventIDCoding.text(packed: $0) } == id)
    }

    @Test(arguments: [
        "0123ABCD-ef45-4678-9abc-def012345678", // upper case: kept as text, exactly as written
        "0123abcd-ef45-4678-9abc-def01234567g", // not a hex digit, last position
        "g123abcd-ef45-4678-9abc-def012345678", // not a hex digit, first position
        "0123abcd-ef45-4678-9abc/def012345678", // a separator that is not a dash
        "0123abcde-f45-4678-9abc-def012345678", // a dash out of place
        "0123abcd-ef45-4678-9abc-def01234567", // 35 characters
        "0123abcd-ef45-4678-9abc-def0123456789", // 37 characters
        ""
    ])
    func anythingButALowercaseCanonicalUUIDIsNotPacked(_ id: String) {
        #expect(EventIDCoding.packedWords(id) == nil)
        #expect(EventIDCoding.packed(id) == nil)
    }

    @Test
    func everyDigitPositionCountsInTheWords() throws {
        let zero = "00000000-0000-0000-0000-000000000000"
        let positions = zero.utf8.indices.filter { zero.utf8[$0] == UInt8(ascii: "0") }
        var seen = Set<String>()
        for index in positions {
            var bytes = Array(zero.utf8)
            bytes[zero.utf8.distance(from: zero.utf8.startIndex, to: index)] = UInt8(ascii: "f")
            let words = try #require(EventIDCoding.packedWords(String(decoding: bytes, as: UTF8.self)))
            #expect(words.high.nonzeroBitCount + words.low.nonzeroBitCount == 4)
            seen.insert("\(words.high)-\(words.low)")
        }
        #expect(seen.count == 32)
    }
}
