import JournalCore

extension ThreeDSEvent {
    /// `TransactionCreated`: the SDK created the transaction for a directory server and version.
    public struct TransactionCreated: Sendable, Equatable, PayloadFields {
        public let directoryServerID: String
        public let messageVersion: MessageVersion
        public let customCertificate: Bool?
        public let warnings: [String]?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(directoryServerID: String, messageVersion: MessageVersion, customCertificate: Bool? = nil,
                    warnings: [String]? = nil) {
            self.directoryServerID = directoryServerID
            self.messageVersion = messageVersion
            self.customCertificate = customCertificate
            self.warnings = warnings
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("directoryServerID", directoryServerID)
            builder.set("messageVersion", messageVersion)
            builder.set("customCertificate", customCertificate)
            if let warnings { builder.set("warnings", strings: warnings) }
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: TransactionCreated, rhs: TransactionCreated) -> Bool {
            lhs.directoryServerID == rhs.directoryServerID && lhs.messageVersion == rhs.messageVersion
                && lhs.customCertificate == rhs.customCertificate && lhs.warnings == rhs.warnings
                && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            directoryServerID = try r.string("directoryServerID")
            messageVersion = try r.enumeration("messageVersion", MessageVersion.self)
            customCertificate = try r.optionalBool("customCertificate")
            warnings = try r.optionalStringArray("warnings")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (shared by decoding and
        /// ``ThreeDSEvent/checkFields()``); `r` names the field of a failure.
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            if !DirectoryServer.isKnown(directoryServerID) && customCertificate != true {
                throw r().invalid("directoryServerID", "must be a known directory server ID unless customCertificate "
                                + "is true, got \(ValueEcho.describe(directoryServerID))")
            }
        }
    }

    /// `AuthRequestParametersCreated`: the SDK built the AReq parameters (device data encrypted).
    public struct AuthRequestParametersCreated: Sendable, Equatable, PayloadFields {
        public let sdkReferenceNumber: String
        /// Size of the encrypted device data, 0 when there was none.
        public let deviceDataBytes: Int64
        public let sdkAppIDRef: String?
        public let ephemeralKeyThumbprint: String?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(sdkReferenceNumber: String, deviceDataBytes: Int64, sdkAppIDRef: String? = nil,
                    ephemeralKeyThumbprint: String? = nil) {
            self.sdkReferenceNumber = sdkReferenceNumber
            self.deviceDataBytes = deviceDataBytes
            self.sdkAppIDRef = sdkAppIDRef
            self.ephemeralKeyThumbprint = ephemeralKeyThumbprint
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("sdkReferenceNumber", sdkReferenceNumber)
            builder.set("deviceDataBytes", deviceDataBytes)
            builder.set("sdkAppIDRef", sdkAppIDRef)
            builder.set("ephemeralKeyThumbprint", ephemeralKeyThumbprint)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: AuthRequestParametersCreated, rhs: AuthRequestParametersCreated) -> Bool {
            lhs.sdkReferenceNumber == rhs.sdkReferenceNumber && lhs.deviceDataBytes == rhs.deviceDataBytes
                && lhs.sdkAppIDRef == rhs.sdkAppIDRef && lhs.ephemeralKeyThumbprint == rhs.ephemeralKeyThumbprint
                && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            sdkReferenceNumber = try r.string("sdkReferenceNumber")
            deviceDataBytes = try r.int("deviceDataBytes")
            sdkAppIDRef = try r.optionalString("sdkAppIDRef")
            ephemeralKeyThumbprint = try r.optionalString("ephemeralKeyThumbprint")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``TransactionCreated/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            if deviceDataBytes < 0 {
                throw r().invalid("deviceDataBytes", "must be >= 0, got \(deviceDataBytes)")
            }
        }
    }

    /// `AuthResponseReceived`: the app reported the ARes.
    public struct AuthResponseReceived: Sendable, Equatable, PayloadFields {
        public let threeDSServerTransID: String
        public let acsTransID: String
        public let transStatus: TransStatus
        public let transStatusReason: String?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(threeDSServerTransID: String, acsTransID: String, transStatus: TransStatus,
                    transStatusReason: String? = nil) {
            self.threeDSServerTransID = threeDSServerTransID
            self.acsTransID = acsTransID
            self.transStatus = transStatus
            self.transStatusReason = transStatusReason
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("threeDSServerTransID", threeDSServerTransID)
            builder.set("acsTransID", acsTransID)
            builder.set("transStatus", transStatus)
            builder.set("transStatusReason", transStatusReason)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: AuthResponseReceived, rhs: AuthResponseReceived) -> Bool {
            lhs.threeDSServerTransID == rhs.threeDSServerTransID && lhs.acsTransID == rhs.acsTransID
                && lhs.transStatus == rhs.transStatus && lhs.transStatusReason == rhs.transStatusReason
                && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            threeDSServerTransID = try r.string("threeDSServerTransID")
            acsTransID = try r.string("acsTransID")
            transStatus = try r.enumeration("transStatus", TransStatus.self)
            transStatusReason = try r.optionalString("transStatusReason")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``TransactionCreated/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            guard UUIDText.isUUID(threeDSServerTransID) else {
                throw r().invalid("threeDSServerTransID", "must be a UUID, got \(ValueEcho.describe(threeDSServerTransID))")
            }
        }
    }

    /// `ChallengeStarted`: `doChallenge` accepted, the overall timer armed.
    public struct ChallengeStarted: Sendable, Equatable, PayloadFields {
        /// Seconds before the challenge times out; at least 300.
        public let timeoutSeconds: Int64
        public let acsReferenceNumber: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        /// The smallest timeout the SDK accepts.
        public static let minimumTimeoutSeconds: Int64 = 300

        public init(timeoutSeconds: Int64, acsReferenceNumber: String) {
            self.timeoutSeconds = timeoutSeconds
            self.acsReferenceNumber = acsReferenceNumber
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("timeoutSeconds", timeoutSeconds)
            builder.set("acsReferenceNumber", acsReferenceNumber)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ChallengeStarted, rhs: ChallengeStarted) -> Bool {
            lhs.timeoutSeconds == rhs.timeoutSeconds && lhs.acsReferenceNumber == rhs.acsReferenceNumber
                && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            timeoutSeconds = try r.int("timeoutSeconds")
            acsReferenceNumber = try r.string("acsReferenceNumber")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``TransactionCreated/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            guard timeoutSeconds >= Self.minimumTimeoutSeconds else {
                throw r().invalid("timeoutSeconds", "must be >= \(Self.minimumTimeoutSeconds), got \(timeoutSeconds)")
            }
            // Bounded so that start + timeout in milliseconds cannot overflow.
            guard timeoutSeconds <= 1_000_000_000 else {
                throw r().invalid("timeoutSeconds", "must be <= 1000000000, got \(timeoutSeconds)")
            }
        }
    }

    /// `ChallengeRequestSent`: a CReq left the SDK.
    public struct ChallengeRequestSent: Sendable, Equatable, PayloadFields {
        public let sdkCounterStoA: ChallengeCounter
        public let action: ChallengeAction
        public let entryLength: Int64?
        public let noEntry: Bool?
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(sdkCounterStoA: ChallengeCounter, action: ChallengeAction, entryLength: Int64? = nil,
                    noEntry: Bool? = nil) {
            self.sdkCounterStoA = sdkCounterStoA
            self.action = action
            self.entryLength = entryLength
            self.noEntry = noEntry
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("sdkCounterStoA", sdkCounterStoA.text)
            builder.set("action", action)
            builder.set("entryLength", entryLength)
            builder.set("noEntry", noEntry)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ChallengeRequestSent, rhs: ChallengeRequestSent) -> Bool {
            lhs.sdkCounterStoA == rhs.sdkCounterStoA && lhs.action == rhs.action
                && lhs.entryLength == rhs.entryLength && lhs.noEntry == rhs.noEntry && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            sdkCounterStoA = try r.counter("sdkCounterStoA")
            action = try r.enumeration("action", ChallengeAction.self)
            entryLength = try r.optionalInt("entryLength")
            noEntry = try r.optionalBool("noEntry")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``TransactionCreated/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            if let entryLength, entryLength < 0 {
                throw r().invalid("entryLength", "must be >= 0, got \(entryLength)")
            }
        }
    }

    /// `ChallengeResponseReceived`: a CRes answered the request in flight.
    public struct ChallengeResponseReceived: Sendable, Equatable, PayloadFields {
        /// What the response says: another screen, or the final result.
        public enum Result: Sendable, Equatable {
            /// `challengeCompletionInd` N: the next screen has this UI type.
            case screen(ACSUIType)
            /// `challengeCompletionInd` Y: the challenge's `transStatus`.
            case final(ChallengeTransStatus)
        }

        public let acsCounterAtoS: ChallengeCounter
        public let result: Result
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public var isFinal: Bool {
            if case .final = result { return true }
            return false
        }

        public init(acsCounterAtoS: ChallengeCounter, result: Result) {
            self.acsCounterAtoS = acsCounterAtoS
            self.result = result
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("acsCounterAtoS", acsCounterAtoS.text)
            switch result {
            case let .screen(uiType):
                builder.set("challengeCompletionInd", ChallengeCompletion.N)
                builder.set("acsUiType", uiType)
            case let .final(transStatus):
                builder.set("challengeCompletionInd", ChallengeCompletion.Y)
                builder.set("transStatus", transStatus)
            }
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ChallengeResponseReceived, rhs: ChallengeResponseReceived) -> Bool {
            lhs.acsCounterAtoS == rhs.acsCounterAtoS && lhs.result == rhs.result && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            acsCounterAtoS = try r.counter("acsCounterAtoS")
            switch try r.enumeration("challengeCompletionInd", ChallengeCompletion.self) {
            case .N:
                // A transStatus on a non-final response is kept and ignored.
                result = .screen(try r.enumeration("acsUiType", ACSUIType.self))
            case .Y:
                // An acsUiType on a final response is kept and ignored.
                result = .final(try r.enumeration("transStatus", ChallengeTransStatus.self))
            }
            received = r.data
        }
    }

    /// `ChallengeCompleted`: the challenge ended with the final response's `transStatus`.
    public struct ChallengeCompleted: Sendable, Equatable, PayloadFields {
        public let transStatus: ChallengeTransStatus
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(transStatus: ChallengeTransStatus) {
            self.transStatus = transStatus
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("transStatus", transStatus)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ChallengeCompleted, rhs: ChallengeCompleted) -> Bool {
            lhs.transStatus == rhs.transStatus && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            transStatus = try r.enumeration("transStatus", ChallengeTransStatus.self)
            received = r.data
        }
    }

    /// `ProtocolErrorOccurred`: the SDK found a protocol error or the ACS sent an `Erro`.
    public struct ProtocolErrorOccurred: Sendable, Equatable, PayloadFields {
        /// Kept as a string (101, 201, …, or others the SDK passes on).
        public let errorCode: String
        public let errorComponent: ErrorComponent
        public let errorDescription: String
        public let errorDetail: String?
        public let errorMessageType: String?
        public let sentToACS: Bool
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public init(errorCode: String, errorComponent: ErrorComponent, errorDescription: String,
                    errorDetail: String? = nil, errorMessageType: String? = nil, sentToACS: Bool) {
            self.errorCode = errorCode
            self.errorComponent = errorComponent
            self.errorDescription = errorDescription
            self.errorDetail = errorDetail
            self.errorMessageType = errorMessageType
            self.sentToACS = sentToACS
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("errorCode", errorCode)
            builder.set("errorComponent", errorComponent)
            builder.set("errorDescription", errorDescription)
            builder.set("errorDetail", errorDetail)
            builder.set("errorMessageType", errorMessageType)
            builder.set("sentToACS", sentToACS)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: ProtocolErrorOccurred, rhs: ProtocolErrorOccurred) -> Bool {
            lhs.errorCode == rhs.errorCode && lhs.errorComponent == rhs.errorComponent
                && lhs.errorDescription == rhs.errorDescription && lhs.errorDetail == rhs.errorDetail
                && lhs.errorMessageType == rhs.errorMessageType && lhs.sentToACS == rhs.sentToACS
                && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            errorCode = try r.string("errorCode")
            errorComponent = try r.enumeration("errorComponent", ErrorComponent.self)
            errorDescription = try r.string("errorDescription")
            errorDetail = try r.optionalString("errorDetail")
            errorMessageType = try r.optionalString("errorMessageType")
            sentToACS = try r.bool("sentToACS")
            received = r.data
        }
    }

    /// `RuntimeErrorOccurred`: setup, transport or internal failure.
    public struct RuntimeErrorOccurred: Sendable, Equatable, PayloadFields {
        public let errorCode: String
        /// At most 256 Unicode code points.
        public let errorMessage: String
        /// `data` as received when decoded; nil when built by a command.
        @usableFromInline let received: JSONObject?
        /// The envelope's `data` object: as received, or, built by a command, made from the fields
        /// when asked for (canonical: catalog order, absent fields skipped).
        public var data: JSONObject { received ?? canonicalData() }

        public static let maximumMessageLength = 256

        public init(errorCode: String, errorMessage: String) {
            self.errorCode = errorCode
            self.errorMessage = errorMessage
            received = nil
        }

        /// The fields of `data` in catalog order, as a command builds it (see ``EventDataWriter``).
        @inlinable
        func writeFields<W: EventDataWriter>(to builder: inout W) {
            builder.set("errorCode", errorCode)
            builder.set("errorMessage", errorMessage)
        }

        /// Equal fields and equal `data`, whether built or decoded.
        public static func == (lhs: RuntimeErrorOccurred, rhs: RuntimeErrorOccurred) -> Bool {
            lhs.errorCode == rhs.errorCode && lhs.errorMessage == rhs.errorMessage && lhs.data == rhs.data
        }

        init(decoding r: FieldReader) throws(EventDecodingError) {
            errorCode = try r.string("errorCode")
            errorMessage = try r.string("errorMessage")
            received = r.data
            try checkRules(r)
        }

        /// The catalog's rules beyond the fields' JSON types (see ``TransactionCreated/checkRules(_:)``).
        func checkRules(_ r: @autoclosure () -> FieldReader) throws(EventDecodingError) {
            let length = errorMessage.unicodeScalars.count
            guard length <= Self.maximumMessageLength else {
                throw r().invalid("errorMessage", "must be at most \(Self.maximumMessageLength) Unicode code points, "
                                + "got \(length)")
            }
        }
    }
}

extension FieldReader {
    /// A three-digit counter string (`000` to `999`).
    func counter(_ key: String) throws(EventDecodingError) -> ChallengeCounter {
        let text = try string(key)
        guard let counter = ChallengeCounter(text: text) else {
            throw invalid(key, "must be three decimal digits, got \(ValueEcho.describe(text))")
        }
        return counter
    }
}
