import JournalCore

extension CardEvent {
    /// `EligibilityChecked`: the first event of a journey; `notEligible` ends it.
    public struct EligibilityChecked: Sendable, Equatable {
        public let inputMethod: InputMethod
        public let outcome: EligibilityOutcome
        public let errorCode: String?
        public let data: JSONObject

        public init(inputMethod: InputMethod, outcome: EligibilityOutcome, errorCode: String? = nil) {
            self.inputMethod = inputMethod
            self.outcome = outcome
            self.errorCode = errorCode
            var builder = DataBuilder()
            builder.set("inputMethod", inputMethod)
            builder.set("outcome", outcome)
            builder.set("errorCode", errorCode)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            inputMethod = try r.enumeration("inputMethod", InputMethod.self)
            outcome = try r.enumeration("outcome", EligibilityOutcome.self)
            errorCode = try r.optionalString("errorCode")
            data = r.data
        }
    }

    /// `TermsAccepted`: the cardholder accepted the terms shown (digest of the text).
    public struct TermsAccepted: Sendable, Equatable {
        public let tncDigest: String
        public let data: JSONObject

        public init(tncDigest: String) {
            self.tncDigest = tncDigest
            var builder = DataBuilder()
            builder.set("tncDigest", tncDigest)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            tncDigest = try r.string("tncDigest")
            data = r.data
        }
    }

    /// `DigitizationRequested`: `digitizeCard` was called.
    public struct DigitizationRequested: Sendable, Equatable {
        public let language: String
        /// A keyed reference to the push token, never the token itself.
        public let pushTokenRef: String?
        public let data: JSONObject

        public init(language: String, pushTokenRef: String? = nil) {
            self.language = language
            self.pushTokenRef = pushTokenRef
            var builder = DataBuilder()
            builder.set("language", language)
            builder.set("pushTokenRef", pushTokenRef)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            language = try r.string("language")
            pushTokenRef = try r.optionalString("pushTokenRef")
            data = r.data
        }
    }

    /// `DigitizationApproved`: the green flow; the card is active.
    public struct DigitizationApproved: Sendable, Equatable {
        public let digitalCardID: String
        public let data: JSONObject

        public init(digitalCardID: String) {
            self.digitalCardID = digitalCardID
            var builder = DataBuilder()
            builder.set("digitalCardID", digitalCardID)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            digitalCardID = try r.string("digitalCardID")
            data = r.data
        }
    }

    /// `DigitizationApprovedWithIDV`: the yellow flow; the card waits for ID&V.
    public struct DigitizationApprovedWithIDV: Sendable, Equatable {
        public let digitalCardID: String
        /// The offered methods: non-empty, ids unique.
        public let methods: [IDVMethod]
        public let data: JSONObject

        public init(digitalCardID: String, methods: [IDVMethod]) {
            self.digitalCardID = digitalCardID
            self.methods = methods
            var builder = DataBuilder()
            builder.set("digitalCardID", digitalCardID)
            builder.set("methods", .array(methods.map { .object($0.json) }))
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            digitalCardID = try r.string("digitalCardID")
            let list = try r.array("methods")
            guard !list.isEmpty else { throw r.invalid("methods", "must not be empty") }
            var methods: [IDVMethod] = []
            methods.reserveCapacity(list.count)
            for (index, element) in list.enumerated() {
                guard case let .object(object) = element else {
                    throw r.fail(.wrongType, "methods[\(index)]", "must be an object, got \(element.typeName)")
                }
                let method = try IDVMethod(decoding: FieldReader(r.eventType, object, element: ("methods", index)))
                if let error = Self.duplicate(method, at: index, in: methods[...], r) { throw error }
                methods.append(method)
            }
            self.methods = methods
            data = r.data
        }

        /// The catalog's rules beyond the fields' JSON types, on a payload built by a command (see
        /// ``CardEvent/checkFields()``): the same checks and the same first error as decoding its
        /// `data`. Each method's own rule (`withCryptogram` for appToApp only) holds for every
        /// ``IDVMethod`` by construction.
        func checkRules(_ r: FieldReader) throws(EventDecodingError) {
            guard !methods.isEmpty else { throw r.invalid("methods", "must not be empty") }
            for index in methods.indices {
                if let error = Self.duplicate(methods[index], at: index, in: methods[..<index], r) { throw error }
            }
        }

        /// The error when `method` (at `index`) repeats the id of one of `earlier`.
        private static func duplicate(_ method: IDVMethod, at index: Int, in earlier: ArraySlice<IDVMethod>,
                                      _ r: FieldReader) -> EventDecodingError? {
            for other in earlier where other.id == method.id {
                return r.invalid("methods[\(index)].id", "must be unique, got \(ValueEcho.describe(method.id)) twice")
            }
            return nil
        }

        /// The offered method with this id, if any.
        public func method(id: String) -> IDVMethod? {
            for method in methods where method.id == id { return method }
            return nil
        }
    }

    /// `IDVMethodSelected`: the cardholder picked an offered method.
    public struct IDVMethodSelected: Sendable, Equatable {
        public let idvID: String
        public let data: JSONObject

        public init(idvID: String) {
            self.idvID = idvID
            var builder = DataBuilder()
            builder.set("idvID", idvID)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            idvID = try r.string("idvID")
            data = r.data
        }
    }

    /// `ActivationRequired`: the SDK reports what the selected method needs next.
    public struct ActivationRequired: Sendable, Equatable {
        public let state: ActivationRequiredState
        public let scheme: String?
        public let source: String?
        public let requestPayloadBytes: Int64?
        public let data: JSONObject

        public init(state: ActivationRequiredState, scheme: String? = nil, source: String? = nil,
                    requestPayloadBytes: Int64? = nil) {
            self.state = state
            self.scheme = scheme
            self.source = source
            self.requestPayloadBytes = requestPayloadBytes
            var builder = DataBuilder()
            builder.set("state", state)
            builder.set("scheme", scheme)
            builder.set("source", source)
            builder.set("requestPayloadBytes", requestPayloadBytes)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            state = try r.enumeration("state", ActivationRequiredState.self)
            scheme = try r.optionalString("scheme")
            source = try r.optionalString("source")
            requestPayloadBytes = try r.optionalInt("requestPayloadBytes")
            data = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (shared by decoding and
        /// ``CardEvent/checkFields()``); `r` names the field of a failure.
        func checkRules(_ r: FieldReader) throws(EventDecodingError) {
            if let requestPayloadBytes, requestPayloadBytes < 0 {
                throw r.invalid("requestPayloadBytes", "must be >= 0, got \(requestPayloadBytes)")
            }
        }
    }

    /// `OTPSubmitted`: an OTP of this length was submitted (never the OTP itself).
    public struct OTPSubmitted: Sendable, Equatable {
        /// 4 to 12.
        public let otpLength: Int64
        public let data: JSONObject

        public static let allowedLengths: ClosedRange<Int64> = 4...12

        public init(otpLength: Int64) {
            self.otpLength = otpLength
            var builder = DataBuilder()
            builder.set("otpLength", otpLength)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            otpLength = try r.int("otpLength")
            data = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``ActivationRequired/checkRules(_:)``).
        func checkRules(_ r: FieldReader) throws(EventDecodingError) {
            guard Self.allowedLengths.contains(otpLength) else {
                throw r.invalid("otpLength", "must be between 4 and 12, got \(otpLength)")
            }
        }
    }

    /// `OTPRejected`: the verdict on an OTP submission was negative.
    public struct OTPRejected: Sendable, Equatable {
        public let reason: OTPRejectionReason
        public let attemptsRemaining: Int64?
        public let data: JSONObject

        public init(reason: OTPRejectionReason, attemptsRemaining: Int64? = nil) {
            self.reason = reason
            self.attemptsRemaining = attemptsRemaining
            var builder = DataBuilder()
            builder.set("reason", reason)
            builder.set("attemptsRemaining", attemptsRemaining)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            reason = try r.enumeration("reason", OTPRejectionReason.self)
            attemptsRemaining = try r.optionalInt("attemptsRemaining")
            data = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``ActivationRequired/checkRules(_:)``).
        func checkRules(_ r: FieldReader) throws(EventDecodingError) {
            if let attemptsRemaining, attemptsRemaining < 0 {
                throw r.invalid("attemptsRemaining", "must be >= 0, got \(attemptsRemaining)")
            }
        }

        /// True when the journey goes back to method selection (expired, or no attempts left).
        public var returnsToMethodSelection: Bool { reason == .expired || attemptsRemaining == 0 }
    }

    /// `AppToAppResumed`: the issuer app handed back, with or without a TAV (never the TAV itself).
    public struct AppToAppResumed: Sendable, Equatable {
        public let withTAV: Bool
        public let data: JSONObject

        public init(withTAV: Bool) {
            self.withTAV = withTAV
            var builder = DataBuilder()
            builder.set("withTAV", withTAV)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            withTAV = try r.bool("withTAV")
            data = r.data
        }
    }

    /// `CPSNotificationReceived`: a push from the provisioning server.
    public struct CPSNotificationReceived: Sendable, Equatable {
        public let messageCode: String
        public let data: JSONObject

        public init(messageCode: String) {
            self.messageCode = messageCode
            var builder = DataBuilder()
            builder.set("messageCode", messageCode)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            messageCode = try r.string("messageCode")
            data = r.data
        }

        /// True for `CBP.info.tokenProvisioned`, which activates the card.
        public var activates: Bool { messageCode == CPSMessageCode.tokenProvisioned }
    }

    /// `ActivationInterrupted`: the app lost the flow before a terminal event.
    public struct ActivationInterrupted: Sendable, Equatable {
        public let reason: String
        public let data: JSONObject

        public init(reason: String) {
            self.reason = reason
            var builder = DataBuilder()
            builder.set("reason", reason)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            reason = try r.string("reason")
            data = r.data
        }
    }

    /// `ActivationFailed`: the activation cannot succeed.
    public struct ActivationFailed: Sendable, Equatable {
        public let reason: ActivationFailureReason
        public let data: JSONObject

        public init(reason: ActivationFailureReason) {
            self.reason = reason
            var builder = DataBuilder()
            builder.set("reason", reason)
            data = builder.object
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            reason = try r.enumeration("reason", ActivationFailureReason.self)
            data = r.data
        }
    }
}
