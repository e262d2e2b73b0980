import Domain
import JournalCore
import Testing

@testable import Simulator

/// Every path of issue 6 occurs: in a moderate run of the realistic profile (every event type
/// and outcome, every directory server, version and UI type), and in a coverage-profile run
/// (every error code and every rare step).
@Suite("Simulation coverage")
struct SimulationCoverageTests {
    static var moderate: [SimulatedEvent] { SimulationSupport.moderateRun.events }
    static var statistics: SimulationStatistics { SimulationSupport.moderateRun.statistics }

    @Test func theCountsAreStreamCounts() {
        #expect(Self.statistics.transactions == 8_000)
        #expect(Self.statistics.digitizations == 4_000)
        #expect(Set(Self.moderate.filter { $0.stream.hasPrefix("3ds-") }.map(\.stream)).count == 8_000)
        #expect(Set(Self.moderate.filter { $0.stream.hasPrefix("card-") }.map(\.stream)).count == 4_000)
        #expect(Self.statistics.events == Self.moderate.count)
    }

    @Test func everyEventTypeOccursInAModerateRun() {
        var counts: [String: Int] = [:]
        for event in Self.moderate { counts[event.type, default: 0] += 1 }
        for type in ThreeDSEvent.typeNames + CardEvent.typeNames {
            #expect((counts[type] ?? 0) > 0, "event type never generated: \(type)")
        }
        #expect(counts == Self.statistics.eventTypes)
    }

    @Test func everyOutcomeOccursInAModerateRun() {
        for key in ThreeDSTransaction.OutcomeKey.allCases where key != .open {
            #expect((Self.statistics.outcomes["3ds.\(key.rawValue)"] ?? 0) > 0, "3DS outcome never reached: \(key)")
        }
        for key in CardDigitization.OutcomeKey.allCases where key != .open {
            #expect((Self.statistics.outcomes["card.\(key.rawValue)"] ?? 0) > 0, "card outcome never reached: \(key)")
        }
        #expect(Self.statistics.outcomes["3ds.open"] == nil && Self.statistics.outcomes["card.open"] == nil)
    }

    @Test func everyDirectoryServerVersionAndUIChoiceOccurs() {
        var servers = Set<String>()
        var customWithCertificate = 0
        var versions = Set<String>()
        var uiTypes = Set<String>()
        var actions = Set<String>()
        var aresStatuses = Set<String>()
        for event in Self.moderate {
            let data = SimulationSupport.parse(event.data)
            switch event.type {
            case "TransactionCreated":
                let server = data["directoryServerID"]?.stringValue ?? ""
                servers.insert(server)
                if !DirectoryServer.known.contains(where: { $0.id == server }) {
                    #expect(data["customCertificate"]?.boolValue == true)
                    customWithCertificate += 1
                }
                versions.insert(data["messageVersion"]?.stringValue ?? "")
            case "AuthResponseReceived": aresStatuses.insert(data["transStatus"]?.stringValue ?? "")
            case "ChallengeResponseReceived": if let ui = data["acsUiType"]?.stringValue { uiTypes.insert(ui) }
            case "ChallengeRequestSent": actions.insert(data["action"]?.stringValue ?? "")
            default: break
            }
        }
        for server in DirectoryServer.known.map(\.id) {
            #expect(servers.contains(server), "no transaction on \(server)")
        }
        #expect(customWithCertificate > 0)
        #expect(versions == Set(MessageVersion.allCases.map(\.rawValue)))
        #expect(aresStatuses == Set(TransStatus.allCases.map(\.rawValue)))
        #expect(uiTypes == Set(ACSUIType.allCases.map(\.rawValue)))
        #expect(actions == Set(ChallengeAction.allCases.map(\.rawValue)))
    }

    @Test func theARésSharesFollowTheProfile() {
        var statuses: [String: Int] = [:]
        for event in Self.moderate where event.type == "AuthResponseReceived" {
            statuses[SimulationSupport.parse(event.data)["transStatus"]?.stringValue ?? "", default: 0] += 1
        }
        let total = Double(statuses.values.reduce(0, +))
        let frictionless = Double((statuses["Y"] ?? 0) + (statuses["A"] ?? 0)) / total
        // 58 % in the profile; 8,000 draws keep the share within a few points.
        #expect(frictionless > 0.55 && frictionless < 0.61, "frictionless share \(frictionless)")
    }

    @Test func everyCardPathOccurs() {
        var methodTypes = Set<String>()
        var withCryptogram = Set<Bool>()
        var rejections = Set<String>()
        var failures = Set<String>()
        var inputs = Set<String>()
        for event in Self.moderate {
            let data = SimulationSupport.parse(event.data)
            switch event.type {
            case "EligibilityChecked": inputs.insert(data["inputMethod"]?.stringValue ?? "")
            case "DigitizationApprovedWithIDV":
                for method in data["methods"]?.arrayValue ?? [] {
                    methodTypes.insert(method.objectValue?["type"]?.stringValue ?? "")
                    if let flag = method.objectValue?["withCryptogram"]?.boolValue { withCryptogram.insert(flag) }
                }
            case "OTPRejected": rejections.insert(data["reason"]?.stringValue ?? "")
            case "ActivationFailed": failures.insert(data["reason"]?.stringValue ?? "")
            case "AppToAppResumed": withCryptogram.insert(data["withTAV"]?.boolValue ?? false)
            default: break
            }
        }
        #expect(inputs == Set(InputMethod.allCases.map(\.rawValue)))
        #expect(methodTypes == Set(IDVMethodType.allCases.map(\.rawValue)))
        #expect(withCryptogram == [true, false])
        #expect(rejections == Set(OTPRejectionReason.allCases.map(\.rawValue)))
        #expect(failures == Set(ActivationFailureReason.allCases.map(\.rawValue)))
    }

    @Test func theCoverageProfileReachesEveryPathAndErrorCode() {
        let paths = SimulationSupport.coverageRun.pathCounts
        let expected = [
            "ares:Y", "ares:N", "ares:U", "ares:A", "ares:C", "ares:D", "ares:R", "ares:I",
            "frictionless", "abandoned:created", "abandoned:authParameters", "abandoned:ares",
            "ui:01", "ui:02", "ui:03", "ui:04", "ui:05", "ui:06", "ui:07",
            "action:submitText", "action:resend", "action:submitSelection", "action:oobContinue", "action:htmlForm",
            "action:continue", "action:cancel", "completedY", "completedN", "cancelled", "timedOut", "protocolError",
            "runtimeError", "notEligible", "approved", "declined", "select:otpBySMS", "select:otpByEmail",
            "select:customerService", "select:webService", "select:appToApp+tav", "select:appToApp-tav",
            "select:otpBySMS:afterResume", "otp:incorrect", "otp:incorrectNoCount", "otp:expired", "otp:exhausted",
            "appToApp:resumedWithTAV", "appToApp:resumedWithoutTAV", "activated:otp", "activated:tav",
            "activated:issuer",
            "activated:outOfBand", "interrupted", "resumed", "cps:other", "cancelledWhileInterrupted",
            "expiredWhileInterrupted", "activatedWhileInterrupted", "failedWhileInterrupted", "expired", "failed"
        ]
        for label in expected { #expect((paths[label] ?? 0) > 0, "path never taken: \(label)") }
        for code in ["101", "102", "201", "202", "203", "207", "301", "302", "402"] {
            #expect((paths["protocolError:\(code)"] ?? 0) > 0, "protocol error \(code) never reported")
        }
        for code in [
            "1002", "-1009", "3840", "2000", "204", "STDSRuntimeErrorCodeEncryptionError",
            "STDSRuntimeErrorCodeParsingError"
        ] {
            #expect((paths["runtimeError:\(code)"] ?? 0) > 0, "runtime error \(code) never reported")
        }
    }

    @Test func protocolErrorsCarryEveryComponentAndBothDirections() {
        var components = Set<String>()
        var sent = Set<Bool>()
        for event in SimulationSupport.coverageRun.events where event.type == "ProtocolErrorOccurred" {
            let data = SimulationSupport.parse(event.data)
            components.insert(data["errorComponent"]?.stringValue ?? "")
            sent.insert(data["sentToACS"]?.boolValue ?? false)
        }
        #expect(components.isSuperset(of: ["C", "A"]))
        #expect(sent == [true, false])
    }

    @Test func multiRoundChallengesAndOTPReentriesOccur() {
        var requests: [String: [String]] = [:]
        for event in Self.moderate where event.type == "ChallengeRequestSent" {
            requests[event.stream, default: []].append(SimulationSupport.parse(event.data)["action"]?.stringValue ?? "")
        }
        #expect(requests.values.contains { $0.filter { $0 == "submitText" }.count >= 2 }, "an OTP entered again")
        #expect(
            requests.values.contains { $0.contains("resend") && $0.contains("submitText") }, "a resend, then the code")
        #expect(requests.values.contains { $0.count >= 4 }, "a challenge of three rounds or more")
        #expect(
            requests.values.contains { $0.contains("continue") && $0.contains("submitText") },
            "an information screen first")
    }
}
