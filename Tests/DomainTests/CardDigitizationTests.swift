import Domain
import JournalCore
import Testing

/// Every rule of spec §3.2: the legal case is accepted, the illegal one refused with its reason.
@Suite("Card digitization rules")
struct CardDigitizationTests {
    private func expectAccepted(_ prefix: [Step], _ last: Step, sourceLocation: SourceLocation = #_sourceLocation) {
        let refused = rejection(cardStream, prefix, then: last)
        #expect(refused == nil, "refused: \(refused?.reason ?? "")", sourceLocation: sourceLocation)
    }

    private func expectRefused(
        _ prefix: [Step], _ last: Step, _ rule: Rejection.Rule, _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let refused = rejection(cardStream, prefix, then: last)
        #expect(refused?.rule == rule, sourceLocation: sourceLocation)
        #expect(refused?.reason == reason, sourceLocation: sourceLocation)
    }

    private func state(_ steps: [Step]) throws -> CardDigitization.State {
        try #require(try fold(cardStream, steps).cardState)
    }

    static let notEligible = Step(
        "EligibilityChecked", #"{"inputMethod":"bankApp","outcome":"notEligible","errorCode":"unknownBIN"}"#)

    @Test func streamMustBeginWithEligibilityChecked() {
        expectAccepted([], Card.eligible)
        expectRefused(
            [], Card.requested, .cardFirstEvent,
            "a card stream must begin with EligibilityChecked, got DigitizationRequested")
        expectRefused(
            [Card.eligible], Card.eligible, .cardEligibilityOnce,
            "EligibilityChecked is allowed as the first event only")
    }

    @Test func notEligibleIsTerminal() throws {
        #expect(try state([Self.notEligible]).outcomeKey == .notEligible)
        expectRefused(
            [Self.notEligible], Card.terms, .cardTerminal,
            "TermsAccepted cannot follow the terminal event EligibilityChecked (notEligible): "
                + "nothing may follow a terminal event"
        )
    }

    @Test func termsAreAcceptedOnceBeforeTheRequest() {
        expectAccepted([Card.eligible], Card.terms)
        expectRefused([Card.eligible, Card.terms], Card.terms, .cardTerms, "TermsAccepted is allowed once per journey")
        expectRefused(
            [Card.eligible, Card.requested], Card.terms, .cardTerms,
            "TermsAccepted must come before DigitizationRequested")
        expectRefused(Card.yellowPrefix, Card.terms, .cardTerms, "TermsAccepted must come before DigitizationRequested")
    }

    @Test func digitizationIsRequestedOnceAfterAnEligibleCheck() {
        expectAccepted([Card.eligible], Card.requested)
        expectRefused(
            [Card.eligible, Card.requested], Card.requested, .cardRequest,
            "DigitizationRequested is allowed once per journey")
        expectRefused(
            Card.yellowPrefix, Card.requested, .cardRequest, "DigitizationRequested is allowed once per journey")
    }

    @Test func decisionsComeRightAfterTheRequest() throws {
        let approved = Step("DigitizationApproved", #"{"digitalCardID":"DC-9"}"#)
        let declined = Step("DigitizationDeclined")
        expectAccepted([Card.eligible, Card.requested], approved)
        expectAccepted([Card.eligible, Card.requested], declined)
        expectAccepted([Card.eligible, Card.requested], Card.yellow)
        for decision in [approved, declined, Card.yellow] {
            expectRefused(
                [Card.eligible, Card.terms], decision, .cardDecision,
                "\(decision.type) must come right after DigitizationRequested")
            expectRefused(
                Card.yellowPrefix, decision, .cardDecision,
                "\(decision.type) must come right after DigitizationRequested; the decision was already made")
        }
        #expect(try state([Card.eligible, Card.requested, approved]).outcomeKey == .approved)
        #expect(try state([Card.eligible, Card.requested, declined]).outcomeKey == .declined)
        expectRefused(
            [Card.eligible, Card.requested, approved], Card.provisioned, .cardTerminal,
            "CPSNotificationReceived cannot follow the terminal event DigitizationApproved: "
                + "nothing may follow a terminal event"
        )
        expectRefused(
            [Card.eligible, Card.requested, declined], Card.provisioned, .cardTerminal,
            "CPSNotificationReceived cannot follow the terminal event DigitizationDeclined: "
                + "nothing may follow a terminal event"
        )
    }

    @Test(arguments: [
        "IDVMethodSelected", "ActivationRequired", "OTPSubmitted", "OTPRejected", "AppToAppResumed",
        "CPSNotificationReceived", "ActivatedByIDV", "ActivationInterrupted", "ActivationResumed",
        "ActivationCancelled", "ActivationExpired", "ActivationFailed"
    ])
    func activationEventsNeedTheYellowDecision(type: String) {
        let data: [String: String] = [
            "IDVMethodSelected": #"{"idvID":"sms"}"#, "ActivationRequired": #"{"state":"otpNeeded"}"#,
            "OTPSubmitted": #"{"otpLength":6}"#, "OTPRejected": #"{"reason":"incorrect"}"#,
            "AppToAppResumed": #"{"withTAV":true}"#,
            "CPSNotificationReceived": #"{"messageCode":"CBP.info.tokenProvisioned"}"#,
            "ActivationInterrupted": #"{"reason":"x"}"#,
            "ActivationFailed": #"{"reason":"other"}"#
        ]
        expectRefused(
            [Card.eligible, Card.requested], Step(type, data[type] ?? "{}"), .cardBeforeDecision,
            "\(type) requires the yellow decision (DigitizationApprovedWithIDV); the journey is digitization requested")
    }

    @Test func methodSelectionNeedsAnOfferedMethodWhileAwaitingSelection() {
        expectAccepted(Card.yellowPrefix, Card.select("sms"))
        expectRefused(
            Card.yellowPrefix, Card.select("fax"), .cardUnknownMethod,
            #"IDVMethodSelected.idvID must be one of the offered methods (sms, mail, a2a, "#
                + #"a2a-plain, call, web), got "fax""#
        )
        expectRefused(
            Card.yellowPrefix + [Card.select("sms")], Card.select("mail"), .cardMethodSelection,
            "IDVMethodSelected requires an activation awaiting a method selection; the journey is pending activation, "
                + "awaitingActivationRequired(otpNeeded)"
        )
    }

    @Test func activationRequiredFollowsAnOTPOrAppToAppSelectionWithTheMatchingState() {
        expectAccepted(Card.yellowPrefix + [Card.select("sms")], Card.required("otpNeeded"))
        expectAccepted(Card.yellowPrefix + [Card.select("a2a")], Card.required("appToAppSelected"))
        expectAccepted(
            Card.yellowPrefix + [
                Card.select("a2a"), Step("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenSuspended"}"#)
            ],
            Card.required("appToAppSelected"))
        expectRefused(
            Card.yellowPrefix + [Card.select("sms")], Card.required("appToAppSelected"), .cardActivationRequired,
            #"ActivationRequired.state must be "otpNeeded" (the selected method is otpBySMS), got "appToAppSelected""#)
        expectRefused(
            Card.yellowPrefix + [Card.select("call")], Card.required("otpNeeded"), .cardActivationRequired,
            "ActivationRequired must come right after selecting an OTP or appToApp method; the journey is "
                + "pending activation, awaitingIssuer"
        )
        expectRefused(
            Card.otpNeeded, Card.required("otpNeeded"), .cardActivationRequired,
            "ActivationRequired must come right after selecting an OTP or appToApp method; the journey "
                + "is pending activation, otpNeeded"
        )
    }

    @Test func otpIsSubmittedOnlyInOtpNeededAndOneAtATime() {
        expectAccepted(Card.otpNeeded, Card.otp)
        expectRefused(
            Card.yellowPrefix + [Card.select("sms")], Card.otp, .cardOTPSubmission,
            "OTPSubmitted requires the state otpNeeded; the journey is pending activation, "
                + "awaitingActivationRequired(otpNeeded)"
        )
        expectRefused(
            Card.otpNeeded + [Card.otp], Card.otp, .cardOTPSubmission,
            "OTPSubmitted while an earlier OTPSubmitted awaits its verdict: a second submission "
                + "before the verdict is rejected"
        )
    }

    @Test func otpRejectionNeedsASubmissionAndDecidesWhereTheJourneyGoes() throws {
        let incorrect = Step("OTPRejected", #"{"reason":"incorrect","attemptsRemaining":2}"#)
        let incorrectNoCount = Step("OTPRejected", #"{"reason":"incorrect"}"#)
        let exhausted = Step("OTPRejected", #"{"reason":"incorrect","attemptsRemaining":0}"#)
        let expired = Step("OTPRejected", #"{"reason":"expired","attemptsRemaining":3}"#)
        expectRefused(
            Card.otpNeeded, incorrect, .cardOTPVerdict,
            "OTPRejected requires an OTPSubmitted awaiting its verdict; the journey is pending activation, otpNeeded")
        #expect(try state(Card.otpNeeded + [Card.otp, incorrect]).activation?.step == .otpNeeded)
        #expect(try state(Card.otpNeeded + [Card.otp, incorrectNoCount]).activation?.step == .otpNeeded)
        #expect(try state(Card.otpNeeded + [Card.otp, exhausted]).activation?.step == .awaitingMethodSelection)
        #expect(try state(Card.otpNeeded + [Card.otp, expired]).activation?.step == .awaitingMethodSelection)
        expectAccepted(Card.otpNeeded + [Card.otp, incorrect], Card.otp)
        expectAccepted(Card.otpNeeded + [Card.otp, expired], Card.select("a2a-plain"))
        expectRefused(
            Card.otpNeeded + [Card.otp, expired], Card.otp, .cardOTPSubmission,
            "OTPSubmitted requires the state otpNeeded; the journey is pending activation, awaitingMethodSelection")
    }

    @Test func appToAppResumeMatchesTheSelectedMethodsCryptogram() throws {
        let withTAV = Step("AppToAppResumed", #"{"withTAV":true}"#)
        let withoutTAV = Step("AppToAppResumed", #"{"withTAV":false}"#)
        let crypto = Card.yellowPrefix + [Card.select("a2a"), Card.required("appToAppSelected")]
        let plain = Card.yellowPrefix + [Card.select("a2a-plain"), Card.required("appToAppSelected")]
        expectAccepted(crypto, withTAV)
        expectAccepted(plain, withoutTAV)
        expectRefused(
            crypto, withoutTAV, .cardAppToAppResume,
            "AppToAppResumed.withTAV must be true (the selected method's withCryptogram), got false")
        expectRefused(
            plain, withTAV, .cardAppToAppResume,
            "AppToAppResumed.withTAV must be false (the selected method's withCryptogram), got true")
        expectRefused(
            Card.yellowPrefix + [Card.select("a2a")], withTAV, .cardAppToAppResume,
            "AppToAppResumed requires the state appToAppSelected; the journey is pending activation, "
                + "awaitingActivationRequired(appToAppSelected)"
        )
        #expect(try state(plain + [withoutTAV]).activation?.step == .awaitingIssuer)
        #expect(try state(crypto).appToAppWithCryptogram == true)
    }

    @Test func activatedByIDVFollowsAnOTPSubmissionOrAResumeWithTAV() throws {
        let activated = Step("ActivatedByIDV")
        let suspended = Step("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenSuspended"}"#)
        expectAccepted(Card.otpNeeded + [Card.otp], activated)
        expectAccepted(
            Card.yellowPrefix + [
                Card.select("a2a"), Card.required("appToAppSelected"),
                Step("AppToAppResumed", #"{"withTAV":true}"#), suspended
            ], activated)
        expectRefused(
            Card.otpNeeded, activated, .cardActivatedByIDV,
            "ActivatedByIDV requires an OTPSubmitted awaiting its verdict or an AppToAppResumed with withTAV true; the "
                + "journey is pending activation, otpNeeded"
        )
        expectRefused(
            Card.yellowPrefix + [
                Card.select("a2a-plain"), Card.required("appToAppSelected"),
                Step("AppToAppResumed", #"{"withTAV":false}"#)
            ], activated, .cardActivatedByIDV,
            "ActivatedByIDV requires an OTPSubmitted awaiting its verdict or an AppToAppResumed with withTAV true; the "
                + "journey is pending activation, awaitingIssuer"
        )
        #expect(try state(Card.otpNeeded + [Card.otp, activated]).outcomeKey == .activated)
    }

    @Test func tokenProvisionedActivatesInAnyNonTerminalStateAfterTheYellowDecision() throws {
        let prefixes: [[Step]] = [
            Card.yellowPrefix, Card.yellowPrefix + [Card.select("call")], Card.otpNeeded, Card.otpNeeded + [Card.otp],
            Card.yellowPrefix + [Card.select("sms")],
            Card.yellowPrefix + [Step("ActivationInterrupted", #"{"reason":"appTerminated"}"#)]
        ]
        for prefix in prefixes {
            let ended = try state(prefix + [Card.provisioned])
            #expect(ended.outcomeKey == .activated)
            #expect(ended.activationOutcome == .activatedByIssuer)
        }
        let other = try state(
            Card.otpNeeded + [Step("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenResumed"}"#)])
        #expect(other == (try state(Card.otpNeeded)))
    }

    @Test func interruptionAllowsOnlyResumeCancelExpiryFailureOrAPush() {
        let interrupted = Card.otpNeeded + [Step("ActivationInterrupted", #"{"reason":"backgrounded"}"#)]
        expectAccepted(interrupted, Step("ActivationResumed"))
        expectAccepted(interrupted, Step("ActivationCancelled"))
        expectAccepted(interrupted, Step("ActivationExpired"))
        expectAccepted(interrupted, Step("ActivationFailed", #"{"reason":"other"}"#))
        expectAccepted(interrupted, Step("CPSNotificationReceived", #"{"messageCode":"CBP.info.tokenReplenished"}"#))
        let reason =
            "while interrupted only ActivationResumed, ActivationCancelled, ActivationExpired, ActivationFailed or "
            + "CPSNotificationReceived may follow, got "
        expectRefused(interrupted, Card.otp, .cardInterrupted, reason + "OTPSubmitted")
        expectRefused(
            interrupted, Step("ActivationInterrupted", #"{"reason":"again"}"#), .cardInterrupted,
            reason + "ActivationInterrupted")
        expectRefused(interrupted, Card.select("sms"), .cardInterrupted, reason + "IDVMethodSelected")
    }

    @Test func interruptionMayComeBetweenASelectionAndItsActivationRequired() {
        expectAccepted(
            Card.yellowPrefix + [Card.select("sms")], Step("ActivationInterrupted", #"{"reason":"networkLost"}"#))
        expectAccepted(Card.yellowPrefix + [Card.select("sms")], Step("ActivationCancelled"))
    }

    @Test func resumeNeedsAnInterruptionAndReturnsToMethodSelection() throws {
        let interrupted = Card.otpNeeded + [Step("ActivationInterrupted", #"{"reason":"appTerminated"}"#)]
        expectRefused(
            Card.otpNeeded, Step("ActivationResumed"), .cardResume,
            "ActivationResumed requires an interrupted activation; the journey is pending activation, otpNeeded")
        let resumed = try state(interrupted + [Step("ActivationResumed")])
        #expect(resumed.activation?.step == .awaitingMethodSelection)
        #expect(resumed.resumed)
    }

    @Test func afterAResumeAppToAppWithoutCryptogramIsNoLongerSelectable() {
        let interrupt = Step("ActivationInterrupted", #"{"reason":"appTerminated"}"#)
        let resumed = Card.yellowPrefix + [interrupt, Step("ActivationResumed")]
        expectAccepted(resumed, Card.select("a2a"))
        expectAccepted(resumed, Card.select("sms"))
        expectRefused(
            resumed, Card.select("a2a-plain"), .cardResumedAppToApp,
            #"IDVMethodSelected.idvID "a2a-plain" is an appToApp method without cryptogram, which "#
                + #"cannot be selected after a resume"#
        )
        // For the rest of the journey: still refused after an expired OTP sends it back to selection.
        let later =
            resumed + [
                Card.select("sms"), Card.required("otpNeeded"), Card.otp,
                Step("OTPRejected", #"{"reason":"expired"}"#)
            ]
        expectRefused(
            later, Card.select("a2a-plain"), .cardResumedAppToApp,
            #"IDVMethodSelected.idvID "a2a-plain" is an appToApp method without cryptogram, which "#
                + #"cannot be selected after a resume"#
        )
    }

    @Test(arguments: [
        "ActivationCancelled", "ActivationExpired", "ActivationFailed", "ActivatedByIDV", "CPSNotificationReceived"
    ])
    func nothingFollowsATerminalActivationEvent(type: String) throws {
        let terminal: Step
        switch type {
        case "ActivationFailed": terminal = Step(type, #"{"reason":"otpAttemptsExhausted"}"#)
        case "CPSNotificationReceived": terminal = Card.provisioned
        default: terminal = Step(type)
        }
        let prefix = Card.otpNeeded + [Card.otp, terminal]
        #expect(try state(prefix).isTerminal)
        expectRefused(
            prefix, Step("ActivationCancelled"), .cardTerminal,
            "ActivationCancelled cannot follow the terminal event \(type): nothing may follow a terminal event")
    }

    @Test func queriesReportTheActivation() throws {
        let steps =
            Card.yellowPrefix + [
                Card.select("mail"), Card.required("otpNeeded"), Card.otp,
                Step("OTPRejected", #"{"reason":"incorrect","attemptsRemaining":1}"#), Card.otp
            ]
        let current = try state(steps)
        #expect(current.selectedMethod?.type == .otpByEmail)
        #expect(current.attempts == 2)
        #expect(current.resumed == false)
        #expect(current.digitalCardID == "DC-1")
        #expect(current.outcomeKey == .open)
        #expect(current.activation?.otpRejections == 1)
    }
}
