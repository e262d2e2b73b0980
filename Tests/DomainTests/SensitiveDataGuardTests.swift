import Domain
import JournalCore
import Testing

@Suite("Sensitive data guard")
struct SensitiveDataGuardTests {
    private func violation(_ data: String, meta: String? = nil) -> SensitiveDataViolation? {
        SensitiveDataGuard.check(data: value(data), meta: meta.map(value))
    }

    static let forbiddenKeys = [
        "otp", "otpValue", "challengeDataEntry", "challengeHTMLDataEntry", "tav", "cryptogram",
        "pan", "cardNumber", "cvv", "cvc", "pushToken"
    ]

    @Test("every forbidden key is refused at several depths and letter cases", arguments: forbiddenKeys)
    func forbiddenKeysAreRefusedAtAnyDepthAndCase(key: String) {
        for spelling in [key, key.uppercased(), key.lowercased(), String(key.prefix(1)).uppercased() + key.dropFirst()]
        {
            #expect(violation(#"{"\#(spelling)":"x"}"#)?.path == "data.\(spelling)")
            #expect(violation(#"{"challenge":{"\#(spelling)":1}}"#)?.path == "data.challenge.\(spelling)")
            #expect(violation(#"{"a":[{"b":[0,{"\#(spelling)":null}]}]}"#)?.path == "data.a[0].b[1].\(spelling)")
            #expect(violation("{}", meta: #"{"items":[{"\#(spelling)":true}]}"#)?.path == "meta.items[0].\(spelling)")
            #expect(violation(#"{"\#(spelling)":"x"}"#)?.kind == .forbiddenKey)
        }
    }

    @Test func theContractExamplesAreJudgedAsWritten() {
        #expect(violation(#"{"note":"4111 1111 1111 1111"}"#)?.path == "data.note")
        #expect(violation(#"{"note":"card 4111-1111-1111-1111 declined"}"#)?.path == "data.note")
        #expect(violation(#"{"at":"2026-11-29T10:15:02.125Z"}"#) == nil)
        #expect(violation(#"{"id":"0b9e5a4c-7f1e-4c7a-9d8e-2f4b6a1c3d5e"}"#) == nil)
    }

    @Test func cardNumbersInStringsAreRefused() {
        #expect(violation(#"{"v":"4111111111111111"}"#)?.kind == .cardNumber)
        #expect(violation(#"{"v":"5555555555554444"}"#) != nil)
        #expect(violation(#"{"v":"378282246310005"}"#) != nil) // 15 digits (Amex)
        #expect(violation(#"{"v":"pay with 4111111111111111."}"#) != nil)
        #expect(violation(#"{"v":"(4111111111111111)"}"#) != nil)
        #expect(violation("{}", meta: #"{"items":["ok","fine","4111 1111 1111 1111"]}"#)?.path == "meta.items[2]")
        #expect(violation(#"{"v":"4111 1111 1111 1111 and 1234"}"#) != nil)
        #expect(violation(#"{"v":"6011000990139424"}"#) != nil)
        #expect(violation(#"{"v":"4111111111111111 é"}"#) != nil)
    }

    @Test func cardNumbersAsBigIntegersAreRefusedFromTheirText() {
        #expect(violation(#"{"v":4111111111111111}"#)?.path == "data.v")
        #expect(violation(#"{"v":1234567890123}"#) != nil) // 13 digits
        #expect(violation(#"{"v":1234567890123456789}"#) != nil) // 19 digits, beyond Double precision
        #expect(violation(#"{"v":[1,4111111111111111]}"#)?.path == "data.v[1]")
    }

    @Test func numbersThatAreNotCardNumbersAreAccepted() {
        #expect(violation(#"{"v":123456789012}"#) == nil) // 12 digits
        #expect(violation(#"{"v":12345678901234567890}"#) == nil) // 20 digits
        #expect(violation(#"{"v":-4111111111111111}"#) == nil) // sign
        #expect(violation(#"{"v":4111111111111111.0}"#) == nil) // fraction
        #expect(violation(#"{"v":4.111111111111111e15}"#) == nil) // exponent
        #expect(violation(#"{"otpLength":6,"deviceDataBytes":4096}"#) == nil)
    }

    @Test func stringsThatAreNotCardNumbersAreAccepted() {
        #expect(violation(#"{"v":"4111111111111112"}"#) == nil) // fails Luhn
        #expect(violation(#"{"v":"41111111111111111111"}"#) == nil) // 20 digits
        #expect(violation(#"{"v":"4111 1111 1111 1111 1111"}"#) == nil) // 20 digits with spaces
        #expect(violation(#"{"v":"4111  1111  1111  1111"}"#) == nil) // double spaces split the run
        #expect(violation(#"{"v":"4111--1111--1111--1111"}"#) == nil) // double dashes split the run
        #expect(violation(#"{"v":"x4111111111111111"}"#) == nil) // touched by a letter
        #expect(violation(#"{"v":"4111111111111111x"}"#) == nil)
        #expect(violation(#"{"v":"é4111111111111111"}"#) == nil) // a letter of another script
        #expect(violation(#"{"v":"٣4111111111111111"}"#) == nil) // a digit of another script
        #expect(violation(#"{"v":"4111111111111111٣"}"#) == nil)
        #expect(violation(#"{"v":"411111111111"}"#) == nil) // 12 digits
        #expect(violation(#"{"v":"8A880DC0-D2D2-4067-BCB1-B08D1690B26E"}"#) == nil)
        #expect(violation(#"{"v":"12345678-1234-1234-1234-123456789012"}"#) == nil)
        #expect(violation(#"{"pushTokenRef":"hmac-4f1c","otpLength":8,"tncDigest":"abc"}"#) == nil)
        #expect(violation(#"{"ts":"2026-11-29T10:15:02.125Z","range":"2026-11-29/2026-12-01"}"#) == nil)
    }

    @Test func keysAreNotSearchedForCardNumbers() {
        #expect(violation(#"{"4111111111111111":"value"}"#) == nil)
    }

    @Test func keysThatMerelyContainAForbiddenWordAreAccepted() {
        #expect(
            violation(#"{"otpLength":6,"panLast4":"1111","tavPresent":true,"cvvChecked":false,"pushTokenRef":"r"}"#)
                == nil)
    }

    @Test func theViolationNeverEchoesTheValue() {
        let found = violation(#"{"note":"card 4111-1111-1111-1111 declined"}"#)
        #expect(found?.description.contains("4111") == false)
        #expect(found?.description == "sensitive data: data.note holds a value that looks like a card number")
        let key = violation(#"{"challenge":{"OTP":"123456"}}"#)
        #expect(key?.description.contains("123456") == false)
        #expect(key?.path == "data.challenge.OTP")
    }

    @Test func oddKeysAreQuotedInThePath() {
        #expect(violation(#"{"a b":{"x":"4111111111111111"}}"#)?.path == #"data["a b"].x"#)
    }

    @Test func luhnCheckFollowsTheAlgorithm() {
        #expect(SensitiveDataGuard.passesLuhn([7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 3]))
        #expect(!SensitiveDataGuard.passesLuhn([7, 9, 9, 2, 7, 3, 9, 8, 7, 1, 4]))
    }
}

extension SensitiveDataGuardTests {
    @Test func nonASCIILetterCasesOfAForbiddenKeyAreRefused() {
        // U+212A KELVIN SIGN lowercases to `k`.
        #expect(SensitiveDataGuard.isForbiddenKey("pushTo\u{212A}en"))
        #expect(!SensitiveDataGuard.isForbiddenKey("pushTökën"))
        #expect(!SensitiveDataGuard.isForbiddenKey("pa"))
        #expect(SensitiveDataGuard.isForbiddenKey("ChallengeHTMLDataEntry"))
    }
}

extension SensitiveDataGuardTests {
    @Test func aMembersBytesAreJudgedAsItsTextIs() {
        let spellings = SensitiveDataGuardTests.forbiddenKeys.flatMap { [$0, $0.uppercased(), $0 + "Ref"] }
        let keys = spellings + ["pa", "", "x", "4111111111111111", "pushTo\u{212A}en", "pushTökën", "status"]
        for key in keys {
            let fromBytes = Array(key.utf8).withUnsafeBytes { SensitiveDataGuard.isForbiddenKey(ascii: $0) }
            #expect(fromBytes == SensitiveDataGuard.isForbiddenKey(key), "key \(key)")
        }
        let integers = [
            "0", "123456789012", "1234567890123", "1234567890123456789", "12345678901234567890", "-4111111111111111"
        ]
        for text in integers {
            let fromBytes = Array(text.utf8).withUnsafeBytes { SensitiveDataGuard.isCardNumberInteger($0) }
            #expect(fromBytes == SensitiveDataGuard.isCardNumberInteger(text), "integer \(text)")
        }
        let strings = [
            "", "ok", "4111111111111111", "4111111111111112", "card 4111-1111-1111-1111 declined", "411111111111",
            "x4111111111111111", "4111111111111111 é", "é4111111111111111", "8A880DC0-D2D2-4067-BCB1-B08D1690B26E",
            "12345678-1234-1234-1234-123456789012", "2026-11-29T10:15:02.125Z"
        ]
        for string in strings {
            let fromBytes = Array(string.utf8).withUnsafeBytes { SensitiveDataGuard.containsCardNumber($0) }
            #expect(fromBytes == SensitiveDataGuard.containsCardNumber(string), "string \(string)")
        }
    }
}
