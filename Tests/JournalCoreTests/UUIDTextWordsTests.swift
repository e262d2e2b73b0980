import JournalCore
import Testing

/// `UUIDText`'s words: a lowercase UUID's text and its two 64-bit words, both ways.
@Suite("UUID text and words")
struct UUIDTextWordsTests {
    @Test(arguments: [
        "00000000-0000-4000-8000-000000000000", "0b9e6f4a-3c21-4d8e-9f10-a1b2c3d4e5f6",
        "ffffffff-ffff-ffff-ffff-ffffffffffff", "01234567-89ab-cdef-0123-456789abcdef"
    ])
    func aLowercaseUUIDGivesWordsThatGiveItsTextBack(text: String) throws {
        let words = try #require(UUIDText.words(text))
        #expect(UUIDText.lowercaseText(high: words.high, low: words.low) == text)
        #expect(UUIDText.withText(high: words.high, low: words.low) { Array($0) } == Array(text.utf8))
    }

    @Test
    func theWordsAreTheBytesTheTextNamesInReadingOrder() throws {
        let words = try #require(UUIDText.words("01234567-89ab-cdef-fedc-ba9876543210"))
        #expect(words.high == 0x0123_4567_89AB_CDEF)
        #expect(words.low == 0xFEDC_BA98_7654_3210)
    }

    @Test
    func everyByteValueAtEveryPositionGivesWordsExactlyWhenTheTextIsALowercaseUUID() {
        let base = Array("0b9e6f4a-3c21-4d8e-9f10-a1b2c3d4e5f6".utf8)
        var mismatches = 0
        for position in 0..<36 {
            for byte in 0...255 {
                var bytes = base
                bytes[position] = UInt8(byte)
                let words = bytes.withUnsafeBufferPointer { UUIDText.words($0) }
                let isLowercaseUUID = bytes.withUnsafeBufferPointer {
                    UUIDText.isUUID($0, from: 0, lowercaseOnly: true)
                }
                if (words != nil) != isLowercaseUUID { mismatches += 1 }
                // Valid: the words give the same text back.
                if let words, UUIDText.withText(high: words.high, low: words.low, { Array($0) }) != bytes {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: [
        "0B9E6F4A-3C21-4D8E-9F10-A1B2C3D4E5F6", "0b9e6f4a-3c21-4d8e-9f10-a1b2c3d4e5f",
        "0b9e6f4a3c21-4d8e-9f10-a1b2c3d4e5f6a",
        "0b9e6f4a-3c21-4d8e-9f10-a1b2c3d4e5fg", "", "0b9e6f4a_3c21-4d8e-9f10-a1b2c3d4e5f6"
    ])
    func anythingButALowercaseUUIDHasNoWords(text: String) {
        #expect(UUIDText.words(text) == nil)
    }
}
