import EventStore
import JournalCore
import Testing

@Suite("Read conformance")
struct ReadConformanceTests {
    @Test(arguments: Backend.all)
    func readsAStreamForwardAndBackwardFromAVersion(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append(Fixture.events(0..<10), to: stream, expectedVersion: .any)
        try store.append(Fixture.events(10..<12), to: Fixture.stream(2), expectedVersion: .any)
        #expect(try store.read(stream: stream, from: 3, direction: .forward, limit: 4).map(\.version) == [3, 4, 5, 6])
        #expect(try store.read(stream: stream, from: 3, direction: .backward, limit: 10).map(\.version) == [3, 2, 1, 0])
        #expect(try store.read(stream: stream, from: .max, direction: .backward, limit: 2).map(\.version) == [9, 8])
        #expect(try store.read(stream: stream, from: 10, direction: .forward, limit: 5).isEmpty)
        #expect(try store.read(stream: stream, from: 0, direction: .forward, limit: 0).isEmpty)
        #expect(try store.read(stream: Fixture.stream(3), from: 0, direction: .forward, limit: 5).isEmpty)
    }

    @Test(arguments: Backend.all)
    func readsTheWholeLogInPagesFromAPosition(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        for n in 0..<25 { try store.append([Fixture.event(n)], to: Fixture.stream(n % 3), expectedVersion: .any) }
        var collected: [RecordedEvent] = []
        var next: Int64 = 1
        while true {
            let page = try store.readAll(from: next, limit: 7)
            guard let last = page.last else { break }
            collected += page
            next = last.position + 1
        }
        #expect(collected.map(\.position) == Array(1...25))
        #expect(collected.map(\.id) == (0..<25).map { Fixture.uuid($0) })
        #expect(try store.readAll(from: 24, limit: 100).map(\.position) == [24, 25])
        #expect(try store.readAll(from: 26, limit: 100).isEmpty)
    }

    @Test(
        "read all lends each event in place with what the array read returns, and stops when asked",
        arguments: Backend.all, [false, true])
    func readAllLendsTheEventsTheArrayReadReturns(backend: Backend, compress: Bool) throws {
        let store = try backend.open(StoreOptions(dictionaryTrainingEvents: compress ? 8 : 0)).store
        try Fixture.appendMixedLog(to: store)
        let expected = try store.readAll(from: 3, limit: 30)
        var lent: [RecordedEvent] = []
        var names: [(stream: String, type: String)] = []
        let count = try store.readAll(from: 3, limit: 30) { event in
            do { lent.append(try event.recorded()) } catch { Issue.record("\(error)") }
            names.append((String(decoding: event.stream, as: UTF8.self), String(decoding: event.type, as: UTF8.self)))
            return true
        }
        #expect(count == 30)
        #expect(lent == expected)
        #expect(names.map(\.stream) == expected.map(\.stream.rawValue))
        #expect(names.map(\.type) == expected.map(\.type))
        #expect(lent.contains { $0.meta != nil } && lent.contains { $0.meta == nil })
        var stopped = 0
        #expect(
            try store.readAll(from: 1, limit: 100) { _ in
                stopped += 1
                return stopped < 5
            } == 5)
        #expect(try store.readAll(from: 41, limit: 100) { _ in true } == 0)
    }

    @Test(
        "the whole log names each event's stream when it uses more streams than the name caches hold",
        arguments: Backend.all)
    func readingTheLogNamesEveryStreamOfAWideLog(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        // 6,000 streams (more than the 4,096 name slots), then a second event for each in reverse
        // order: the log meets old stream ids after newer ones, whose names pushed theirs out.
        let streams = 6_000
        var expected: [String: StreamName] = [:]
        for (round, order) in [Array(0..<streams), Array((0..<streams).reversed())].enumerated() {
            for chunk in stride(from: 0, to: streams, by: 500) {
                let parts = order[chunk..<min(chunk + 500, streams)].map { n in
                    let event = Fixture.event(round * streams + n)
                    expected[event.id] = Fixture.stream(n)
                    return StreamAppend(stream: Fixture.stream(n), expectedVersion: .any, events: [event])
                }
                try store.append(parts)
            }
        }
        var next: Int64 = 1
        var read = 0
        while true {
            let page = try store.readAll(from: next, limit: 1_000)
            guard let last = page.last else { break }
            for event in page where event.stream != expected[event.id] {
                Issue.record(
                    "position \(event.position): \(event.stream), expected \(String(describing: expected[event.id]))")
            }
            read += page.count
            next = last.position + 1
        }
        #expect(read == 2 * streams)
    }

    @Test(arguments: Backend.all)
    func headAndLastVersionFollowAppends(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        #expect(try store.headPosition() == 0)
        #expect(try store.lastVersion(of: Fixture.stream(1)) == nil)
        try store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .any)
        try store.append(Fixture.events(3..<4), to: Fixture.stream(2), expectedVersion: .any)
        #expect(try store.headPosition() == 4)
        #expect(try store.lastVersion(of: Fixture.stream(1)) == 2)
        #expect(try store.lastVersion(of: Fixture.stream(2)) == 0)
    }

    @Test(arguments: Backend.all)
    func streamsAreListedSortedAndByCategory(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let card = Fixture.stream(5, category: "card")
        let threeDS = [Fixture.stream(2), Fixture.stream(1)]
        try store.append([Fixture.event(0)], to: threeDS[0], expectedVersion: .any)
        try store.append([Fixture.event(1)], to: card, expectedVersion: .any)
        try store.append([Fixture.event(2)], to: threeDS[1], expectedVersion: .any)
        #expect(try store.streams(category: nil) == [Fixture.stream(1), Fixture.stream(2), card])
        #expect(try store.streams(category: "3ds") == [Fixture.stream(1), Fixture.stream(2)])
        #expect(try store.streams(category: "card") == [card])
        #expect(try store.streams(category: "car").isEmpty)
    }

    @Test(arguments: Backend.all)
    func aSubscriptionCatchesUpThenDeliversNewCommits(backend: Backend) async throws {
        let store = try backend.open(StoreOptions()).store
        try store.append(Fixture.events(0..<3), to: Fixture.stream(1), expectedVersion: .any)
        let subscription = store.follow(from: 2, pollInterval: .milliseconds(20))
        let writer = Task.detached {
            try await Task.sleep(for: .milliseconds(50))
            try store.append(Fixture.events(3..<5), to: Fixture.stream(2), expectedVersion: .any)
        }
        var positions: [Int64] = []
        for try await event in subscription {
            positions.append(event.position)
            if positions.count == 4 { break }
        }
        try await writer.value
        #expect(positions == [2, 3, 4, 5])
    }

    @Test(arguments: Backend.all)
    func aBlockingFollowerWaitsForTheNextCommit(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let follower = EventFollower(store: store, from: 1, pollInterval: .milliseconds(20))
        #expect(try follower.next(timeout: .milliseconds(30)) == nil)
        try store.append([Fixture.event(0)], to: Fixture.stream(1), expectedVersion: .any)
        #expect(try follower.next(timeout: .seconds(5))?.position == 1)
        #expect(follower.nextPosition == 2)
    }
}
