import JournalCore

extension ThreeDSEvent {
    /// `TransactionCreated`: the SDK created the transaction for a directory server and version.
    public struct TransactionCreated: Sendable, Equatable, CatalogPayload {
        public let directoryServerID: String
        public let messageVersion: MessageVersion
        public let customCertificate: Bool?
        public let warnings: [String]?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(
            directoryServerID: String, messageVersion: MessageVersion, customCertificate: Bool? = nil,
            warnings: [String]? = nil
        ) {
            self.directoryServerID = directoryServerID
            self.messageVersion = messageVersion
            self.customCertificate = customCertificate
            self.warnings = warnings
        }

        static let table = PayloadTable(
            Self.init, PayloadField("directoryServerID", { $0.directoryServerID }),
            PayloadField("messageVersion", { $0.messageVersion }),
            PayloadField("customCertificate", { $0.customCertificate }), PayloadField("warnings", { $0.warnings }),
            rule: { payload in
                guard !DirectoryServer.isKnown(payload.directoryServerID) && payload.customCertificate != true else {
                    return nil
                }
                return (
                    "directoryServerID",
                    "must be a known directory server ID unless customCertificate is true, "
                        + "got \(ValueEcho.describe(payload.directoryServerID))"
                )
            })
    }

    /// `AuthRequestParametersCreated`: the SDK built the AReq parameters (device data encrypted).
    public struct AuthRequestParametersCreated: Sendable, Equatable, CatalogPayload {
        public let sdkReferenceNumber: String
        /// Size of the encrypted device data, 0 when there was none.
        public let deviceDataBytes: Int64
        public let sdkAppIDRef: String?
        public let ephemeralKeyThumbprint: String?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(
            sdkReferenceNumber: String, deviceDataBytes: Int64, sdkAppIDRef: String? = nil,
            ephemeralKeyThumbprint: String? = nil
        ) {
            self.sdkReferenceNumber = sdkReferenceNumber
            self.deviceDataBytes = deviceDataBytes
            self.sdkAppIDRef = sdkAppIDRef
            self.ephemeralKeyThumbprint = ephemeralKeyThumbprint
        }

        static let table = PayloadTable(
            Self.init, PayloadField("sdkReferenceNumber", { $0.sdkReferenceNumber }),
            PayloadField("deviceDataBytes", { $0.deviceDataBytes }, .atLeast(0)),
            PayloadField("sdkAppIDRef", { $0.sdkAppIDRef }),
            PayloadField("ephemeralKeyThumbprint", { $0.ephemeralKeyThumbprint }))
    }

    /// `AuthResponseReceived`: the app reported the ARes.
    public struct AuthResponseReceived: Sendable, Equatable, CatalogPayload {
        public let threeDSServerTransID: String
        public let acsTransID: String
        public let transStatus: TransStatus
        public let transStatusReason: String?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(
            threeDSServerTransID: String, acsTransID: String, transStatus: TransStatus,
            transStatusReason: String? = nil
        ) {
            self.threeDSServerTransID = threeDSServerTransID
            self.acsTransID = acsTransID
            self.transStatus = transStatus
            self.transStatusReason = transStatusReason
        }

        static let table = PayloadTable(
            Self.init, PayloadField("threeDSServerTransID", { $0.threeDSServerTransID }, .uuid),
            PayloadField("acsTransID", { $0.acsTransID }), PayloadField("transStatus", { $0.transStatus }),
            PayloadField("transStatusReason", { $0.transStatusReason }))
    }

    /// `ChallengeStarted`: `doChallenge` accepted, the overall timer armed.
    public struct ChallengeStarted: Sendable, Equatable, CatalogPayload {
        /// Seconds before the challenge times out; at least 300.
        public let timeoutSeconds: Int64
        public let acsReferenceNumber: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        /// The smallest timeout the SDK accepts.
        public static let minimumTimeoutSeconds: Int64 = 300

        public init(timeoutSeconds: Int64, acsReferenceNumber: String) {
            self.timeoutSeconds = timeoutSeconds
            self.acsReferenceNumber = acsReferenceNumber
        }

        // The upper bound keeps start + timeout in milliseconds from overflowing.
        static let table = PayloadTable(
            Self.init,
            PayloadField(
                "timeoutSeconds", { $0.timeoutSeconds }, .atLeast(minimumTimeoutSeconds), .atMost(1_000_000_000)),
            PayloadField("acsReferenceNumber", { $0.acsReferenceNumber }))
    }

    /// `ChallengeRequestSent`: a CReq left the SDK.
    public struct ChallengeRequestSent: Sendable, Equatable, CatalogPayload {
        public let sdkCounterStoA: ChallengeCounter
        public let action: ChallengeAction
        public let entryLength: Int64?
        public let noEntry: Bool?
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(
            sdkCounterStoA: ChallengeCounter, action: ChallengeAction, entryLength: Int64? = nil,
            noEntry: Bool? = nil
        ) {
            self.sdkCounterStoA = sdkCounterStoA
            self.action = action
            self.entryLength = entryLength
            self.noEntry = noEntry
        }

        static let table = PayloadTable(
            Self.init, PayloadField("sdkCounterStoA", { $0.sdkCounterStoA }), PayloadField("action", { $0.action }),
            PayloadField("entryLength", { $0.entryLength }, .atLeast(0)), PayloadField("noEntry", { $0.noEntry }))
    }

    /// `ChallengeResponseReceived`: a CRes answered the request in flight.
    public struct ChallengeResponseReceived: Sendable, Equatable, CatalogPayload {
        /// What the response says: another screen, or the final result.
        public enum Result: Sendable, Equatable {
            /// `challengeCompletionInd` N: the next screen has this UI type.
            case screen(ACSUIType)
            /// `challengeCompletionInd` Y: the challenge's `transStatus`.
            case final(ChallengeTransStatus)
        }

        public let acsCounterAtoS: ChallengeCounter
        public let result: Result
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public var isFinal: Bool {
            if case .final = result { return true }
            return false
        }

        public init(acsCounterAtoS: ChallengeCounter, result: Result) {
            self.acsCounterAtoS = acsCounterAtoS
            self.result = result
        }

        static let table = PayloadTable(
            Self.init, PayloadField("acsCounterAtoS", { $0.acsCounterAtoS }),
            PayloadField("challengeCompletionInd", { $0.result }))
    }

    /// `ChallengeCompleted`: the challenge ended with the final response's `transStatus`.
    public struct ChallengeCompleted: Sendable, Equatable, CatalogPayload {
        public let transStatus: ChallengeTransStatus
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(transStatus: ChallengeTransStatus) { self.transStatus = transStatus }

        static let table = PayloadTable(Self.init, PayloadField("transStatus", { $0.transStatus }))
    }

    /// `ProtocolErrorOccurred`: the SDK found a protocol error or the ACS sent an `Erro`.
    public struct ProtocolErrorOccurred: Sendable, Equatable, CatalogPayload {
        /// Kept as a string (101, 201, …, or others the SDK passes on).
        public let errorCode: String
        public let errorComponent: ErrorComponent
        public let errorDescription: String
        public let errorDetail: String?
        public let errorMessageType: String?
        public let sentToACS: Bool
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public init(
            errorCode: String, errorComponent: ErrorComponent, errorDescription: String,
            errorDetail: String? = nil, errorMessageType: String? = nil, sentToACS: Bool
        ) {
            self.errorCode = errorCode
            self.errorComponent = errorComponent
            self.errorDescription = errorDescription
            self.errorDetail = errorDetail
            self.errorMessageType = errorMessageType
            self.sentToACS = sentToACS
        }

        static let table = PayloadTable(
            Self.init, PayloadField("errorCode", { $0.errorCode }),
            PayloadField("errorComponent", { $0.errorComponent }),
            PayloadField("errorDescription", { $0.errorDescription }), PayloadField("errorDetail", { $0.errorDetail }),
            PayloadField("errorMessageType", { $0.errorMessageType }), PayloadField("sentToACS", { $0.sentToACS }))
    }

    /// `RuntimeErrorOccurred`: setup, transport or internal failure.
    public struct RuntimeErrorOccurred: Sendable, Equatable, CatalogPayload {
        public let errorCode: String
        /// At most 256 Unicode code points.
        public let errorMessage: String
        var received: JSONObject?
        public var data: JSONObject { payloadData }

        public static let maximumMessageLength = 256

        public init(errorCode: String, errorMessage: String) {
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }

        static let table = PayloadTable(
            Self.init, PayloadField("errorCode", { $0.errorCode }),
            PayloadField("errorMessage", { $0.errorMessage }, .atMostCodePoints(maximumMessageLength)))
    }
}

extension ThreeDSEvent.ChallengeResponseReceived.Result: FieldValue {
    /// `challengeCompletionInd`, then the field it calls for: `acsUiType` after N, `transStatus`
    /// after Y (the other one, if present, is kept in `data` and ignored).
    static func read(_ value: JSONValue, _ r: FieldReader, _ key: String) throws(EventDecodingError) -> Self {
        switch try ChallengeCompletion.read(value, r, key) {
        case .N: return .screen(try ACSUIType.read(r, "acsUiType"))
        case .Y: return .final(try ChallengeTransStatus.read(r, "transStatus"))
        }
    }

    var output: FieldOutput {
        switch self {
        case let .screen(uiType): return .stringThen(ChallengeCompletion.N.rawValue, key: "acsUiType", uiType.rawValue)
        case let .final(transStatus):
            return .stringThen(ChallengeCompletion.Y.rawValue, key: "transStatus", transStatus.rawValue)
        }
    }
}
