/// A small hand-written NDJSON file for `journal demo`: a challenged 3-D Secure transaction
/// (OTP entered after a resend), a yellow-flow digitization activated by OTP after one wrong
/// code, and a frictionless transaction. Every line is legal under spec §3.
package enum DemoSample {
    package static let challengedStream = "3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b"
    package static let yellowStream = "card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84"
    package static let frictionlessStream = "3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b"

    package static let lines: [String] = [
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000001","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"TransactionCreated","occurredAt":"2026-11-29T10:15:02.125Z","data":{"directoryServerID":"A000000004",\#
        "messageVersion":"2.2.0"},"meta":{"platform":"iOS","sdkVersion":"2.4.1","appVersion":"5.12.0"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000002","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"AuthRequestParametersCreated","occurredAt":"2026-11-29T10:15:02.480Z",\#
        "data":{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":3140,\#
        "sdkAppIDRef":"app-ref-1"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000003","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"AuthResponseReceived","occurredAt":"2026-11-29T10:15:04.010Z",\#
        "data":{"threeDSServerTransID":"c0ffee00-1234-4abc-8def-0123456789ab","acsTransID":"acs-88121",\#
        "transStatus":"C"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000004","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeStarted","occurredAt":"2026-11-29T10:15:04.200Z","data":{"timeoutSeconds":600,\#
        "acsReferenceNumber":"ACS-REF-MC-01"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000005","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeRequestSent","occurredAt":"2026-11-29T10:15:04.350Z","data":{"sdkCounterStoA":"000",\#
        "action":"initial"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000006","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeResponseReceived","occurredAt":"2026-11-29T10:15:05.020Z","data":{"acsCounterAtoS":"000",\#
        "challengeCompletionInd":"N","acsUiType":"01"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000007","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeRequestSent","occurredAt":"2026-11-29T10:15:31.700Z","data":{"sdkCounterStoA":"001",\#
        "action":"resend"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000008","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeResponseReceived","occurredAt":"2026-11-29T10:15:32.150Z","data":{"acsCounterAtoS":"001",\#
        "challengeCompletionInd":"N","acsUiType":"01"}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-000000000009","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeRequestSent","occurredAt":"2026-11-29T10:15:58.640Z","data":{"sdkCounterStoA":"002",\#
        "action":"submitText","entryLength":6}}
        """#,
        #"""
        {"id":"a1b2c3d4-0001-4000-8000-00000000000a","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b",\#
        "type":"ChallengeResponseReceived","occurredAt":"2026-11-29T10:15:59.310Z","data":{"acsCounterAtoS":"002",\#
        "challengeCompletionInd":"Y","transStatus":"Y"}}
        """#,
        #"{"id":"a1b2c3d4-0001-4000-8000-00000000000b","stream":"3ds-7f3a9c1e-2b4d-4e8f-9a6b-1c2d3e4f5a6b","#
            + #""type":"ChallengeCompleted","occurredAt":"2026-11-29T10:15:59.400Z","data":{"transStatus":"Y"}}"#,
        #"""
        {"id":"b2c3d4e5-0002-4000-8000-000000000001","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84",\#
        "type":"EligibilityChecked","occurredAt":"2026-11-29T11:02:10.000Z","data":{"inputMethod":"manual",\#
        "outcome":"eligible"},"meta":{"platform":"Android","sdkVersion":"1.9.0"}}
        """#,
        #"{"id":"b2c3d4e5-0002-4000-8000-000000000002","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"TermsAccepted","occurredAt":"2026-11-29T11:02:25.500Z","data":{"tncDigest":"tnc-2026-10-v3"}}"#,
        #"{"id":"b2c3d4e5-0002-4000-8000-000000000003","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"DigitizationRequested","occurredAt":"2026-11-29T11:02:26.100Z","data":{"language":"en"}}"#,
        #"""
        {"id":"b2c3d4e5-0002-4000-8000-000000000004","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84",\#
        "type":"DigitizationApprovedWithIDV","occurredAt":"2026-11-29T11:02:28.900Z",\#
        "data":{"digitalCardID":"DC-4471-A","methods":[{"id":"sms-1","type":"otpBySMS"},{"id":"mail-1",\#
        "type":"otpByEmail"},{"id":"app-1","type":"appToApp","withCryptogram":true}]}}
        """#,
        #"{"id":"b2c3d4e5-0002-4000-8000-000000000005","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"IDVMethodSelected","occurredAt":"2026-11-29T11:02:40.000Z","data":{"idvID":"sms-1"}}"#,
        #"{"id":"b2c3d4e5-0002-4000-8000-000000000006","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"ActivationRequired","occurredAt":"2026-11-29T11:02:41.200Z","data":{"state":"otpNeeded"}}"#,
        #"{"id":"b2c3d4e5-0002-4000-8000-000000000007","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"OTPSubmitted","occurredAt":"2026-11-29T11:03:05.000Z","data":{"otpLength":6}}"#,
        #"""
        {"id":"b2c3d4e5-0002-4000-8000-000000000008","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84",\#
        "type":"OTPRejected","occurredAt":"2026-11-29T11:03:06.300Z","data":{"reason":"incorrect",\#
        "attemptsRemaining":2}}
        """#,
        #"{"id":"b2c3d4e5-0002-4000-8000-000000000009","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"OTPSubmitted","occurredAt":"2026-11-29T11:03:30.000Z","data":{"otpLength":6}}"#,
        #"{"id":"b2c3d4e5-0002-4000-8000-00000000000a","stream":"card-5E1B0C2A-77D4-4F0E-9C11-2B6A0F3D9E84","#
            + #""type":"ActivatedByIDV","occurredAt":"2026-11-29T11:03:31.800Z","data":{}}"#,
        #"""
        {"id":"c3d4e5f6-0003-4000-8000-000000000001","stream":"3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",\#
        "type":"TransactionCreated","occurredAt":"2026-11-29T12:40:00.000Z","data":{"directoryServerID":"A000000003",\#
        "messageVersion":"2.3.1"}}
        """#,
        #"""
        {"id":"c3d4e5f6-0003-4000-8000-000000000002","stream":"3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",\#
        "type":"AuthRequestParametersCreated","occurredAt":"2026-11-29T12:40:00.310Z",\#
        "data":{"sdkReferenceNumber":"3DS_LOA_SDK_NETC_020200_00001","deviceDataBytes":0}}
        """#,
        #"""
        {"id":"c3d4e5f6-0003-4000-8000-000000000003","stream":"3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b",\#
        "type":"AuthResponseReceived","occurredAt":"2026-11-29T12:40:01.050Z",\#
        "data":{"threeDSServerTransID":"d00dfeed-4321-4cba-8fed-ba9876543210","acsTransID":"acs-90210",\#
        "transStatus":"Y"}}
        """#,
        #"{"id":"c3d4e5f6-0003-4000-8000-000000000004","stream":"3ds-0b9e2f3c-4d5e-4a41-9a41-6f1c1f433a7b","#
            + #""type":"TransactionClosed","occurredAt":"2026-11-29T12:40:01.100Z","data":{}}"#
    ]

    /// The sample as NDJSON text.
    package static var text: String { lines.joined(separator: "\n") + "\n" }
}
