import Domain
import JournalCore
import Testing

/// Masking for the rejects file and error reports, with the guard's own detection (spec §4).
@Suite("Sensitive data masking")
struct SensitiveDataMaskingTests {
    private func masked(_ json: String) -> String {
        JSONWriter.string(SensitiveDataGuard.masked(try! JSONParser().parse(json)).value)
    }

    @Test("each value the guard flags and each value under a forbidden key becomes \"[redacted]\"")
    func flaggedValuesAndForbiddenKeysAreRedacted() {
        #expect(
            masked(
                #"{"id":"0d1e2f30-4152-4637-8899-aabbccddeeff","data":{"note":"card 4111-1111-1111-1111 declined","#
                    + #""n":4111111111111111,"Otp":{"digits":"123456"},"ok":"12345678901234"}}"#
            )
                == #"{"id":"0d1e2f30-4152-4637-8899-aabbccddeeff","data":{"note":"[redacted]","n":"[redacted]","#
                + #""Otp":"[redacted]","ok":"12345678901234"}}"#
        )
        #expect(
            masked(#"{"meta":{"a":[1.50,{"cvv":null}]},"top":"4111 1111 1111 1111"}"#)
                == #"{"meta":{"a":[1.50,{"cvv":"[redacted]"}]},"top":"[redacted]"}"#)
        let clean = try! JSONParser().parse(#"{"a":1.50,"b":"2026-11-29T10:15:02.125Z"}"#)
        #expect(SensitiveDataGuard.masked(clean).changed == false)
    }

    @Test("text that is not JSON has every run of 13 to 19 digits redacted, separators included")
    func digitRunsInTextAreRedacted() {
        #expect(
            SensitiveDataGuard.maskedText("x 4111 1111 1111 1111, y 1234567890123, z 12345678901234567890")
                == "x [redacted], y [redacted], z 12345678901234567890")
        #expect(SensitiveDataGuard.maskedText("abc1234-5678-9012-3456def") == "abc[redacted]def")
        #expect(
            SensitiveDataGuard.maskedText("id 0d1e2f30-4152-4637-8899-aabbccddeeff at 2026-11-29T10:15:02.125Z")
                == "id 0d1e2f30-4152-4637-8899-aabbccddeeff at 2026-11-29T10:15:02.125Z")
        #expect(SensitiveDataGuard.maskedText("short 123456") == "short 123456")
    }

    @Test("a broken JSON line also has the value after a forbidden key redacted")
    func forbiddenKeysInBrokenJSONAreRedacted() {
        #expect(
            SensitiveDataGuard.maskedNonJSONLine(#"{"data": {"otp": "123456", "cvv":123, "tav": {"a": [1]}, "x": "ok""#)
                == #"{"data": {"otp": "[redacted]", "cvv":"[redacted]", "tav": "[redacted]", "x": "ok""#)
        #expect(SensitiveDataGuard.maskedNonJSONLine(#"{"pushToken": "abc"#) == #"{"pushToken": "[redacted]""#)
        #expect(SensitiveDataGuard.maskedNonJSONLine(#"{"note": "otp", "a": 1"#) == #"{"note": "otp", "a": 1"#)
    }
}
