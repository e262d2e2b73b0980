import Domain
import JournalCore
import Simulator
import Testing

/// Legal generated sequences, mutated (drop, duplicate, swap, change a field) so that they break
/// a rule: the fold must refuse them, with the rule expected.
@Suite("Mutated journeys")
struct MutationTests {
    typealias Event = GeneratedEvent

    static let journeys: [GeneratedJourney] = {
        let generator = JourneyGenerator(seed: 2026)
        return (0..<600).map { generator.journey($0 % 2 == 0 ? .threeDS : .card) }
    }()

    /// The index and reason of the first refused event, nil when the whole sequence folds.
    ///
    /// Each event is also folded from its `data` bytes read in place (``JSONFlatObject``, as
    /// `replay` reads stored events), which must give the same state or the same refusal.
    static func firstRejection(_ stream: String, _ events: [Event]) -> (index: Int, rejection: DomainRejection)? {
        guard var state = try? JourneyState.initial(for: stream) else { return nil }
        for (index, event) in events.enumerated() {
            let parsed = state.applying(type: event.type, data: event.data, occurredAt: event.occurredAt)
            #expect(
                parsed == foldedFlat(state, event), "\(stream) \(event.type) \(JSONWriter.string(.object(event.data)))")
            switch parsed {
            case let .success(next): state = next
            case let .failure(rejection): return (index, rejection)
            }
        }
        return nil
    }

    /// `state` after `event` read from its `data` bytes in place (the parsed object when the
    /// flat reading declines the bytes).
    static func foldedFlat(_ state: JourneyState, _ event: Event) -> Result<JourneyState, DomainRejection> {
        var state = state
        let bytes = Array(JSONWriter.string(.object(event.data)).utf8)
        let result = bytes.withUnsafeBytes { bytes in
            JSONFlatObject.withMembers(of: bytes) { flat in
                Result { () throws(DomainRejection) in
                    try state.apply(type: event.type, flatData: flat, occurredAt: event.occurredAt)
                }
            }
        }
        if let result { return result.map { state } }
        return state.applying(type: event.type, data: event.data, occurredAt: event.occurredAt)
    }

    static func with(_ event: Event, data: JSONObject? = nil, occurredAt: Timestamp? = nil) -> Event {
        GeneratedEvent(
            id: event.id, stream: event.stream, type: event.type, data: data ?? event.data,
            occurredAt: occurredAt ?? event.occurredAt)
    }

    static func setting(_ event: Event, _ key: String, _ value: JSONValue) -> Event {
        var data = event.data
        data[key] = value
        return with(event, data: data)
    }

    private var mutationsChecked = 0

    /// Checks that `mutated` is refused at `index` (when given) with one of `rules`.
    private func expectRefused(
        _ journey: GeneratedJourney, _ mutated: [Event], _ what: String, rules: [Rejection.Rule],
        at index: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let (refusedAt, rejection) = Self.firstRejection(journey.stream, mutated) else {
            Issue.record("\(what) was accepted in \(journey.stream): \(journey.path)", sourceLocation: sourceLocation)
            return
        }
        #expect(
            rules.contains(rejection.rule), "\(what): refused for \(rejection.rule): \(rejection.reason)",
            sourceLocation: sourceLocation)
        if let index {
            #expect(
                refusedAt == index, "\(what): refused at \(refusedAt), expected \(index)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func theUnmutatedJourneysFold() {
        for journey in Self.journeys { #expect(Self.firstRejection(journey.stream, journey.events) == nil) }
    }

    /// The comparison in `firstRejection` covers the flat reading: most events' data is read so.
    @Test func mostGeneratedEventsAreReadFlat() {
        var flat = 0
        var all = 0
        for journey in Self.journeys {
            for event in journey.events {
                all += 1
                let bytes = Array(JSONWriter.string(.object(event.data)).utf8)
                if bytes.withUnsafeBytes({ JSONFlatObject.withMembers(of: $0) { _ in true } }) != nil { flat += 1 }
            }
        }
        #expect(flat * 10 > all * 9, "\(flat) of \(all) read flat")
    }

    @Test func duplicatingOrDroppingTheFirstEventIsRefused() {
        for journey in Self.journeys {
            let events = journey.events
            expectRefused(
                journey, [events[0], events[0]] + events.dropFirst(), "duplicated first event",
                rules: [.threeDSCreatedOnce, .cardEligibilityOnce, .cardTerminal], at: 1)
            if events.count > 1 {
                expectRefused(
                    journey, Array(events.dropFirst()), "dropped first event",
                    rules: [.threeDSFirstEvent, .cardFirstEvent], at: 0)
            }
        }
    }

    @Test func anythingAfterTheTerminalEventIsRefused() {
        for journey in Self.journeys {
            let events = journey.events
            expectRefused(
                journey, events + [events[events.count - 1]], "duplicated terminal event",
                rules: [.threeDSTerminal, .cardTerminal], at: events.count)
            if events.count > 2 {
                expectRefused(
                    journey, events + [events[1]], "an earlier event after the terminal one",
                    rules: [.threeDSTerminal, .cardTerminal], at: events.count)
            }
        }
    }

    @Test func challengeMutationsAreRefused() throws {
        for journey in Self.journeys where journey.category == .threeDS {
            let events = journey.events
            for (index, event) in events.enumerated() {
                let next = index + 1 < events.count ? events[index + 1] : nil
                switch event.type {
                case "ChallengeRequestSent":
                    var duplicated = events
                    duplicated.insert(event, at: index + 1)
                    expectRefused(
                        journey, duplicated, "duplicated request", rules: [.threeDSRequestInFlight], at: index + 1)
                    let counter = ChallengeCounter(text: event.data["sdkCounterStoA"]!.stringValue!)!
                    var changed = events
                    changed[index] = Self.setting(
                        event, "sdkCounterStoA", .string(ChallengeCounter((counter.value + 1) % 1000)!.text))
                    expectRefused(journey, changed, "request counter + 1", rules: [.threeDSRequestCounter], at: index)
                    if let next, next.type == "ChallengeResponseReceived" {
                        var swapped = events
                        swapped.swapAt(index, index + 1)
                        expectRefused(
                            journey, swapped, "response before its request", rules: [.threeDSResponseWithoutRequest],
                            at: index)
                        var dropped = events
                        dropped.remove(at: index)
                        expectRefused(
                            journey, dropped, "dropped request", rules: [.threeDSResponseWithoutRequest], at: index)
                    }
                case "ChallengeResponseReceived":
                    let counter = ChallengeCounter(text: event.data["acsCounterAtoS"]!.stringValue!)!
                    var changed = events
                    changed[index] = Self.setting(
                        event, "acsCounterAtoS", .string(ChallengeCounter((counter.value + 1) % 1000)!.text))
                    expectRefused(journey, changed, "response counter + 1", rules: [.threeDSResponseCounter], at: index)
                    if let next, next.type == "ChallengeRequestSent" {
                        var dropped = events
                        dropped.remove(at: index)
                        expectRefused(journey, dropped, "dropped response", rules: [.threeDSRequestInFlight], at: index)
                    }
                    if let next, next.type == "ChallengeCompleted" || next.type == "ChallengeCancelled" {
                        var dropped = events
                        dropped.remove(at: index)
                        expectRefused(
                            journey, dropped, "dropped final response", rules: [.threeDSCompleted, .threeDSCancelled],
                            at: index)
                    }
                case "ChallengeCompleted":
                    let status = event.data["transStatus"]!.stringValue! == "Y" ? "N" : "Y"
                    var changed = events
                    changed[index] = Self.setting(event, "transStatus", .string(status))
                    expectRefused(
                        journey, changed, "completed with the other transStatus", rules: [.threeDSCompleted], at: index)
                    var renamed = events
                    renamed[index] = GeneratedEvent(
                        id: event.id, stream: event.stream, type: "ChallengeCancelled",
                        data: JSONObject(), occurredAt: event.occurredAt)
                    expectRefused(
                        journey, renamed, "cancelled instead of completed", rules: [.threeDSCancelled], at: index)
                case "ChallengeTimedOut":
                    let state = try #require(try Self.state(journey.stream, Array(events[..<index])).threeDSState)
                    if let deadline = state.challenge?.deadline {
                        var changed = events
                        changed[index] = Self.with(event, occurredAt: deadline.adding(milliseconds: -1))
                        expectRefused(journey, changed, "timeout 1 ms early", rules: [.threeDSTimeout], at: index)
                    }
                case "AuthResponseReceived":
                    if events.contains(where: { $0.type == "ChallengeStarted" }) {
                        var changed = events
                        changed[index] = Self.setting(event, "transStatus", .string("Y"))
                        expectRefused(
                            journey, changed, "challenge after a frictionless ARes", rules: [.threeDSChallengeStart])
                    }
                default:
                    break
                }
            }
        }
    }

    @Test func activationMutationsAreRefused() {
        for journey in Self.journeys where journey.category == .card {
            let events = journey.events
            for (index, event) in events.enumerated() {
                let next = index + 1 < events.count ? events[index + 1] : nil
                switch event.type {
                case "OTPSubmitted":
                    var duplicated = events
                    duplicated.insert(event, at: index + 1)
                    expectRefused(
                        journey, duplicated, "duplicated OTP submission", rules: [.cardOTPSubmission], at: index + 1)
                    if let next, next.type == "OTPRejected" || next.type == "ActivatedByIDV" {
                        var swapped = events
                        swapped.swapAt(index, index + 1)
                        expectRefused(
                            journey, swapped, "verdict before its submission",
                            rules: [.cardOTPVerdict, .cardActivatedByIDV], at: index)
                    }
                case "ActivationRequired":
                    if let next, next.type == "OTPSubmitted" || next.type == "AppToAppResumed" {
                        var dropped = events
                        dropped.remove(at: index)
                        expectRefused(
                            journey, dropped, "dropped ActivationRequired",
                            rules: [.cardOTPSubmission, .cardAppToAppResume], at: index)
                    }
                    let other = event.data["state"]!.stringValue! == "otpNeeded" ? "appToAppSelected" : "otpNeeded"
                    var changed = events
                    changed[index] = Self.setting(event, "state", .string(other))
                    expectRefused(
                        journey, changed, "ActivationRequired for the other method", rules: [.cardActivationRequired],
                        at: index)
                case "IDVMethodSelected":
                    var changed = events
                    changed[index] = Self.setting(event, "idvID", .string("not-offered"))
                    expectRefused(journey, changed, "an unknown method", rules: [.cardUnknownMethod], at: index)
                    var duplicated = events
                    duplicated.insert(event, at: index + 1)
                    expectRefused(
                        journey, duplicated, "a second selection", rules: [.cardMethodSelection], at: index + 1)
                case "AppToAppResumed":
                    var changed = events
                    changed[index] = Self.setting(event, "withTAV", .bool(!(event.data["withTAV"]!.boolValue!)))
                    expectRefused(
                        journey, changed, "withTAV not matching the cryptogram", rules: [.cardAppToAppResume], at: index
                    )
                case "ActivationInterrupted":
                    var duplicated = events
                    duplicated.insert(event, at: index + 1)
                    expectRefused(
                        journey, duplicated, "a second interruption", rules: [.cardInterrupted], at: index + 1)
                case "ActivationResumed":
                    var duplicated = events
                    duplicated.insert(event, at: index + 1)
                    expectRefused(journey, duplicated, "a second resume", rules: [.cardResume], at: index + 1)
                    if let next, next.type == "IDVMethodSelected" {
                        var dropped = events
                        dropped.remove(at: index)
                        expectRefused(
                            journey, dropped, "selection while interrupted", rules: [.cardInterrupted], at: index)
                    }
                case "DigitizationRequested", "TermsAccepted":
                    var duplicated = events
                    duplicated.insert(event, at: index + 1)
                    expectRefused(
                        journey, duplicated, "a second \(event.type)", rules: [.cardRequest, .cardTerms], at: index + 1)
                case "DigitizationApprovedWithIDV":
                    var dropped = events
                    dropped.remove(at: index - 1)
                    expectRefused(
                        journey, dropped, "a decision without a request", rules: [.cardDecision], at: index - 1)
                default:
                    break
                }
            }
        }
    }

    @Test func randomMutationsNeverCrashAndRefusalsCarryAReason() {
        var random = SeededRandom(seed: 99)
        var refused = 0
        for journey in Self.journeys {
            var events = journey.events
            guard events.count > 2 else { continue }
            for _ in 0..<3 {
                let index = random.int(below: events.count)
                switch random.int(below: 4) {
                case 0: events.remove(at: index)
                case 1: events.insert(events[index], at: index)
                case 2: events.swapAt(index, random.int(below: events.count))
                default:
                    if let key = events[index].data.keys.first {
                        events[index] = Self.setting(events[index], key, .string("zz"))
                    }
                }
                if events.isEmpty { break }
            }
            if let (_, rejection) = Self.firstRejection(journey.stream, events) {
                refused += 1
                #expect(!rejection.reason.isEmpty)
            }
        }
        #expect(refused > 0)
    }

    static func state(_ stream: String, _ events: [Event]) throws -> JourneyState {
        var state = try JourneyState.initial(for: stream)
        for event in events { try state.apply(type: event.type, data: event.data, occurredAt: event.occurredAt) }
        return state
    }
}
