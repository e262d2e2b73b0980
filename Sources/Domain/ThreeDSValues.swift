import JournalCore

// The value sets of spec §3.1. Raw values are the storage format: change them never.

// swift-format-ignore: AlwaysUseLowerCamelCase
// The case names spell the EMV wire values (spec §3.1), as the specification and logs do.
/// The 3DS protocol versions the journal accepts.
public enum MessageVersion: String, Sendable, Hashable, CaseIterable {
    case v2_1_0 = "2.1.0"
    case v2_2_0 = "2.2.0"
    case v2_3_0 = "2.3.0"
    case v2_3_1 = "2.3.1"
}

/// The directory servers the SDK knows; any other ID needs `customCertificate: true`.
public enum DirectoryServer {
    /// Known IDs and their networks, in the order of spec §3.1.
    public static let known: [(id: String, name: String)] = [
        ("A000000003", "Visa"), ("A000000004", "Mastercard"), ("A000000025", "American Express"),
        ("A000000324", "Discover"), ("A000000042", "Cartes Bancaires"), ("F055545342", "Test RSA"),
        ("F155545342", "Test EC")
    ]

    /// Registered application provider IDs (RIDs) seen as custom directory servers (accepted
    /// only with `customCertificate: true`), named for people reading analytics.
    public static let otherSchemes: [(id: String, name: String)] = [
        ("A000000152", "Discover/Diners"), ("A000000065", "JCB"), ("A000000333", "UnionPay")
    ]

    /// The scheme's name for a directory server ID (nil for an ID no scheme is known by).
    public static func schemeName(_ id: String) -> String? {
        for entry in known where entry.id == id { return entry.name }
        for entry in otherSchemes where entry.id == id { return entry.name }
        return nil
    }

    /// True when `id` is one of the known directory server IDs.
    public static func isKnown(_ id: String) -> Bool {
        for entry in known where entry.id == id { return true }
        return false
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// The case names spell the EMV wire values (spec §3.1), as the specification and logs do.
/// `transStatus` of an ARes (all eight values) or of a final CRes (Y or N only).
public enum TransStatus: String, Sendable, Hashable, CaseIterable {
    case Y, N, U, A, C, D, R, I

    /// True for `C` and `D`: the ARes asks for a challenge.
    public var requiresChallenge: Bool { self == .C || self == .D }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// The case names spell the EMV wire values (spec §3.1), as the specification and logs do.
/// The final result of a challenge: `transStatus` Y or N.
public enum ChallengeTransStatus: String, Sendable, Hashable, CaseIterable {
    case Y, N
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// The case names spell the EMV wire values (spec §3.1), as the specification and logs do.
/// `challengeCompletionInd` of a CRes.
public enum ChallengeCompletion: String, Sendable, Hashable, CaseIterable {
    /// Final response: the challenge is over.
    case Y
    /// Another screen follows.
    case N
}

/// The ACS screen type of a non-final CRes.
public enum ACSUIType: String, Sendable, Hashable, CaseIterable, Comparable {
    case text = "01"
    case singleSelect = "02"
    case multiSelect = "03"
    case oob = "04"
    case html = "05"
    case htmlOOB = "06"
    case information = "07"

    public static func < (lhs: ACSUIType, rhs: ACSUIType) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name spec §3.1 gives the UI type (`text`, `single_select`, …).
    public var label: String {
        switch self {
        case .text: return "text"
        case .singleSelect: return "single_select"
        case .multiSelect: return "multi_select"
        case .oob: return "oob"
        case .html: return "html"
        case .htmlOOB: return "html_oob"
        case .information: return "information"
        }
    }

    var bit: UInt8 {
        switch self {
        case .text: return 1 << 0
        case .singleSelect: return 1 << 1
        case .multiSelect: return 1 << 2
        case .oob: return 1 << 3
        case .html: return 1 << 4
        case .htmlOOB: return 1 << 5
        case .information: return 1 << 6
        }
    }
}

/// The `action` of a CReq.
public enum ChallengeAction: String, Sendable, Hashable, CaseIterable {
    case initial
    case submitText
    case resend
    case submitSelection
    case oobContinue
    case htmlForm
    case `continue`
    case cancel

    /// True when this action may answer a screen of `uiType` (spec §3.1). `initial` fits none:
    /// it is only the first request of a challenge.
    public func fits(_ uiType: ACSUIType) -> Bool {
        switch self {
        case .initial: return false
        case .cancel: return true
        case .submitText, .resend: return uiType == .text
        case .submitSelection: return uiType == .singleSelect || uiType == .multiSelect
        case .oobContinue: return uiType == .oob || uiType == .htmlOOB
        case .htmlForm: return uiType == .html || uiType == .htmlOOB
        case .continue: return uiType == .information
        }
    }

    /// The actions that fit a screen of `uiType`, in catalog order.
    public static func fitting(_ uiType: ACSUIType) -> [ChallengeAction] {
        allCases.filter { $0.fits(uiType) }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// The case names spell the EMV wire values (spec §3.1), as the specification and logs do.
/// `errorComponent` of a protocol error.
public enum ErrorComponent: String, Sendable, Hashable, CaseIterable {
    case C, S, D, A
}

/// A CReq/CRes counter: three decimal digits, `000` to `999`.
public struct ChallengeCounter: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: Int

    public init?(_ value: Int) {
        guard (0...999).contains(value) else { return nil }
        self.value = value
    }

    /// Parses exactly three ASCII digits.
    public init?(text: String) {
        var value = 0
        var count = 0
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39, count < 3 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            count += 1
        }
        guard count == 3 else { return nil }
        self.value = value
    }

    public static let first = ChallengeCounter(0)!

    /// The next counter, nil after `999`.
    public var next: ChallengeCounter? { ChallengeCounter(value + 1) }

    /// The three-digit text (`007`).
    public var text: String { Self.texts[value] }

    /// `000` to `999`, made once: three-byte strings are stored inline, so each lookup is a copy.
    private static let texts: [String] = (0...999).map { value in
        let digits = String(value)
        return String(repeating: "0", count: 3 - digits.count) + digits
    }

    public var description: String { text }
    public static func < (lhs: ChallengeCounter, rhs: ChallengeCounter) -> Bool { lhs.value < rhs.value }
}
