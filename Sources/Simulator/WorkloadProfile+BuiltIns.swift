/// The built-in profiles. `default` is the realistic mix; the others change a few figures of it.
///
/// Sources: `domain-3ds.md` §7 and `domain-tokenization.md` §7 (the team's collection of public
/// figures, quoted below with their original publication), docs/spec.md (hard limits), and our
/// assumptions, labelled `[A]`: no public figure exists for them, they are placeholders until
/// production telemetry replaces them.
extension WorkloadProfile {
    /// The names `--profile` accepts, in the order `--help` lists them.
    public static let builtInNames = ["default", "europe", "north-america", "peak", "coverage"]

    /// The built-in profile called `name`, or nil.
    public static func builtIn(named name: String) -> WorkloadProfile? {
        switch name {
        case "default": return .realistic
        case "europe": return .europe
        case "north-america": return .northAmerica
        case "peak": return .peak
        case "coverage": return .coverage
        default: return nil
        }
    }

    private static func weights(_ entries: KeyValuePairs<String, Int64>) -> FigureValue {
        .weights(entries.map { WeightEntry($0.key, $0.value) })
    }

    private static func derived(
        from base: WorkloadProfile, name: String, summary: String,
        _ overrides: [ProfileFigure]
    ) -> WorkloadProfile {
        do {
            var profile = try base.merging(overrides, name: name)
            profile.summary = summary
            return profile
        } catch {
            preconditionFailure("built-in profile \(name): \(error)")
        }
    }

    /// The realistic mix of a day of production traffic.
    public static let realistic = WorkloadProfile(
        name: "default",
        summary: "a day of production traffic: public figures where they exist, labelled assumptions elsewhere",
        figures: [
            // Traffic shape.
            ProfileFigure(
                "traffic.arrivalsPerSecond", .integer(40),
                source: "[A] a mid-size issuer's SDK fleet: 40 new journeys per second at the daily mean"),
            ProfileFigure(
                "traffic.hourlyShape",
                .integers([
                    35, 25, 18, 15, 15, 22, 40, 65, 90, 105, 115, 120,
                    125, 120, 115, 115, 120, 130, 145, 155, 150, 130, 95, 60
                ]),
                source:
                    "[A] relative arrival rate per UTC hour (mean 100): night trough, "
                    + "lunch and evening e-commerce peaks"
            ),
            ProfileFigure(
                "traffic.maxInFlight", .integer(5_000),
                source: "[A] at most this many journeys open at once; a later arrival "
                    + "waits for a slot (bounds memory)"),
            ProfileFigure(
                "traffic.skewedDevices", .percent(8),
                source: "[A] share of devices whose clock is off; their occurredAt is shifted for the whole journey"),
            ProfileFigure(
                "traffic.deviceClockSkew", .delay(.uniform(200, 120_000)),
                source: "[A] size of a device clock error, either sign"),
            ProfileFigure(
                "traffic.uploadDelay", .delay(.logNormal(median: 150, sigma: 0.8, 20, 10_000)),
                source: "[A] from the step on the device to the journal (recordedAt); mobile network round trips"),
            ProfileFigure(
                "traffic.timeOrderedEventIDs", .percent(0),
                source: "[A] journeys whose producer writes UUIDv7 event ids (RFC 9562) instead of random v4; "
                    + "the SDKs write v4 today (docs/eventstore.md measures what v7 saves the store)"),
            ProfileFigure(
                "traffic.platforms", weights(["iOS": 55, "Android": 45]),
                source: "[A] platform of the SDK, written to the first event's meta"),

            // 3-D Secure.
            ProfileFigure(
                "threeDS.directoryServers",
                weights([
                    "A000000003": 46, "A000000004": 37, "A000000025": 7,
                    "A000000324": 2, "A000000042": 6, "F055545342": 1,
                    "F155545342": 1
                ]),
                source:
                    "[A] Visa and Mastercard carry most card payments; Cartes Bancaires for French cards; "
                    + "test DSs for integration traffic"
            ),
            ProfileFigure(
                "threeDS.customDirectoryServer", .percent(0.5),
                source: "[A] transactions on a directory server outside the SDK's list (customCertificate: true)"),
            ProfileFigure(
                "threeDS.customDirectoryServers", weights(["A000000065": 40, "A000000333": 35, "A000000152": 25]),
                source: "registered RIDs of JCB, UnionPay and Diners/Discover, not in the built-in list; shares [A]"),
            ProfileFigure(
                "threeDS.messageVersions", weights(["2.1.0": 10, "2.2.0": 60, "2.3.0": 5, "2.3.1": 25]),
                source: "[A] 2.2.0 dominant, 2.1.0 retiring, 2.3.1 ramping up"),
            ProfileFigure(
                "threeDS.warnings", .percent(5),
                source: "[A] transactions created with SDK security warnings (SW01–SW05)"),
            ProfileFigure(
                "threeDS.noDeviceData", .percent(3),
                source: "[A] AReq without device data (deviceDataBytes 0)"),
            ProfileFigure(
                "threeDS.abandonAfterCreate", .percent(1),
                source: "[A] app closed right after the transaction was created"),
            ProfileFigure(
                "threeDS.abandonAfterAuthParameters", .percent(1),
                source: "[A] no ARes ever recorded (checkout left before the 3DS server answered)"),
            ProfileFigure(
                "threeDS.authResponse", weights(["Y": 55, "A": 3, "C": 33, "D": 2, "N": 3, "U": 2, "R": 1, "I": 1]),
                source: "domain-3ds.md §7 suggested defaults (ours), C split into C and D; frictionless Y+A = 58 %, "
                    + "the global figure of the Ravelin Global Payments Report 2026"),
            ProfileFigure(
                "threeDS.abandonBeforeChallenge", .percent(2),
                source: "[A] challenge required but never started (app closed): the transaction is closed"),
            ProfileFigure(
                "threeDS.sdkStep", .delay(.uniform(20, 800)),
                source: "[A] a step on the device: device data collection, the app calling the next SDK method"),
            ProfileFigure(
                "threeDS.authLatency", .delay(.logNormal(median: 1_200, sigma: 0.5, 300, 10_000)),
                source: "[A] AReq to ARes through 3DS server, DS and ACS"),
            ProfileFigure(
                "threeDS.timeoutSeconds", weights(["300": 70, "600": 20, "900": 10]),
                source: "spec §3.1: at least 300 s (the SDK minimum); shares [A]"),
            ProfileFigure(
                "threeDS.challengeOutcome",
                weights([
                    "completedY": 78, "completedN": 6, "cancelled": 8, "timedOut": 5,
                    "protocolError": 2, "runtimeError": 1
                ]),
                source: "domain-3ds.md §7 suggested defaults; cancel + timeout = 13 % lies in the 8–15 % "
                    + "challenge abandonment Vortex IQ calls healthy"),
            ProfileFigure(
                "threeDS.uiTypes", weights(["01": 58, "02": 1, "03": 1, "04": 28, "05": 8, "06": 2, "07": 2]),
                source: "domain-3ds.md §7 (01 60 %, 04 30 %, 05 8 %, 02/03 2 %); 06 and 07 [A], only on 2.3.x"),
            ProfileFigure(
                "threeDS.otpSubmissions", weights(["1": 85, "2": 12, "3": 3]),
                source: "domain-3ds.md §7 suggested defaults (no public figure for OTP retries)"),
            ProfileFigure(
                "threeDS.resend", .percent(10),
                source: "domain-3ds.md §7: resend in 10 % of text challenges [A]"),
            ProfileFigure(
                "threeDS.extraScreen", .percent(10),
                source: "[A] multi-round challenges: an information or selection screen before the step-up"),
            ProfileFigure(
                "threeDS.protocolErrorCodes",
                weights([
                    "101": 10, "201": 20, "202": 4, "203": 30, "301": 8,
                    "302": 14, "402": 10, "102": 2, "207": 2
                ]),
                source: "domain-3ds.md §4.1 codes (SDK codes, plus 102 and 207 passed on); shares [A], 203 and 201 "
                    + "first after Adyen/adyen-3ds2-ios#21 and Adyen/adyen-ios#621"),
            ProfileFigure(
                "threeDS.runtimeErrorCodes",
                weights([
                    "1002": 40, "-1009": 20, "3840": 8, "2000": 5, "204": 5,
                    "STDSRuntimeErrorCodeEncryptionError": 12,
                    "STDSRuntimeErrorCodeParsingError": 10
                ]),
                source: "domain-3ds.md §4.3 runtime codes; shares [A] (read timeouts and offline devices first)"),
            ProfileFigure(
                "threeDS.creqToCres", .delay(.logNormal(median: 800, sigma: 0.6, 300, 10_000)),
                source: "domain-3ds.md §7: CReq→CRes 0.3–2 s log-normal, the 10 s read cap bounds it"),
            ProfileFigure(
                "threeDS.thinkTime", .delay(.logNormal(median: 25_000, sigma: 0.6, 3_000, 240_000)),
                source: "domain-3ds.md §7: user think time 10–60 s"),
            ProfileFigure(
                "threeDS.oobTime", .delay(.logNormal(median: 45_000, sigma: 0.6, 10_000, 280_000)),
                source: "domain-3ds.md §7: OOB (banking app) 20–120 s"),

            // Card digitization.
            ProfileFigure(
                "card.inputMethods", weights(["manual": 50, "bankApp": 40, "pushSession": 10]),
                source: "[A] manual entry in the wallet, push from the bank's app, push session"),
            ProfileFigure("card.notEligible", .percent(6), source: "[A] eligibility refusals"),
            ProfileFigure(
                "card.eligibilityErrors",
                weights([
                    "fpanNotEligible": 40, "unknownBIN": 20, "incorrectCVV": 20,
                    "cardAlreadyProvisionedInWallet": 15, "deviceNotEligible": 5
                ]),
                source: "domain-tokenization.md (Thales EligibleError cases); shares [A]"),
            ProfileFigure(
                "card.termsAccepted", .percent(85),
                source: "[A] journeys recording the T&C acceptance (bank-app pushes may skip the screen)"),
            ProfileFigure(
                "card.decisionManual", weights(["green": 10, "yellow": 80, "red": 10]),
                source: "domain-tokenization.md §7: manual entry is typically yellow; shares [A]"),
            ProfileFigure(
                "card.decisionFromApp", weights(["green": 85, "yellow": 12, "red": 3]),
                source: "domain-tokenization.md §7: push from the issuer's app is typically green; shares [A]"),
            ProfileFigure(
                "card.methodsOffered", weights(["1": 15, "2": 35, "3": 30, "4": 12, "5": 8]),
                source: "[A] number of ID&V methods the issuer offers"),
            ProfileFigure(
                "card.methodTypes",
                weights([
                    "otpBySMS": 55, "otpByEmail": 20, "appToApp": 15,
                    "customerService": 7, "webService": 3
                ]),
                source: "domain-tokenization.md §7: method offered/selected [A]"),
            ProfileFigure(
                "card.appToAppWithCryptogram", .percent(50),
                source: "[A] appToApp methods whose issuer app returns a TAV"),
            ProfileFigure(
                "card.otpSuccessByAttempt", .integers([80, 60, 50]),
                source: "domain-tokenization.md §7: per-attempt OTP success 1st 80 %, 2nd 60 %, 3rd 50 % [A]"),
            ProfileFigure(
                "card.otpAttemptsPerCode", .integer(3),
                source: "domain-tokenization.md §7: 3 wrong entries and the method must be re-selected (Lithic, MDES)"),
            ProfileFigure(
                "card.otpExpired", .percent(5),
                source: "[A] codes typed after their 10–30 min expiry (domain-tokenization.md §7)"),
            ProfileFigure(
                "card.otpCountMissing", .percent(5),
                source: "[A] wrong codes reported without attemptsRemaining"),
            ProfileFigure(
                "card.failAfterExhausted", .percent(60),
                source: "[A] journeys that fail (otpAttemptsExhausted) rather than "
                    + "re-select after the last wrong code"),
            ProfileFigure(
                "card.interruption", .percent(3),
                source:
                    "domain-tokenization.md §7: 10 % of yellow journeys interrupted "
                    + "[A]; 3 % per step gives about that"),
            ProfileFigure(
                "card.afterInterruption",
                weights([
                    "resume": 55, "cancel": 15, "expire": 15, "issuerActivates": 10,
                    "fail": 5
                ]),
                source: "domain-tokenization.md §7: 50 % of interrupted journeys "
                    + "resumed within 24 h [A]; the rest [A]"),
            ProfileFigure(
                "card.issuerCompletion", .percent(60),
                source: "domain-tokenization.md §7: off-band completion (web, call) 60 % [A]"),
            ProfileFigure(
                "card.issuerDelay", .delay(.logNormal(median: 3_600_000, sigma: 1.5, 300_000, 172_800_000)),
                source: "domain-tokenization.md §7: CPS push after 5 min – 48 h [A]"),
            ProfileFigure(
                "card.outOfBandActivation", .percent(1),
                source: "[A] per step: the issuer activates out of band (tokenProvisioned at any point)"),
            ProfileFigure(
                "card.otherNotification", .percent(4),
                source: "[A] per step: a non-activating CPS push (token replenished, certificate renewed)"),
            ProfileFigure("card.cancel", .percent(2), source: "[A] per step: the user cancels the activation"),
            ProfileFigure(
                "card.failure", .percent(1),
                source: "domain-tokenization.md §7: 2 % network errors [A]; per step (deviceUnsafe, idvFailed, other)"),
            ProfileFigure("card.expiry", .percent(1), source: "[A] per step: the pending activation session expires"),
            ProfileFigure(
                "card.expiryDelay", .delay(.logNormal(median: 1_800_000, sigma: 0.8, 600_000, 86_400_000)),
                source: "[A] D1 session lifetime (configurable); MDES keeps inactive tokens 30 days"),
            ProfileFigure(
                "card.smsDelay", .delay(.logNormal(median: 45_000, sigma: 0.6, 10_000, 600_000)),
                source: "domain-tokenization.md §7: SMS delivery + typing, log-normal median 45 s"),
            ProfileFigure(
                "card.emailDelay", .delay(.logNormal(median: 120_000, sigma: 0.6, 20_000, 900_000)),
                source: "domain-tokenization.md §7: email delivery + typing, log-normal median 120 s"),
            ProfileFigure(
                "card.appToAppDelay", .delay(.logNormal(median: 20_000, sigma: 0.7, 3_000, 300_000)),
                source: "[A] switching to the bank's app, log-in and back"),
            ProfileFigure(
                "card.thinkTime", .delay(.logNormal(median: 8_000, sigma: 0.8, 1_000, 120_000)),
                source: "[A] reading a screen and tapping"),
            ProfileFigure(
                "card.serverLatency", .delay(.logNormal(median: 1_500, sigma: 0.5, 300, 30_000)),
                source: "[A] TSP and issuer round trip; the SDK's 30 s read timeout caps it (Thales config)"),
            ProfileFigure(
                "card.resumeDelay", .delay(.logNormal(median: 3_600_000, sigma: 1.2, 60_000, 86_400_000)),
                source: "domain-tokenization.md §7: resumed within 24 h [A]")
        ])

    /// European issuers: more frictionless (Ravelin 2026: Europe 62 %).
    public static let europe = derived(
        from: .realistic, name: "europe",
        summary: "European traffic: 62 % frictionless, more Cartes Bancaires",
        [
            ProfileFigure(
                "threeDS.authResponse", weights(["Y": 59, "A": 3, "C": 29, "D": 2, "N": 3, "U": 2, "R": 1, "I": 1]),
                source: "Ravelin Global Payments Report 2026: Europe 62 % frictionless (Y+A); the rest as default"),
            ProfileFigure(
                "threeDS.directoryServers",
                weights([
                    "A000000003": 42, "A000000004": 36, "A000000025": 4,
                    "A000000324": 1, "A000000042": 15, "F055545342": 1,
                    "F155545342": 1
                ]),
                source: "[A] Cartes Bancaires co-badged cards weigh more in Europe")
        ])

    /// North American issuers: fewer frictionless (Ravelin 2026: 54 %).
    public static let northAmerica = derived(
        from: .realistic, name: "north-america",
        summary: "North American traffic: 54 % frictionless, no Cartes Bancaires",
        [
            ProfileFigure(
                "threeDS.authResponse", weights(["Y": 51, "A": 3, "C": 37, "D": 2, "N": 3, "U": 2, "R": 1, "I": 1]),
                source: "Ravelin Global Payments Report 2026: North America 54 % frictionless (Y+A)"),
            ProfileFigure(
                "threeDS.directoryServers",
                weights([
                    "A000000003": 50, "A000000004": 33, "A000000025": 11,
                    "A000000324": 4, "A000000042": 0, "F055545342": 1,
                    "F155545342": 1
                ]),
                source: "[A] Amex and Discover weigh more; no Cartes Bancaires")
        ])

    /// A sales peak: ten times the arrivals, four times the concurrency.
    public static let peak = derived(
        from: .realistic, name: "peak",
        summary: "a sales peak (Black Friday): 10× arrivals, 4× concurrency",
        [
            ProfileFigure("traffic.arrivalsPerSecond", .integer(400), source: "[A] ten times the daily mean"),
            ProfileFigure("traffic.maxInFlight", .integer(20_000), source: "[A] four times the default")
        ])

    /// Not realistic: flatter shares so that every path shows up in a few thousand journeys.
    /// The default of ``JourneyGenerator`` (tests); `journal simulate --profile coverage`.
    public static let coverage = derived(
        from: .realistic, name: "coverage",
        summary: "not realistic: rare paths boosted so that every path shows up in small runs",
        [
            ProfileFigure("threeDS.customDirectoryServer", .percent(3), source: "coverage"),
            ProfileFigure(
                "threeDS.messageVersions", weights(["2.1.0": 15, "2.2.0": 35, "2.3.0": 20, "2.3.1": 30]),
                source: "coverage"),
            ProfileFigure("threeDS.abandonAfterCreate", .percent(3), source: "coverage"),
            ProfileFigure("threeDS.abandonAfterAuthParameters", .percent(3), source: "coverage"),
            ProfileFigure("threeDS.abandonBeforeChallenge", .percent(4), source: "coverage"),
            ProfileFigure(
                "threeDS.authResponse", weights(["Y": 25, "A": 4, "C": 55, "D": 5, "N": 4, "U": 3, "R": 2, "I": 2]),
                source: "coverage"),
            ProfileFigure(
                "threeDS.challengeOutcome",
                weights([
                    "completedY": 40, "completedN": 15, "cancelled": 15, "timedOut": 12,
                    "protocolError": 10, "runtimeError": 8
                ]), source: "coverage"),
            ProfileFigure(
                "threeDS.uiTypes", weights(["01": 40, "02": 10, "03": 8, "04": 15, "05": 10, "06": 9, "07": 8]),
                source: "coverage"),
            ProfileFigure("threeDS.otpSubmissions", weights(["1": 50, "2": 30, "3": 20]), source: "coverage"),
            ProfileFigure("threeDS.resend", .percent(25), source: "coverage"),
            ProfileFigure("threeDS.extraScreen", .percent(30), source: "coverage"),
            ProfileFigure(
                "threeDS.protocolErrorCodes",
                weights([
                    "101": 1, "201": 1, "202": 1, "203": 1, "301": 1, "302": 1,
                    "402": 1, "102": 1, "207": 1
                ]), source: "coverage"),
            ProfileFigure("card.notEligible", .percent(8), source: "coverage"),
            ProfileFigure("card.decisionManual", weights(["green": 5, "yellow": 90, "red": 5]), source: "coverage"),
            ProfileFigure("card.decisionFromApp", weights(["green": 30, "yellow": 60, "red": 10]), source: "coverage"),
            ProfileFigure(
                "card.methodTypes",
                weights([
                    "otpBySMS": 30, "otpByEmail": 20, "appToApp": 25, "customerService": 12,
                    "webService": 13
                ]), source: "coverage"),
            ProfileFigure("card.otpSuccessByAttempt", .integers([60, 50, 40]), source: "coverage"),
            ProfileFigure("card.otpExpired", .percent(12), source: "coverage"),
            ProfileFigure("card.otpCountMissing", .percent(8), source: "coverage"),
            ProfileFigure("card.interruption", .percent(6), source: "coverage"),
            ProfileFigure("card.outOfBandActivation", .percent(2), source: "coverage"),
            ProfileFigure("card.otherNotification", .percent(6), source: "coverage"),
            ProfileFigure("card.cancel", .percent(3), source: "coverage"),
            ProfileFigure("card.failure", .percent(2), source: "coverage"),
            ProfileFigure("card.expiry", .percent(2), source: "coverage"),
            ProfileFigure("card.issuerCompletion", .percent(70), source: "coverage")
        ])
}
