import EventStore
import JournalCore
import Projections

/// A second, deliberately simple implementation of every query, straight from the raw events:
/// group the log by stream, walk each stream in version order, count what falls in the window.
/// Shares no code with the projections (only the report types and `Distribution`).
struct Reference {
    struct Event {
        var type: String
        var t: Int64
        var data: JSONObject
        func s(_ key: String) -> String? { data[key]?.stringValue }
    }

    var streams: [(name: String, events: [Event])] = []

    init(_ log: [RecordedEvent]) {
        var index: [String: Int] = [:]
        for event in log.sorted(by: { $0.position < $1.position }) {
            let data = (try? JSONParser().parse(event.data))?.objectValue ?? JSONObject()
            let e = Event(type: event.type, t: event.occurredAt.millisecondsSinceEpoch, data: data)
            if let i = index[event.stream.rawValue] {
                streams[i].events.append(e)
            } else {
                index[event.stream.rawValue] = streams.count
                streams.append((event.stream.rawValue, [e]))
            }
        }
    }

    var threeDS: [[Event]] { streams.filter { $0.name.hasPrefix("3ds-") }.map(\.events) }
    var cards: [[Event]] { streams.filter { $0.name.hasPrefix("card-") }.map(\.events) }

    static let terminal3DS: Set<String> = [
        "TransactionClosed", "ChallengeCompleted", "ChallengeCancelled",
        "ChallengeTimedOut", "ProtocolErrorOccurred", "RuntimeErrorOccurred"
    ]

    /// The stream's final outcome key, from its terminal event.
    static func outcome3DS(_ events: [Event]) -> String {
        guard let last = events.last(where: { terminal3DS.contains($0.type) }) else { return "open" }
        switch last.type {
        case "ChallengeCompleted": return last.s("transStatus") == "Y" ? "completedY" : "completedN"
        case "ChallengeCancelled": return "cancelled"
        case "ChallengeTimedOut": return "timedOut"
        case "ProtocolErrorOccurred": return "protocolError"
        case "RuntimeErrorOccurred": return "runtimeError"
        default: return "closed"
        }
    }

    static func isActivation(_ e: Event) -> Bool {
        e.type == "ActivatedByIDV"
            || (e.type == "CPSNotificationReceived" && e.s("messageCode") == "CBP.info.tokenProvisioned")
    }

    /// Walks a card stream, calling `visit` with each event and the kind of the method selected
    /// last before it (nil when none), the offered kinds, and the decision time.
    static func walkCard(_ events: [Event], _ visit: (Event, String?, Int64?, Int) -> Void) {
        var kinds: [String: String] = [:]
        var selected: String?
        var decision: Int64?
        var selections = 0
        for e in events {
            visit(e, selected, decision, selections)
            if e.type == "DigitizationApprovedWithIDV" {
                decision = e.t
                for m in e.data["methods"]?.arrayValue ?? [] {
                    let o = m.objectValue ?? JSONObject()
                    let type = o["type"]?.stringValue ?? "unknown"
                    kinds[o["id"]?.stringValue ?? ""] =
                        type == "appToApp"
                        ? (o["withCryptogram"]?.boolValue == true
                            ? "appToAppWithCryptogram" : "appToAppWithoutCryptogram")
                        : type
                }
            }
            if e.type == "IDVMethodSelected" {
                selected = kinds[e.s("idvID") ?? ""] ?? "unknown"
                selections += 1
            }
        }
    }

    static func methodKinds(_ e: Event) -> [String] {
        (e.data["methods"]?.arrayValue ?? []).map { m in
            let o = m.objectValue ?? JSONObject()
            let type = o["type"]?.stringValue ?? "unknown"
            if type != "appToApp" { return type }
            return o["withCryptogram"]?.boolValue == true ? "appToAppWithCryptogram" : "appToAppWithoutCryptogram"
        }
    }

    /// The first activation of a card stream after its yellow decision (the journey ends there).
    static func activation(_ events: [Event]) -> (event: Event, method: String?, decision: Int64?)? {
        var found: (Event, String?, Int64?)?
        walkCard(events) { e, selected, decision, _ in
            if found == nil, isActivation(e), e.type == "ActivatedByIDV" || decision != nil {
                found = (e, selected, decision)
            }
        }
        return found
    }

    // MARK: - Queries

    func otp(_ w: QueryWindow) -> OTPReport {
        var r = OTPReport()
        for events in threeDS {
            let submits = events.filter {
                $0.type == "ChallengeRequestSent" && $0.s("action") == "submitText" && w.contains($0.t)
            }
            r.threeDSSubmissions += Int64(submits.count)
            r.resends += Int64(
                events.filter { $0.type == "ChallengeRequestSent" && $0.s("action") == "resend" && w.contains($0.t) }
                    .count)
            if !submits.isEmpty {
                r.transactions += 1
                r.outcomes[Self.outcome3DS(events), default: 0] += 1
            }
        }
        for events in cards {
            var submitted = false
            Self.walkCard(events) { e, selected, _, _ in
                guard w.contains(e.t) else { return }
                if e.type == "OTPSubmitted" {
                    r.tokenizationSubmissions += 1
                    r.byMethod[selected ?? "none", default: 0] += 1
                    submitted = true
                }
                if e.type == "OTPRejected" { r.rejected[e.s("reason") ?? "unknown", default: 0] += 1 }
            }
            if submitted {
                r.journeys += 1
                if Self.activation(events) != nil { r.activated += 1 }
            }
        }
        return r
    }

    func timeouts(_ w: QueryWindow) -> TimeoutsReport {
        var r = TimeoutsReport()
        for events in threeDS {
            let ds = events.first { $0.type == "TransactionCreated" }?.s("directoryServerID") ?? "unknown"
            var lastUi: String?
            for e in events {
                if e.type == "ChallengeResponseReceived", e.s("challengeCompletionInd") == "N" {
                    lastUi = e.s("acsUiType")
                }
                if e.type == "ChallengeTimedOut", w.contains(e.t) {
                    r.challengeTimeouts += 1
                    r.byDirectoryServer[ds, default: 0] += 1
                    r.byUiType[lastUi ?? "none", default: 0] += 1
                }
            }
        }
        for events in cards {
            for e in events where w.contains(e.t) {
                if e.type == "OTPRejected", e.s("reason") == "expired" { r.otpExpired += 1 }
                if e.type == "ActivationExpired" { r.activationsExpired += 1 }
            }
        }
        return r
    }

    func funnel(_ w: QueryWindow) -> FunnelReport {
        var r = FunnelReport()
        for events in threeDS {
            guard let created = events.first(where: { $0.type == "TransactionCreated" }), w.contains(created.t) else {
                continue
            }
            let ares = events.first { $0.type == "AuthResponseReceived" }?.s("transStatus")
            let frictionless = ares != nil && ares != "C" && ares != "D"
            let challenged = events.contains { $0.type == "ChallengeStarted" }
            let outcome = Self.outcome3DS(events)
            r.transactions += 1
            if let ares {
                r.aresReceived += 1
                r.byAresStatus[ares, default: 0] += 1
                if frictionless { r.frictionless += 1 } else { r.challengeRequired += 1 }
            }
            if challenged { r.challenged += 1 }
            r.outcomes[outcome, default: 0] += 1
            for key in [created.s("directoryServerID") ?? "unknown", created.s("messageVersion") ?? "unknown"]
                .enumerated()
            {
                var slice =
                    (key.offset == 0 ? r.byDirectoryServer[key.element] : r.byMessageVersion[key.element])
                    ?? FunnelReport.Slice()
                slice.transactions += 1
                if frictionless { slice.frictionless += 1 }
                if challenged { slice.challenged += 1 }
                slice.outcomes[outcome, default: 0] += 1
                if key.offset == 0 {
                    r.byDirectoryServer[key.element] = slice
                } else {
                    r.byMessageVersion[key.element] = slice
                }
            }
        }
        return r
    }

    func challenges(_ w: QueryWindow) -> ChallengesReport {
        var r = ChallengesReport()
        for events in threeDS {
            var lastUi: String?
            for e in events {
                if e.type == "ChallengeRequestSent", w.contains(e.t) {
                    r.requests += 1
                    r.byUiType[lastUi ?? "none", default: .init()].requests[e.s("action") ?? "unknown", default: 0] += 1
                }
                if e.type == "ChallengeResponseReceived", e.s("challengeCompletionInd") == "N" {
                    lastUi = e.s("acsUiType")
                    if w.contains(e.t) {
                        r.screens += 1
                        r.byUiType[lastUi ?? "unknown", default: .init()].screens += 1
                    }
                }
            }
            guard events.contains(where: { $0.type == "ChallengeStarted" }),
                let end = events.last(where: { Self.terminal3DS.contains($0.type) }), w.contains(end.t)
            else { continue }
            let rounds = Int64(events.filter { $0.type == "ChallengeRequestSent" }.count)
            let ui = lastUi ?? "none"
            r.challengesEnded += 1
            r.rounds += rounds
            r.byUiType[ui, default: .init()].challengesEnded += 1
            r.byUiType[ui, default: .init()].rounds += rounds
            r.byUiType[ui, default: .init()].outcomes[Self.outcome3DS(events), default: 0] += 1
        }
        return r
    }

    func errors(_ w: QueryWindow) -> ErrorsReport {
        var r = ErrorsReport()
        for events in threeDS {
            for e in events where w.contains(e.t) {
                if e.type == "ProtocolErrorOccurred" {
                    r.protocolErrors += 1
                    r.protocolByCode[e.s("errorCode") ?? "unknown", default: 0] += 1
                    r.protocolByComponent[e.s("errorComponent") ?? "unknown", default: 0] += 1
                }
                if e.type == "RuntimeErrorOccurred" {
                    r.runtimeErrors += 1
                    r.runtimeByCode[e.s("errorCode") ?? "unknown", default: 0] += 1
                }
            }
        }
        return r
    }

    func idv(_ w: QueryWindow) -> IDVReport {
        var r = IDVReport()
        var durations: [String: [Int64]] = [:]
        for events in cards {
            Self.walkCard(events) { e, selected, decision, selections in
                guard w.contains(e.t) else { return }
                let method = selected ?? "none"
                switch e.type {
                case "DigitizationApprovedWithIDV":
                    r.decisions += 1
                    for kind in Self.methodKinds(e) { r.byMethod[kind, default: .init()].offered += 1 }
                case "IDVMethodSelected":
                    // `selected` is the state before this event: look the kind up afresh.
                    break
                case "ActivationFailed": r.byMethod[method, default: .init()].failed += 1
                case "ActivationCancelled": r.byMethod[method, default: .init()].cancelled += 1
                case "ActivationExpired": r.byMethod[method, default: .init()].expired += 1
                default: break
                }
                _ = (decision, selections)
            }
            // Selections: the kind of the selected method itself, first or re-selected.
            var kinds: [String: String] = [:]
            var count = 0
            for e in events {
                if e.type == "DigitizationApprovedWithIDV" {
                    let ids = (e.data["methods"]?.arrayValue ?? []).map { $0.objectValue?["id"]?.stringValue ?? "" }
                    for (id, kind) in zip(ids, Self.methodKinds(e)) { kinds[id] = kind }
                }
                if e.type == "IDVMethodSelected" {
                    let kind = kinds[e.s("idvID") ?? ""] ?? "unknown"
                    if w.contains(e.t) {
                        r.selected += 1
                        r.byMethod[kind, default: .init()].selected += 1
                        if count > 0 { r.byMethod[kind, default: .init()].reselected += 1 }
                    }
                    count += 1
                }
            }
            if let (event, method, decision) = Self.activation(events), w.contains(event.t) {
                r.activated += 1
                r.byMethod[method ?? "none", default: .init()].activated += 1
                if let decision { durations[method ?? "none", default: []].append(event.t - decision) }
            }
        }
        r.timeToActivation = Distribution(sorted: durations.values.flatMap { $0 }.sorted())
        for (method, values) in durations {
            r.byMethod[method, default: .init()].timeToActivation = Distribution(sorted: values.sorted())
        }
        return r
    }

    func latency(_ w: QueryWindow) -> LatencyReport {
        var r = LatencyReport()
        var challenges: [String: [Int64]] = [:]
        for events in threeDS {
            guard let start = events.first(where: { $0.type == "ChallengeStarted" }),
                let end = events.last(where: { Self.terminal3DS.contains($0.type) }), w.contains(end.t)
            else { continue }
            let ds = events.first { $0.type == "TransactionCreated" }?.s("directoryServerID") ?? "unknown"
            challenges[ds, default: []].append(end.t - start.t)
        }
        r.challenge = Distribution(sorted: challenges.values.flatMap { $0 }.sorted())
        for (ds, values) in challenges { r.challengeByDirectoryServer[ds] = Distribution(sorted: values.sorted()) }
        var activations: [String: [Int64]] = [:]
        for events in cards {
            if let (event, method, decision) = Self.activation(events), w.contains(event.t), let decision {
                activations[method ?? "none", default: []].append(event.t - decision)
            }
        }
        r.activation = Distribution(sorted: activations.values.flatMap { $0 }.sorted())
        for (method, values) in activations { r.activationByMethod[method] = Distribution(sorted: values.sorted()) }
        return r
    }

    func eventCount(_ w: QueryWindow) -> Int64 {
        Int64(streams.reduce(0) { $0 + $1.events.filter { w.contains($0.t) }.count })
    }
}
