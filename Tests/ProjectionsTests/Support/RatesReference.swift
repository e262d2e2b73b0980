import EventStore
import JournalCore
import Projections

/// A second, deliberately naive `rates` (spec §7): read the whole log with `readAll`, group
/// it by stream, fold each stream's events in version order into a few facts, then count the
/// streams whose first event lies in the window. Shares no code with the read models (only the
/// report type, whose counting helpers it does not use).
struct RatesReference {
    struct ThreeDS {
        var start: Int64
        var ares: String?
        var challenged = false
        var end: String?
        var endStatus: String?
    }

    struct Card {
        var start: Int64
        var eligible = false
        var decision: String?
        var activated = false
        var methodTypes: [String: String] = [:]
        var selectedTypes: Set<String> = []
        var lastSelectedType: String?
    }

    var transactions: [ThreeDS] = []
    var journeys: [Card] = []

    init(_ source: any ProjectionEventSource) throws {
        var all: [RecordedEvent] = []
        var position: Int64 = 1
        while true {
            let page = try source.readAll(from: position, limit: 500)
            guard let last = page.last else { break }
            all += page
            position = last.position + 1
        }
        var byStream: [String: [RecordedEvent]] = [:]
        var order: [String] = []
        for event in all {
            if byStream[event.stream.rawValue] == nil { order.append(event.stream.rawValue) }
            byStream[event.stream.rawValue, default: []].append(event)
        }
        for name in order {
            let events = byStream[name]!.sorted { $0.version < $1.version }
            if name.hasPrefix("3ds-") { transactions.append(Self.threeDS(events)) }
            if name.hasPrefix("card-") { journeys.append(Self.card(events)) }
        }
    }

    private static func data(_ event: RecordedEvent) -> JSONObject {
        (try? JSONParser().parse(event.data))?.objectValue ?? JSONObject()
    }

    private static func threeDS(_ events: [RecordedEvent]) -> ThreeDS {
        var stream = ThreeDS(start: events[0].occurredAt.millisecondsSinceEpoch)
        for event in events {
            let data = data(event)
            switch event.type {
            case "AuthResponseReceived": stream.ares = data["transStatus"]?.stringValue
            case "ChallengeStarted": stream.challenged = true
            case "ChallengeCompleted":
                stream.end = event.type
                stream.endStatus = data["transStatus"]?.stringValue
            case "ChallengeCancelled", "ChallengeTimedOut", "ProtocolErrorOccurred", "RuntimeErrorOccurred",
                "TransactionClosed":
                stream.end = event.type
            default: break
            }
        }
        return stream
    }

    private static func card(_ events: [RecordedEvent]) -> Card {
        var journey = Card(start: events[0].occurredAt.millisecondsSinceEpoch)
        for event in events {
            let data = data(event)
            switch event.type {
            case "EligibilityChecked": journey.eligible = data["outcome"]?.stringValue == "eligible"
            case "DigitizationApproved": journey.decision = "green"
            case "DigitizationDeclined": journey.decision = "red"
            case "DigitizationApprovedWithIDV":
                journey.decision = "yellow"
                for method in data["methods"]?.arrayValue ?? [] {
                    let object = method.objectValue ?? JSONObject()
                    journey.methodTypes[object["id"]?.stringValue ?? ""] = object["type"]?.stringValue
                }
            case "IDVMethodSelected":
                let type = journey.methodTypes[data["idvID"]?.stringValue ?? ""] ?? "unknown"
                journey.selectedTypes.insert(type)
                journey.lastSelectedType = type
            case "ActivatedByIDV": journey.activated = true
            case "CPSNotificationReceived":
                if data["messageCode"]?.stringValue == "CBP.info.tokenProvisioned", journey.decision == "yellow" {
                    journey.activated = true
                }
            default: break
            }
        }
        return journey
    }

    func rates(_ window: QueryWindow) -> RatesReport {
        var report = RatesReport()
        for t in transactions where window.contains(t.start) {
            report.transactions += 1
            let frictionless = t.ares == "Y" || t.ares == "A"
            if t.ares != nil { report.responses += 1 }
            if frictionless { report.frictionless += 1 }
            if t.challenged { report.challenged += 1 }
            if frictionless || (t.end == "ChallengeCompleted" && t.endStatus == "Y") { report.authenticated += 1 }
            if t.challenged && (t.end == "ChallengeCancelled" || t.end == "ChallengeTimedOut") { report.abandoned += 1 }
            if t.end == "ProtocolErrorOccurred" || t.end == "RuntimeErrorOccurred" { report.failed += 1 }
        }
        for j in journeys where window.contains(j.start) {
            report.journeys += 1
            if j.eligible { report.eligible += 1 }
            if j.decision == "green" { report.green += 1 }
            if j.decision == "red" { report.red += 1 }
            guard j.decision == "yellow" else { continue }
            report.yellow += 1
            if j.activated { report.activated += 1 }
            for type in j.selectedTypes { report.byMethod[type, default: RatesReport.Method()].selected += 1 }
            if j.activated, let last = j.lastSelectedType {
                report.byMethod[last, default: RatesReport.Method()].activated += 1
            }
        }
        return report
    }

    /// Every stream's start, sorted: window edges that cut exactly on a counted event.
    var starts: [Int64] { (transactions.map(\.start) + journeys.map(\.start)).sorted() }
}
