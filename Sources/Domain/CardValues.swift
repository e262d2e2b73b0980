import JournalCore

// The value sets of spec §3.2. Raw values are the storage format: change them never.

/// How the card entered the digitization journey.
public enum InputMethod: String, Sendable, Hashable, CaseIterable {
    case manual, bankApp, pushSession
}

/// The eligibility verdict.
public enum EligibilityOutcome: String, Sendable, Hashable, CaseIterable {
    case eligible, notEligible
}

/// An ID&V method type offered in the yellow flow.
public enum IDVMethodType: String, Sendable, Hashable, CaseIterable {
    case otpBySMS, otpByEmail, customerService, webService, appToApp

    /// True for the two OTP methods.
    public var isOTP: Bool { self == .otpBySMS || self == .otpByEmail }
}

/// One offered ID&V method: `{"id", "type", "withCryptogram" (appToApp only)}`.
public struct IDVMethod: Sendable, Equatable {
    public let id: String
    public let type: IDVMethodType
    /// Whether the issuer app returns a cryptogram (TAV); set for appToApp methods only.
    public let withCryptogram: Bool?
    /// The method's JSON object, as received or canonical.
    public let json: JSONObject

    public init(id: String, type: IDVMethodType, withCryptogram: Bool? = nil) {
        self.id = id
        self.type = type
        self.withCryptogram = type == .appToApp ? (withCryptogram ?? false) : nil
        var builder = DataBuilder()
        builder.set("id", id)
        builder.set("type", type)
        builder.set("withCryptogram", self.withCryptogram)
        json = builder.object
    }

    init(decoding r: FieldReader) throws(EventDecodingError) {
        id = try r.read("id")
        type = try r.read("type")
        let cryptogram = try r.read("withCryptogram", as: Bool?.self)
        switch type {
        case .appToApp:
            guard let cryptogram else {
                throw r.fail(.missingField, "withCryptogram", "is required for appToApp methods")
            }
            withCryptogram = cryptogram
        case .otpBySMS, .otpByEmail, .customerService, .webService:
            guard cryptogram == nil else {
                throw r.invalid("withCryptogram", "is allowed for appToApp methods only, got it on \(type.rawValue)")
            }
            withCryptogram = nil
        }
        json = r.data
    }

    /// True for an appToApp method without cryptogram: not selectable once the journey resumed.
    public var isAppToAppWithoutCryptogram: Bool { type == .appToApp && withCryptogram == false }
}

/// The SDK's pending-activation state reported by `ActivationRequired`.
public enum ActivationRequiredState: String, Sendable, Hashable, CaseIterable {
    case otpNeeded, appToAppSelected
}

/// Why an OTP was refused.
public enum OTPRejectionReason: String, Sendable, Hashable, CaseIterable {
    case incorrect, expired
}

/// Why an activation failed.
public enum ActivationFailureReason: String, Sendable, Hashable, CaseIterable {
    case otpAttemptsExhausted, deviceUnsafe, idvFailed, other
}

/// The CPS message code that activates the card.
public enum CPSMessageCode {
    public static let tokenProvisioned = "CBP.info.tokenProvisioned"
}
