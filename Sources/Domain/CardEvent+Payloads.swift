import JournalCore

extension CardEvent {
    /// `EligibilityChecked`: the first event of a journey; `notEligible` ends it.
    public struct EligibilityChecked: Sendable, Equatable, CatalogPayload {
        public let inputMethod: InputMethod
        public let outcome: EligibilityOutcome
        public let errorCode: String?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(inputMethod: InputMethod, outcome: EligibilityOutcome, errorCode: String? = nil) {
            self.inputMethod = inputMethod
            self.outcome = outcome
            self.errorCode = errorCode
        }

        static let table = PayloadTable(
            Self.init, PayloadField("inputMethod", { $0.inputMethod }), PayloadField("outcome", { $0.outcome }),
            PayloadField("errorCode", { $0.errorCode }))
    }

    /// `TermsAccepted`: the cardholder accepted the terms shown (digest of the text).
    public struct TermsAccepted: Sendable, Equatable, CatalogPayload {
        public let tncDigest: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(tncDigest: String) { self.tncDigest = tncDigest }

        static let table = PayloadTable(Self.init, PayloadField("tncDigest", { $0.tncDigest }))
    }

    /// `DigitizationRequested`: `digitizeCard` was called.
    public struct DigitizationRequested: Sendable, Equatable, CatalogPayload {
        public let language: String
        /// A keyed reference to the push token, never the token itself.
        public let pushTokenRef: String?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(language: String, pushTokenRef: String? = nil) {
            self.language = language
            self.pushTokenRef = pushTokenRef
        }

        static let table = PayloadTable(
            Self.init, PayloadField("language", { $0.language }), PayloadField("pushTokenRef", { $0.pushTokenRef }))
    }

    /// `DigitizationApproved`: the green flow; the card is active.
    public struct DigitizationApproved: Sendable, Equatable, CatalogPayload {
        public let digitalCardID: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(digitalCardID: String) { self.digitalCardID = digitalCardID }

        static let table = PayloadTable(Self.init, PayloadField("digitalCardID", { $0.digitalCardID }))
    }

    /// `DigitizationApprovedWithIDV`: the yellow flow; the card waits for ID&V.
    public struct DigitizationApprovedWithIDV: Sendable, Equatable, CatalogPayload {
        public let digitalCardID: String
        /// The offered methods: non-empty, ids unique.
        public let methods: [IDVMethod]
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(digitalCardID: String, methods: [IDVMethod]) {
            self.digitalCardID = digitalCardID
            self.methods = methods
        }

        static let table = PayloadTable(
            Self.init, PayloadField("digitalCardID", { $0.digitalCardID }),
            PayloadField("methods", { $0.methods }, IDVMethod.offerRule))

        /// The offered method with this id, if any.
        public func method(id: String) -> IDVMethod? {
            for method in methods where method.id == id { return method }
            return nil
        }
    }

    /// `IDVMethodSelected`: the cardholder picked an offered method.
    public struct IDVMethodSelected: Sendable, Equatable, CatalogPayload {
        public let idvID: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(idvID: String) { self.idvID = idvID }

        static let table = PayloadTable(Self.init, PayloadField("idvID", { $0.idvID }))
    }

    /// `ActivationRequired`: the SDK reports what the selected method needs next.
    public struct ActivationRequired: Sendable, Equatable, CatalogPayload {
        public let state: ActivationRequiredState
        public let scheme: String?
        public let source: String?
        public let requestPayloadBytes: Int64?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(
            state: ActivationRequiredState, scheme: String? = nil, source: String? = nil,
            requestPayloadBytes: Int64? = nil
        ) {
            self.state = state
            self.scheme = scheme
            self.source = source
            self.requestPayloadBytes = requestPayloadBytes
        }

        static let table = PayloadTable(
            Self.init, PayloadField("state", { $0.state }), PayloadField("scheme", { $0.scheme }),
            PayloadField("source", { $0.source }),
            PayloadField("requestPayloadBytes", { $0.requestPayloadBytes }, .atLeast(0)))
    }

    /// `OTPSubmitted`: an OTP of this length was submitted (never the OTP itself).
    public struct OTPSubmitted: Sendable, Equatable, CatalogPayload {
        /// 4 to 12.
        public let otpLength: Int64
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public static let allowedLengths: ClosedRange<Int64> = 4...12

        public init(otpLength: Int64) { self.otpLength = otpLength }

        static let table = PayloadTable(Self.init, PayloadField("otpLength", { $0.otpLength }, .within(allowedLengths)))
    }

    /// `OTPRejected`: the verdict on an OTP submission was negative.
    public struct OTPRejected: Sendable, Equatable, CatalogPayload {
        public let reason: OTPRejectionReason
        public let attemptsRemaining: Int64?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(reason: OTPRejectionReason, attemptsRemaining: Int64? = nil) {
            self.reason = reason
            self.attemptsRemaining = attemptsRemaining
        }

        static let table = PayloadTable(
            Self.init, PayloadField("reason", { $0.reason }),
            PayloadField("attemptsRemaining", { $0.attemptsRemaining }, .atLeast(0)))

        /// True when the journey goes back to method selection (expired, or no attempts left).
        public var returnsToMethodSelection: Bool { reason == .expired || attemptsRemaining == 0 }
    }

    /// `AppToAppResumed`: the issuer app handed back, with or without a TAV (never the TAV itself).
    public struct AppToAppResumed: Sendable, Equatable, CatalogPayload {
        public let withTAV: Bool
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(withTAV: Bool) { self.withTAV = withTAV }

        static let table = PayloadTable(Self.init, PayloadField("withTAV", { $0.withTAV }))
    }

    /// `CPSNotificationReceived`: a push from the provisioning server.
    public struct CPSNotificationReceived: Sendable, Equatable, CatalogPayload {
        public let messageCode: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(messageCode: String) { self.messageCode = messageCode }

        static let table = PayloadTable(Self.init, PayloadField("messageCode", { $0.messageCode }))

        /// True for `CBP.info.tokenProvisioned`, which activates the card.
        public var activates: Bool { messageCode == CPSMessageCode.tokenProvisioned }
    }

    /// `ActivationInterrupted`: the app lost the flow before a terminal event.
    public struct ActivationInterrupted: Sendable, Equatable, CatalogPayload {
        public let reason: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(reason: String) { self.reason = reason }

        static let table = PayloadTable(Self.init, PayloadField("reason", { $0.reason }))
    }

    /// `ActivationFailed`: the activation cannot succeed.
    public struct ActivationFailed: Sendable, Equatable, CatalogPayload {
        public let reason: ActivationFailureReason
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(reason: ActivationFailureReason) { self.reason = reason }

        static let table = PayloadTable(Self.init, PayloadField("reason", { $0.reason }))
    }
}

extension IDVMethod: ListElement {
    /// A non-empty array of method objects whose ids are unique; each element is checked as it
    /// is read, so the first error is the first broken rule in the array's order.
    static func readList(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> [IDVMethod]
    {
        guard case let .array(list) = value else { throw r.wrongType(key, "an array", value) }
        guard !list.isEmpty else { throw r.invalid(key, "must not be empty") }
        var methods: [IDVMethod] = []
        methods.reserveCapacity(list.count)
        for (index, element) in list.enumerated() {
            guard case let .object(object) = element else {
                throw r.fail(.wrongType, "\(key)[\(index)]", "must be an object, got \(element.typeName)")
            }
            let method = try IDVMethod(decoding: FieldReader(r.eventType, object, element: (key, index)))
            if let broken = duplicate(method, at: index, in: methods[...]) {
                throw r.invalid(key + broken.path, broken.rule)
            }
            methods.append(method)
        }
        return methods
    }

    static func output(_ list: [IDVMethod]) -> FieldOutput { .json(.array(list.map { .object($0.json) })) }

    /// The rules on an offer built by a command: the same checks, and the same first error, as
    /// reading its `data`. Each method's own rule (`withCryptogram` for appToApp only) holds for
    /// every ``IDVMethod`` by construction.
    static let offerRule = FieldRule<[IDVMethod]> { methods in
        guard !methods.isEmpty else { return ("", "must not be empty") }
        for index in methods.indices {
            if let broken = duplicate(methods[index], at: index, in: methods[..<index]) { return broken }
        }
        return nil
    }

    /// The broken rule when `method` (at `index`) repeats the id of one of `earlier`.
    private static func duplicate(_ method: IDVMethod, at index: Int, in earlier: ArraySlice<IDVMethod>)
        -> RuleViolation?
    {
        for other in earlier where other.id == method.id {
            return ("[\(index)].id", "must be unique, got \(ValueEcho.describe(method.id)) twice")
        }
        return nil
    }
}
