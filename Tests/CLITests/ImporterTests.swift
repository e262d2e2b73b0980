import EventStore
import JournalCore
import Testing

@testable import JournalApp

/// The importer in process, over an in-memory store: the bounded per-stream cache.
@Suite("Importer")
struct ImporterTests {
    func lines(_ texts: [String]) -> [InputLine] {
        texts.enumerated().map { InputLine(number: $0.offset + 1, bytes: Array($0.element.utf8)) }
    }

    /// Round-robin over `streams` journeys, so every stream comes back after the others.
    func interleaved(_ journeys: [[String]]) -> [String] {
        var out: [String] = []
        for index in 0..<(journeys.map(\.count).max() ?? 0) {
            for journey in journeys where index < journey.count { out.append(journey[index]) }
        }
        return out
    }

    @Test func streamsEvictedFromASmallCacheAreFoldedAgainFromTheTransaction() throws {
        let store = try SQLiteEventStore(path: ":memory:")
        var events = LegalEvents()
        let journeys = [events.challenged(1), events.yellowOTP(2), events.challenged(3), events.green(4)]
        var input = interleaved(journeys)
        // A bad line for stream 1 at the end: the counter goes back to 000 after the challenge ended.
        input.append(
            events.line(
                LegalEvents.threeDSStream(1), "ChallengeRequestSent",
                #"{"sdkCounterStoA":"000","action":"initial"}"#))
        var outcomes: [Importer.Outcome] = []
        var evictions = 0
        try store.write { transaction in
            var importer = Importer(transaction: transaction, cacheCapacity: 2)
            for line in lines(input) { outcomes.append(try importer.importLine(line)) }
            evictions = importer.cacheEvictions
        }
        #expect(evictions > 0)
        #expect(outcomes.dropLast().allSatisfy { $0 == .appended })
        guard case let .rejected(rejection)? = outcomes.last else {
            Issue.record("the last line should be rejected")
            return
        }
        #expect(rejection.stream == LegalEvents.threeDSStream(1))
        #expect(rejection.type == "ChallengeRequestSent")
        #expect(try store.headPosition() == Int64(input.count - 1))
    }

    @Test func aStreamTheCacheLacksIsJudgedAsWhenItIsCachedWhateverItsNextEvent() throws {
        var events = LegalEvents()
        let first = LegalEvents.threeDSStream(1)
        var input = events.challenged(1) + events.frictionless(2) + events.frictionless(3)
        // Stream 1 again, after the others pushed it out of a small cache: an event that may only
        // begin a stream, one that may not come now, a valid one; then a new stream whose first
        // event lacks a field.
        input.append(
            events.line(first, "TransactionCreated", #"{"directoryServerID":"A000000003","messageVersion":"2.2.0"}"#))
        input.append(events.line(first, "ChallengeStarted", #"{"timeoutSeconds":600,"acsReferenceNumber":"R"}"#))
        input.append(events.line(first, "TransactionClosed", #"{"reason":"completed"}"#))
        input.append(events.line(LegalEvents.threeDSStream(4), "TransactionCreated", #"{"directoryServerID":"A1"}"#))
        func outcomes(cacheCapacity: Int) throws -> (outcomes: [Importer.Outcome], head: Int64, evictions: Int) {
            let store = try SQLiteEventStore(path: ":memory:")
            var outcomes: [Importer.Outcome] = []
            var evictions = 0
            try store.write { transaction in
                var importer = Importer(transaction: transaction, cacheCapacity: cacheCapacity)
                for line in lines(input) { outcomes.append(try importer.importLine(line)) }
                evictions = importer.cacheEvictions
            }
            return (outcomes, try store.headPosition(), evictions)
        }
        let cached = try outcomes(cacheCapacity: 100)
        let evicted = try outcomes(cacheCapacity: 2)
        #expect(cached.evictions == 0)
        #expect(evicted.evictions > 0)
        #expect(evicted.outcomes == cached.outcomes)
        #expect(evicted.head == cached.head)
        #expect(cached.outcomes.filter { if case .rejected = $0 { true } else { false } }.count >= 2)
    }

    @Test func cacheDropsTheLeastRecentlyUsedHalfWhenFull() throws {
        var cache = StreamStateCache(capacity: 4)
        let fold = try StreamFold(stream: LegalEvents.threeDSStream(1))
        for n in 0..<4 { cache.set("s\(n)", fold: fold, lastVersion: Int64(n)) }
        _ = cache.get("s0") // s0 becomes the most recent
        cache.set("s4", fold: fold, lastVersion: 4)
        #expect(cache.count <= 4)
        #expect(cache.get("s0")?.lastVersion == 0)
        #expect(cache.get("s4")?.lastVersion == 4)
        #expect(cache.get("s1") == nil)
        #expect(cache.evictions >= 2)
    }
}
