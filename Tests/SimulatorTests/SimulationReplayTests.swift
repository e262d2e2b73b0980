import Domain
import JournalCore
import Testing

@testable import Simulator

/// Every stream a simulation hands out replays through `JourneyState` without a rejection, in
/// version order, interleaved, and obeys the timing rules of a real run.
@Suite("Simulated streams replay")
struct SimulationReplayTests {
    @Test(arguments: ["moderate", "coverage"])
    func everyGeneratedStreamReplaysWithoutARejection(run: String) throws {
        let events = run == "moderate" ? SimulationSupport.moderateRun.events : SimulationSupport.coverageRun.events
        var states: [String: JourneyState] = [:]
        var versions: [String: Int64] = [:]
        for event in events {
            var state = try states[event.stream] ?? JourneyState.initial(for: event.stream)
            #expect(event.version == (versions[event.stream] ?? -1) + 1, "versions without gaps")
            versions[event.stream] = event.version
            let data = SimulationSupport.parse(event.data)
            #expect(SensitiveDataGuard.check(data: data, meta: event.meta.map(SimulationSupport.parse)) == nil)
            do {
                try state.apply(type: event.type, data: data, occurredAt: event.occurredAt)
            } catch {
                Issue.record("\(event.stream) v\(event.version) \(event.type): \(error.reason)")
                return
            }
            states[event.stream] = state
        }
        let allEnded = states.values.allSatisfy { $0.isTerminal }
        #expect(allEnded, "every journey ends")
    }

    @Test func streamsAreInterleavedLikeConcurrentUsers() {
        let events = SimulationSupport.moderateRun.events
        // Count how often consecutive events belong to different streams.
        var switches = 0
        for index in events.indices.dropFirst() where events[index].stream != events[index - 1].stream { switches += 1 }
        #expect(Double(switches) / Double(events.count) > 0.9)
        #expect(SimulationSupport.moderateRun.statistics.peakInFlight > 100)
    }

    @Test("recordedAt never decreases; every event is marked simulated, and only a journey's first names the SDK")
    func recordedAtNeverDecreasesAndEveryEventIsMarkedSimulated() {
        var previous = Timestamp(millisecondsSinceEpoch: 0)
        var wrong = 0
        for event in SimulationSupport.moderateRun.events {
            if event.recordedAt < previous { wrong += 1 }
            previous = event.recordedAt
            let meta = event.meta.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let expected =
                event.version == 0
                ? meta.hasPrefix(#"{"platform":"#) && meta.hasSuffix(#","simulated":true}"#)
                : meta == #"{"simulated":true}"#
            if !expected { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test func someDeviceClocksAreOffButEveryStreamKeepsItsOwnPace() {
        // occurredAt is the device's clock: it may lie before the journal's recordedAt minus the
        // upload delay (a slow clock) or after recordedAt (a fast clock).
        let events = SimulationSupport.moderateRun.events
        #expect(events.contains { $0.occurredAt > $0.recordedAt }, "a device clock ahead of the journal")
        #expect(
            events.contains { $0.recordedAt.millisecondsSinceEpoch - $0.occurredAt.millisecondsSinceEpoch > 10_000 })
    }

    @Test func challengesEndBeforeTheirDeadlineUnlessTheyTimeOut() throws {
        var deadlines: [String: Timestamp] = [:]
        for event in SimulationSupport.moderateRun.events {
            let data = SimulationSupport.parse(event.data)
            switch event.type {
            case "ChallengeStarted":
                let seconds = data["timeoutSeconds"]?.numberValue?.int64 ?? 0
                deadlines[event.stream] = event.occurredAt.adding(milliseconds: seconds * 1000)
            case "ChallengeCompleted", "ChallengeCancelled", "ProtocolErrorOccurred", "RuntimeErrorOccurred",
                "ChallengeRequestSent", "ChallengeResponseReceived":
                let deadline = try #require(deadlines[event.stream])
                #expect(event.occurredAt < deadline, "\(event.type) after the challenge's timeout")
            case "ChallengeTimedOut":
                let deadline = try #require(deadlines[event.stream])
                #expect(event.occurredAt >= deadline && event.occurredAt <= deadline.adding(milliseconds: 3_000))
            default: break
            }
        }
    }
}
