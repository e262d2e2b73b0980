import EventStore
import JournalCore
import Testing

@Suite("Append conformance")
struct AppendConformanceTests {
    @Test(arguments: Backend.all)
    func appendToNewStreamAssignsVersionsFromZeroAndPositionsFromOne(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        let result = try store.append(Fixture.events(0..<3), to: stream, expectedVersion: .noStream)
        #expect(result == AppendResult(stream: stream, positions: [1, 2, 3], lastVersion: 2, written: 3))
        let events = try store.readStream(stream)
        #expect(events.map(\.version) == [0, 1, 2])
        #expect(events.map(\.position) == [1, 2, 3])
        #expect(events.map(\.id) == Fixture.events(0..<3).map(\.id))
    }

    @Test(arguments: Backend.all)
    func positionsStayGaplessAcrossInterleavedStreams(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        for n in 0..<30 {
            try store.append([Fixture.event(n)], to: Fixture.stream(n % 4), expectedVersion: .any)
        }
        let all = try store.readAll(from: 1, limit: 1000)
        #expect(all.map(\.position) == Array(1...30))
        for s in 0..<4 {
            #expect(
                try store.readStream(Fixture.stream(s)).map(\.version)
                    == Array(0..<Int64(all.count(where: { $0.stream == Fixture.stream(s) }))))
        }
        #expect(try store.headPosition() == 30)
    }

    struct ExpectationCase: Sendable, CustomTestStringConvertible {
        let expected: ExpectedVersion
        /// Events already in the stream before the append.
        let existing: Int
        let succeeds: Bool
        var testDescription: String { "\(expected) on \(existing) events → \(succeeds ? "ok" : "conflict")" }
    }

    static let expectationCases: [ExpectationCase] = [
        .init(expected: .any, existing: 0, succeeds: true),
        .init(expected: .any, existing: 2, succeeds: true),
        .init(expected: .noStream, existing: 0, succeeds: true),
        .init(expected: .noStream, existing: 1, succeeds: false),
        .init(expected: .streamExists, existing: 0, succeeds: false),
        .init(expected: .streamExists, existing: 1, succeeds: true),
        .init(expected: .exact(1), existing: 2, succeeds: true),
        .init(expected: .exact(0), existing: 2, succeeds: false),
        .init(expected: .exact(2), existing: 2, succeeds: false),
        .init(expected: .exact(0), existing: 0, succeeds: false)
    ]

    @Test(arguments: Backend.all, expectationCases)
    func expectedVersionIsCheckedBeforeAppending(backend: Backend, scenario: ExpectationCase) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(7)
        if scenario.existing > 0 {
            try store.append(Fixture.events(0..<scenario.existing), to: stream, expectedVersion: .any)
        }
        let append = { try store.append([Fixture.event(100)], to: stream, expectedVersion: scenario.expected) }
        if scenario.succeeds {
            let result = try append()
            #expect(result.lastVersion == Int64(scenario.existing))
        } else {
            let error = try #require(throws: EventStoreError.self) { try append() }
            #expect(error.code == .conflict)
            #expect(error.stream == stream.rawValue)
            #expect(error.expectedVersion == scenario.expected)
            #expect(error.actualVersion == (scenario.existing == 0 ? nil : Int64(scenario.existing - 1)))
            #expect(try store.headPosition() == Int64(scenario.existing))
        }
    }

    @Test(arguments: Backend.all)
    func appendWithStaleExpectedVersionThrowsConflictNamingStreamAndVersions(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let stream = Fixture.stream(1)
        try store.append(Fixture.events(0..<5), to: stream, expectedVersion: .noStream)
        let error = try #require(throws: EventStoreError.self) {
            try store.append([Fixture.event(9)], to: stream, expectedVersion: .exact(2))
        }
        #expect(error.code == .conflict)
        #expect(error.actualVersion == 4)
        #expect(error.expectedVersion == .exact(2))
        #expect(error.message.contains(stream.rawValue))
    }

    @Test(arguments: Backend.all)
    func multiStreamAppendIsAllOrNothing(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let a = Fixture.stream(1)
        let b = Fixture.stream(2)
        try store.append([Fixture.event(0)], to: b, expectedVersion: .any)
        #expect(throws: EventStoreError.self) {
            try store.append([
                StreamAppend(stream: a, expectedVersion: .noStream, events: Fixture.events(10..<13)),
                StreamAppend(stream: b, expectedVersion: .noStream, events: Fixture.events(20..<21))
            ])
        }
        #expect(try store.headPosition() == 1)
        #expect(try store.lastVersion(of: a) == nil)
        #expect(try store.streams(category: nil) == [b])

        let results = try store.append([
            StreamAppend(stream: a, expectedVersion: .noStream, events: Fixture.events(10..<13)),
            StreamAppend(stream: b, expectedVersion: .exact(0), events: Fixture.events(20..<21))
        ])
        #expect(results.map(\.positions) == [[2, 3, 4], [5]])
        #expect(results.map(\.lastVersion) == [2, 1])
    }

    @Test(arguments: Backend.all)
    func recordedAtComesFromTheInjectedClockUnlessTheEventCarriesOne(backend: Backend) throws {
        let clockTime = Timestamp("2030-01-02T03:04:05.678Z")!
        let store = try backend.open(StoreOptions(clock: { clockTime })).store
        let given = Timestamp("2026-01-01T00:00:00.001Z")!
        try store.append(
            [Fixture.event(0), Fixture.event(1, recordedAt: given)], to: Fixture.stream(1), expectedVersion: .any)
        #expect(try store.readStream(Fixture.stream(1)).map(\.recordedAt) == [clockTime, given])
    }

    @Test(arguments: Backend.all)
    func dataAndMetaRoundTripExactly(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let binary: [UInt8] = (0..<300).map { UInt8($0 % 256) }
        let events = [
            ProposedEvent(id: Fixture.uuid(1), type: "A", occurredAt: Fixture.time, data: [], meta: nil),
            ProposedEvent(id: Fixture.uuid(2), type: "A", occurredAt: Fixture.time, data: Array("{}".utf8), meta: []),
            ProposedEvent(
                id: Fixture.uuid(3), type: "B", occurredAt: Fixture.time, data: binary, meta: Array(#"{"k":1}"#.utf8)),
            ProposedEvent(
                id: "ABCDEF01-0000-4000-8000-00000000000A", type: "B",
                occurredAt: Timestamp(millisecondsSinceEpoch: -5),
                data: Array(#"{"é":"ü"}"#.utf8))
        ]
        try store.append(events, to: Fixture.stream(1), expectedVersion: .noStream)
        let stored = try store.readStream(Fixture.stream(1))
        #expect(stored.map(\.data) == events.map(\.data))
        #expect(stored.map(\.meta) == events.map(\.meta))
        #expect(stored.map(\.id) == events.map(\.id))
        #expect(stored.map(\.type) == events.map(\.type))
        #expect(stored.map(\.occurredAt) == events.map(\.occurredAt))
        #expect(stored.allSatisfy { $0.hash.count == 32 })
    }

    @Test(arguments: Backend.all)
    func emptyAppendWritesNothingAndReportsTheStreamVersion(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        let result = try store.append([], to: Fixture.stream(1), expectedVersion: .noStream)
        #expect(result == AppendResult(stream: Fixture.stream(1), positions: [], lastVersion: nil, written: 0))
        #expect(try store.streams(category: nil).isEmpty)
    }
}
