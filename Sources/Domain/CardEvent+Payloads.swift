import JournalCore

extension CardEvent {
    /// `EligibilityChecked`: the first event of a journey; `notEligible` ends it.
    public struct EligibilityChecked: Sendable, Equatable, PayloadFields {
        public let inputMethod: InputMethod
        public let outcome: EligibilityOutcome
        public let errorCode: String?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(inputMethod: InputMethod, outcome: EligibilityOutcome, errorCode: String? = nil) {
            self.inputMethod = inputMethod
            self.outcome = outcome
            self.errorCode = errorCode
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("inputMethod", inputMethod)
            builder.set("outcome", outcome)
            builder.set("errorCode", errorCode)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: EligibilityChecked, rhs: EligibilityChecked) -> Bool {
            lhs.inputMethod == rhs.inputMethod && lhs.outcome == rhs.outcome && lhs.errorCode == rhs.errorCode
                && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            inputMethod = try r.enumeration("inputMethod", InputMethod.self)
            outcome = try r.enumeration("outcome", EligibilityOutcome.self)
            errorCode = try r.optionalString("errorCode")
            received = r.data
        }
    }

    /// `TermsAccepted`: the cardholder accepted the terms shown (digest of the text).
    public struct TermsAccepted: Sendable, Equatable, PayloadFields {
        public let tncDigest: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(tncDigest: String) {
            self.tncDigest = tncDigest
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("tncDigest", tncDigest)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: TermsAccepted, rhs: TermsAccepted) -> Bool {
            lhs.tncDigest == rhs.tncDigest && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            tncDigest = try r.string("tncDigest")
            received = r.data
        }
    }

    /// `DigitizationRequested`: `digitizeCard` was called.
    public struct DigitizationRequested: Sendable, Equatable, PayloadFields {
        public let language: String
        /// A keyed reference to the push token, never the token itself.
        public let pushTokenRef: String?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(language: String, pushTokenRef: String? = nil) {
            self.language = language
            self.pushTokenRef = pushTokenRef
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("language", language)
            builder.set("pushTokenRef", pushTokenRef)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: DigitizationRequested, rhs: DigitizationRequested) -> Bool {
            lhs.language == rhs.language && lhs.pushTokenRef == rhs.pushTokenRef && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            language = try r.string("language")
            pushTokenRef = try r.optionalString("pushTokenRef")
            received = r.data
        }
    }

    /// `DigitizationApproved`: the green flow; the card is active.
    public struct DigitizationApproved: Sendable, Equatable, PayloadFields {
        public let digitalCardID: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(digitalCardID: String) {
            self.digitalCardID = digitalCardID
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("digitalCardID", digitalCardID)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: DigitizationApproved, rhs: DigitizationApproved) -> Bool {
            lhs.digitalCardID == rhs.digitalCardID && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            digitalCardID = try r.string("digitalCardID")
            received = r.data
        }
    }

    /// `DigitizationApprovedWithIDV`: the yellow flow; the card waits for ID&V.
    public struct DigitizationApprovedWithIDV: Sendable, Equatable, PayloadFields {
        public let digitalCardID: String
        /// The offered methods: non-empty, ids unique.
        public let methods: [IDVMethod]
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(digitalCardID: String, methods: [IDVMethod]) {
            self.digitalCardID = digitalCardID
            self.methods = methods
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("digitalCardID", digitalCardID)
            builder.set("methods", .array(methods.map { .object($0.json) }))
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: DigitizationApprovedWithIDV, rhs: DigitizationApprovedWithIDV) -> Bool {
            lhs.digitalCardID == rhs.digitalCardID && lhs.methods == rhs.methods && lhs.data == rhs.data
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
            received = r.data
        }

        /// The catalog's rules beyond the fields' JSON types, on a payload built by a command (see
        /// ``CardEvent/checkFields()``): the same checks and the same first error as decoding its
        /// `data`. Each method's own rule (`withCryptogram` for appToApp only) holds for every
        /// ``IDVMethod`` by construction.
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            guard !methods.isEmpty else { throw r().invalid("methods", "must not be empty") }
            for index in methods.indices {
                if let error = Self.duplicate(methods[index], at: index, in: methods[..<index], r()) { throw error }
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
    public struct IDVMethodSelected: Sendable, Equatable, PayloadFields {
        public let idvID: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(idvID: String) {
            self.idvID = idvID
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("idvID", idvID)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: IDVMethodSelected, rhs: IDVMethodSelected) -> Bool {
            lhs.idvID == rhs.idvID && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            idvID = try r.string("idvID")
            received = r.data
        }
    }

    /// `ActivationRequired`: the SDK reports what the selected method needs next.
    public struct ActivationRequired: Sendable, Equatable, PayloadFields {
        public let state: ActivationRequiredState
        public let scheme: String?
        public let source: String?
        public let requestPayloadBytes: Int64?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(state: ActivationRequiredState, scheme: String? = nil, source: String? = nil,
                    requestPayloadBytes: Int64? = nil) {
            self.state = state
            self.scheme = scheme
            self.source = source
            self.requestPayloadBytes = requestPayloadBytes
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("state", state)
            builder.set("scheme", scheme)
            builder.set("source", source)
            builder.set("requestPayloadBytes", requestPayloadBytes)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ActivationRequired, rhs: ActivationRequired) -> Bool {
            lhs.state == rhs.state && lhs.scheme == rhs.scheme && lhs.source == rhs.source
                && lhs.requestPayloadBytes == rhs.requestPayloadBytes && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            state = try r.enumeration("state", ActivationRequiredState.self)
            scheme = try r.optionalString("scheme")
            source = try r.optionalString("source")
            requestPayloadBytes = try r.optionalInt("requestPayloadBytes")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (shared by decoding and
        /// ``CardEvent/checkFields()``); `r` names the field of a failure.
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            if let requestPayloadBytes, requestPayloadBytes < 0 {
                throw r().invalid("requestPayloadBytes", "must be >= 0, got \(requestPayloadBytes)")
            }
        }
    }

    /// `OTPSubmitted`: an OTP of this length was submitted (never the OTP itself).
    public struct OTPSubmitted: Sendable, Equatable, PayloadFields {
        /// 4 to 12.
        public let otpLength: Int64
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public static let allowedLengths: ClosedRange<Int64> = 4...12

        public init(otpLength: Int64) {
            self.otpLength = otpLength
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("otpLength", otpLength)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: OTPSubmitted, rhs: OTPSubmitted) -> Bool {
            lhs.otpLength == rhs.otpLength && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            otpLength = try r.int("otpLength")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``ActivationRequired/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            guard Self.allowedLengths.contains(otpLength) else {
                throw r().invalid("otpLength", "must be between 4 and 12, got \(otpLength)")
            }
        }
    }

    /// `OTPRejected`: the verdict on an OTP submission was negative.
    public struct OTPRejected: Sendable, Equatable, PayloadFields {
        public let reason: OTPRejectionReason
        public let attemptsRemaining: Int64?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(reason: OTPRejectionReason, attemptsRemaining: Int64? = nil) {
            self.reason = reason
            self.attemptsRemaining = attemptsRemaining
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("reason", reason)
            builder.set("attemptsRemaining", attemptsRemaining)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: OTPRejected, rhs: OTPRejected) -> Bool {
            lhs.reason == rhs.reason && lhs.attemptsRemaining == rhs.attemptsRemaining && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            reason = try r.enumeration("reason", OTPRejectionReason.self)
            attemptsRemaining = try r.optionalInt("attemptsRemaining")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``ActivationRequired/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            if let attemptsRemaining, attemptsRemaining < 0 {
                throw r().invalid("attemptsRemaining", "must be >= 0, got \(attemptsRemaining)")
            }
        }

        /// True when the journey goes back to method selection (expired, or no attempts left).
        public var returnsToMethodSelection: Bool { reason == .expired || attemptsRemaining == 0 }
    }

    /// `AppToAppResumed`: the issuer app handed back, with or without a TAV (never the TAV itself).
    public struct AppToAppResumed: Sendable, Equatable, PayloadFields {
        public let withTAV: Bool
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(withTAV: Bool) {
            self.withTAV = withTAV
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("withTAV", withTAV)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: AppToAppResumed, rhs: AppToAppResumed) -> Bool {
            lhs.withTAV == rhs.withTAV && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            withTAV = try r.bool("withTAV")
            received = r.data
        }
    }

    /// `CPSNotificationReceived`: a push from the provisioning server.
    public struct CPSNotificationReceived: Sendable, Equatable, PayloadFields {
        public let messageCode: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(messageCode: String) {
            self.messageCode = messageCode
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("messageCode", messageCode)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: CPSNotificationReceived, rhs: CPSNotificationReceived) -> Bool {
            lhs.messageCode == rhs.messageCode && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            messageCode = try r.string("messageCode")
            received = r.data
        }

        /// True for `CBP.info.tokenProvisioned`, which activates the card.
        public var activates: Bool { messageCode == CPSMessageCode.tokenProvisioned }
    }

    /// `ActivationInterrupted`: the app lost the flow before a terminal event.
    public struct ActivationInterrupted: Sendable, Equatable, PayloadFields {
        public let reason: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(reason: String) {
            self.reason = reason
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("reason", reason)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ActivationInterrupted, rhs: ActivationInterrupted) -> Bool {
            lhs.reason == rhs.reason && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            reason = try r.string("reason")
            received = r.data
        }
    }

    /// `ActivationFailed`: the activation cannot succeed.
    public struct ActivationFailed: Sendable, Equatable, PayloadFields {
        public let reason: ActivationFailureReason
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(reason: ActivationFailureReason) {
            self.reason = reason
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("reason", reason)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ActivationFailed, rhs: ActivationFailed) -> Bool {
            lhs.reason == rhs.reason && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            reason = try r.enumeration("reason", ActivationFailureReason.self)
            received = r.data
        }
    }
}
