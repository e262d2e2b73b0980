import JournalCore
import Testing

@Suite("Input encodings and RFC 3339 time bounds")
struct InputEncodingTests {
    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    @Test func utf16IsToldByItsByteOrderMarkOrItsNULBytes() {
        let line = #"{"id":"6f1c1f43","stream":"3ds-x"}"#
        #expect(
            InputEncoding.sniff([0xFF, 0xFE] + Self.utf16(line, bigEndian: false))
                == .utf16(bigEndian: false, byteOrderMark: true))
        #expect(
            InputEncoding.sniff([0xFE, 0xFF] + Self.utf16(line, bigEndian: true))
                == .utf16(bigEndian: true, byteOrderMark: true))
        #expect(
            InputEncoding.sniff(Self.utf16(line, bigEndian: false)) == .utf16(bigEndian: false, byteOrderMark: false))
        #expect(InputEncoding.sniff(Self.utf16(line, bigEndian: true)) == .utf16(bigEndian: true, byteOrderMark: false))
        #expect(InputEncoding.sniff(Array(line.utf8)) == .utf8(byteOrderMark: false))
        #expect(InputEncoding.sniff([0xEF, 0xBB, 0xBF] + Array(line.utf8)) == .utf8(byteOrderMark: true))
        // One stray NUL in UTF-8 text is a bad line, not a UTF-16 file.
        #expect(InputEncoding.sniff(Array(#"{"a":1}"#.utf8) + [0] + Array(line.utf8)) == .utf8(byteOrderMark: false))
        #expect(InputEncoding.sniff([UInt8]()) == .utf8(byteOrderMark: false))
        #expect(InputEncoding.sniff([0x7B]) == .utf8(byteOrderMark: false))
    }

    @Test func theProblemNamesTheIconvCommandForTheByteOrder() {
        #expect(
            InputEncoding.utf16(bigEndian: false, byteOrderMark: true).problem()
                == "this file is UTF-16; convert it with iconv -f UTF-16 -t UTF-8")
        #expect(
            InputEncoding.utf16(bigEndian: true, byteOrderMark: false).problem(what: "body")
                == "this body is UTF-16 (big-endian, without a byte order mark); "
                + "convert it with iconv -f UTF-16BE -t UTF-8"
        )
        #expect(InputEncoding.utf8(byteOrderMark: true).problem() == nil)
        #expect(InputEncoding.utf8(byteOrderMark: true).skippedByteCount == 3)
    }

    @Test func timeBoundsTakeRFC3339UTCWithZeroToNineFractionDigits() {
        let exact = Timestamp("2026-11-29T10:00:00.000Z")
        #expect(exact != nil)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00Z") == exact)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.0Z") == exact)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.000000000Z") == exact)
        #expect(Timestamp(queryBound: "2026-11-29t10:00:00z") == exact)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00+00:00") == exact)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.5Z")?.description == "2026-11-29T10:00:00.500Z")
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.12Z")?.description == "2026-11-29T10:00:00.120Z")
        // Finer than a millisecond: the next millisecond, so ≥ and < keep the same events.
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.0001Z")?.description == "2026-11-29T10:00:00.001Z")
        #expect(Timestamp(queryBound: "2026-11-29T23:59:59.999000001Z")?.description == "2026-11-30T00:00:00.000Z")
        // Refused: ten digits, an empty fraction, another offset, an impossible date.
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.0000000000Z") == nil)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00.Z") == nil)
        #expect(Timestamp(queryBound: "2026-11-29T10:00:00+01:00") == nil)
        #expect(Timestamp(queryBound: "2026-02-30T10:00:00Z") == nil)
        #expect(Timestamp(queryBound: "2026-11-29 10:00:00Z") == nil)
        // The envelope's own format stays strict.
        #expect(Timestamp("2026-11-29T10:00:00Z") == nil)
    }
}
