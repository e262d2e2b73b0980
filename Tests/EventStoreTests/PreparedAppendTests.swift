import JournalCore
import Synchronization
import Testing

@testable import EventStore

/// `SQLiteEventStore.append(_:)` of a request of many appends, prepared on another thread while
/// the writer writes the rows (`SQLiteJournal.appendPreparing`): the same rows, results and
/// errors as the same appends made one request each, which the store writes the usual way.
@Suite("SQLite appends prepared ahead")
struct PreparedAppendTests {
    /// A clock that moves a millisecond at each reading, so that a reading too many or too few
    /// shows in the rows.
    final class TickingClock: Sendable {
        private let ticks = Synchronization.Mutex<Int64>(0)
        func now() -> Timestamp { Fixture.time.adding(milliseconds: ticks.withLock { $0 += 1; return $0 }) }
    }

    static func configuration(_ clock: TickingClock?) -> SQLiteEventStore.Configuration {
        let now: @Sendable () -> Timestamp
        if let clock { now = { clock.now() } } else { now = FixedClock.epoch }
        var configuration = SQLiteEventStore.Configuration(clock: now, dictionaryTrainingEvents: 40)
        configuration.synchronous = .normal
        return configuration
    }

    /// Requests of 200 streams, one to three events each (400 events, over the threshold), the
    /// first round new streams, later ones `.any` or the exact version; meta on some events,
    /// `recordedAt` on some (the others take the store's clock), ids in capitals on some.
    static func requests(rounds: Int = 4, streams: Int = 200) -> [[StreamAppend]] {
        var requests: [[StreamAppend]] = []
        var versions = [Int64](repeating: -1, count: streams)
        var n = 0
        for round in 0..<rounds {
            var request: [StreamAppend] = []
            for s in 0..<streams {
                let count = 1 + (s + round) % 3
                let events = (0..<count).map { _ -> ProposedEvent in
                    n += 1
                    var event = Fixture.event(
                        n, type: ["ChallengeStarted", "OtpSubmitted", "CardActivated"][n % 3],
                        data: #"{"n":\#(n),"text":"\#(String(repeating: "otp-", count: n % 9))"}"#,
                        meta: n % 5 == 0 ? #"{"sdk":"wallet","n":\#(n)}"# : nil,
                        recordedAt: n % 3 == 0 ? Fixture.time.adding(milliseconds: Int64(n)) : nil)
                    if n % 13 == 0 { event.id = event.id.uppercased() }
                    return event
                }
                let expected: ExpectedVersion =
                    round == 0 ? .noStream : s % 2 == 0 ? .exact(versions[s]) : .any
                versions[s] += Int64(count)
                request.append(StreamAppend(stream: Fixture.stream(s), expectedVersion: expected, events: events))
            }
            requests.append(request)
        }
        return requests
    }

    /// A store appended request by request and one appended append by append, side by side.
    struct Pair {
        let directory = TemporaryDirectory.make()
        let prepared: SQLiteEventStore
        let usual: SQLiteEventStore

        /// `ticking`: each store with a clock that moves at each reading. (The prepared way reads
        /// it for each append when the request starts, the usual way when the append writes: a
        /// retry's stored appends read it there only.)
        init(ticking: Bool = false) throws {
            prepared = try SQLiteEventStore(
                path: directory.file("prepared.db"),
                configuration: PreparedAppendTests.configuration(ticking ? TickingClock() : nil))
            usual = try SQLiteEventStore(
                path: directory.file("usual.db"),
                configuration: PreparedAppendTests.configuration(ticking ? TickingClock() : nil))
        }

        /// `request` to the first store whole, and to the second an append at a time.
        func append(_ request: [StreamAppend]) throws -> (prepared: [AppendResult], usual: [AppendResult]) {
            (try prepared.append(request), try request.flatMap { try usual.append([$0]) })
        }
    }

    @Test
    func aRequestOfManyAppendsStoresTheRowsOfTheSameAppendsMadeOneByOne() throws {
        let pair = try Pair(ticking: true)
        var events = 0
        for request in Self.requests() {
            let results = try pair.append(request)
            #expect(results.prepared == results.usual)
            events += request.reduce(0) { $0 + $1.events.count }
        }
        #expect(pair.prepared.eventsPreparedAhead == events)
        #expect(pair.usual.eventsPreparedAhead == 0)
        let rows = try PreparedLoadTests.rows(pair.prepared)
        #expect(rows.count > events)
        #expect(rows == (try PreparedLoadTests.rows(pair.usual)))
        #expect(try pair.prepared.verify().headHash == pair.usual.verify().headHash)
    }

    @Test
    func aRetriedRequestOfManyAppendsGetsTheFirstPositionsAndWritesNothing() throws {
        let pair = try Pair()
        let request = Self.requests(rounds: 1)[0]
        let first = try pair.append(request)
        let head = try pair.prepared.headPosition()
        let again = try pair.append(request)
        #expect(again.prepared == again.usual)
        #expect(again.prepared.map(\.positions) == first.prepared.map(\.positions))
        #expect(again.prepared.allSatisfy { $0.written == 0 })
        #expect(try pair.prepared.headPosition() == head)
        // One append of the retry with a new event after its stored ones: only that one is written.
        var mixed = request
        mixed[7].events.append(Fixture.event(99_999))
        mixed[7].expectedVersion = .any
        let results = try pair.append(mixed)
        #expect(results.prepared == results.usual)
        #expect(results.prepared.reduce(0) { $0 + $1.written } == 1)
        #expect(try PreparedLoadTests.rows(pair.prepared) == PreparedLoadTests.rows(pair.usual))
    }

    @Test(arguments: ["refused", "conflict", "repeated id"])
    func aFailingAppendInARequestOfManyFailsItAsTheUsualPathDoesAndWritesNothing(_ failure: String) throws {
        let pair = try Pair()
        _ = try pair.append(Self.requests(rounds: 1)[0])
        var request = Self.requests(rounds: 2)[1]
        switch failure {
        case "refused": request[150].events[0].type = "has spaces"
        case "conflict": request[150].expectedVersion = .exact(42)
        default:
            var repeated = request[150].events[0]
            repeated.data = Array(#"{"other":true}"#.utf8)
            request[150].events.append(repeated)
        }
        let head = try pair.prepared.headPosition()
        #expect(throws: (any Error).self) { try pair.prepared.append(request) }
        var usualError: EventStoreError?
        var preparedError: EventStoreError?
        do { _ = try pair.prepared.append(request) } catch { preparedError = error }
        // The usual way, a request of the appends around it (too few to be prepared): the same
        // error for the same event (a position in the message may differ).
        do { _ = try pair.usual.append(Array(request[140...160])) } catch { usualError = error }
        #expect(preparedError != nil)
        #expect(preparedError?.code == usualError?.code)
        #expect(preparedError?.stream == usualError?.stream)
        #expect(preparedError?.eventID == usualError?.eventID)
        if failure != "repeated id" { #expect(preparedError?.message == usualError?.message) }
        #expect(try pair.prepared.headPosition() == head)
        #expect(try pair.prepared.verify().headHash == pair.usual.verify().headHash)
    }
}
