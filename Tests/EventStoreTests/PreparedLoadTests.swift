import JournalCore
import Testing

@testable import EventStore

/// `LoadPreparer` and `SQLiteJournalLoad.append(_: PreparedLoadBatch)`: batches prepared on
/// another thread give the journal the usual appends give, row for row, and fail the same way.
@Suite("SQLite journal load, prepared batches")
struct PreparedLoadTests {
    /// Interleaved appends to many streams with `recordedAt` on most events (the others take the
    /// store's clock, so the writer takes their append the usual way), meta on some, three
    /// types, some ids in capitals (valid, stored as text), payloads long enough to compress
    /// once the dictionary exists (after 40 events).
    /// (Ids in capitals send `finish()` to SQLite's own sort of the id index: `capitals: false`
    /// keeps every id packed, so the index comes from the preparer's sorted runs.)
    static func batches(rounds: Int = 8, capitals: Bool = true) -> [[StreamAppend]] {
        var batches: [[StreamAppend]] = []
        var n = 0
        for round in 0..<rounds {
            var batch: [StreamAppend] = []
            for s in 0..<25 where (s + round) % 4 != 0 || round == 0 {
                let events = (0..<(1 + (s + round) % 3)).map { _ -> ProposedEvent in
                    n += 1
                    let padding = String(repeating: "otp-", count: n % 9)
                    var event = Fixture.event(
                        n, type: ["ChallengeStarted", "OtpSubmitted", "CardActivated"][n % 3],
                        data: #"{"n":\#(n),"text":"\#(padding)"}"#,
                        meta: n % 5 == 0 ? #"{"sdk":"wallet","n":\#(n)}"# : nil,
                        recordedAt: n % 11 == 0 ? nil : Fixture.time.adding(milliseconds: Int64(1000 + n)))
                    if capitals && n % 13 == 0 { event.id = event.id.uppercased() }
                    // Short random bytes, which compression cannot shrink: stored raw.
                    if n % 7 == 0 { event.data = Array(String(LoadEventIDsTests.word(UInt64(n)), radix: 16).utf8) }
                    return event
                }
                batch.append(
                    StreamAppend(
                        stream: Fixture.stream(s), expectedVersion: round == 0 ? .noStream : .any, events: events))
            }
            batches.append(batch)
        }
        return batches
    }

    /// A journal appended the usual way and a load of a new one, side by side in a fresh
    /// folder, with the same configuration.
    struct Pair {
        let directory = TemporaryDirectory.make()
        let configuration: SQLiteEventStore.Configuration
        let usual: SQLiteEventStore
        let load: SQLiteJournalLoad

        init(_ configuration: SQLiteEventStore.Configuration = JournalLoadTests.configuration()) throws {
            self.configuration = configuration
            usual = try SQLiteEventStore(path: directory.file("usual.db"), configuration: configuration)
            load = try SQLiteJournalLoad(path: directory.file("loaded.db"), configuration: configuration)
        }

        /// The load's journal, once finished.
        func loaded() throws -> SQLiteEventStore {
            try SQLiteEventStore(path: directory.file("loaded.db"), configuration: configuration)
        }
    }

    /// Every stored column of every event row, the streams, types and dictionaries, as text.
    static func rows(_ store: SQLiteEventStore) throws -> [String] {
        try store.withConnection { db in
            var rows: [String] = []
            for query in [
                "SELECT position, stream_id, version, hex(event_id), type_id, occurred_at, "
                    + "recorded_at, codec, data_len, "
                    + "coalesce(meta_len, -1), hex(payload), hex(hash) FROM journal_events ORDER BY position",
                "SELECT id, name, '' , '', '', '', '', '', '', '', '', '' FROM journal_streams ORDER BY id",
                "SELECT id, name, '' , '', '', '', '', '', '', '', '', '' FROM journal_types ORDER BY id",
                "SELECT id, codec, hex(content), hex(sha256), trained_through, '', '', '', '', '', "
                    + "'', '' FROM journal_dictionaries"
            ] {
                let statement = try db.cached(query)
                defer { statement.reset() }
                while try statement.step() {
                    rows.append((0..<12).map { statement.text(at: Int32($0)) }.joined(separator: "|"))
                }
            }
            return rows
        }
    }

    /// Whether a finished load's id index holds exactly each event's id at its position, and
    /// covers the whole log. (A journal appended the usual way indexes its ids in batches, so
    /// its index is not compared row for row.)
    static func idIndexIsExact(_ store: SQLiteEventStore) throws -> Bool {
        try store.withConnection { db in
            let events = try db.scalarInt("SELECT count(*) FROM journal_events")
            let indexed = try db.scalarInt("SELECT count(*) FROM journal_event_ids")
            let matching = try db.scalarInt(
                """
                SELECT count(*) FROM journal_event_ids i JOIN journal_events e ON e.position = \
                i.position AND e.event_id = i.id
                """)
            let through = try db.scalarInt("SELECT through FROM journal_id_index")
            let head = try db.scalarInt("SELECT position FROM journal_head")
            return events == indexed && indexed == matching && through == head && (events ?? 0) > 0
        }
    }

    @Test
    func aPreparedLoadStoresTheRowsOfTheSameAppendsMadeTheUsualWay() throws {
        let pair = try Pair()
        let (usual, load) = (pair.usual, pair.load)
        let preparer = try load.makePreparer()
        var compressedByThePreparer = 0
        for batch in Self.batches() {
            let prepared = preparer.prepare(batch)
            compressedByThePreparer += prepared.events.filter { $0.codec != 0 }.count
            let expected = try usual.append(batch)
            #expect(try load.append(prepared) == expected.reduce(0) { $0 + $1.written })
        }
        // The first batch crossed the 40 events of the dictionary: every later one was
        // compressed by the preparer, and the writer compressed the rest of the first.
        #expect(compressedByThePreparer > 100)
        let rawAfterTheDictionary = try usual.withConnection { db in
            try db.scalarInt(
                "SELECT count(*) FROM journal_events WHERE codec = 0 AND position > 40 AND length(payload) >= 16")
        }
        #expect(rawAfterTheDictionary ?? 0 > 10)
        #expect(try load.finish() == usual.headPosition())

        let loaded = try pair.loaded()
        let rows = try Self.rows(loaded)
        #expect(rows.count > 300)
        #expect(rows == (try Self.rows(usual)))
        #expect(try Self.idIndexIsExact(loaded))
        #expect(try loaded.verify().headHash == usual.verify().headHash)
        #expect(try JournalLoadTests.schema(loaded) == JournalLoadTests.schema(usual))
    }

    /// The same batches given event by event (`beginAppend`, `add`, `finishBatch`); every other
    /// id that is a lowercase UUID given as its two words (`add(uuidHigh:low:…)`).
    static func prepareEventByEvent(_ batch: [StreamAppend], with preparer: LoadPreparer) -> PreparedLoadBatch {
        var n = 0
        for append in batch {
            preparer.beginAppend(to: append.stream, expectedVersion: append.expectedVersion)
            for event in append.events {
                n += 1
                event.data.withUnsafeBytes { data in
                    OptionalBytes.with(event.meta) { meta in
                        let recordedAt = event.recordedAt ?? Fixture.time
                        if n % 2 == 0, let words = UUIDText.words(event.id) {
                            preparer.add(
                                uuidHigh: words.high, low: words.low, type: event.type, occurredAt: event.occurredAt,
                                recordedAt: recordedAt, data: data, meta: meta)
                        } else {
                            preparer.add(
                                id: event.id, type: event.type, occurredAt: event.occurredAt,
                                recordedAt: recordedAt, data: data, meta: meta)
                        }
                    }
                }
            }
        }
        return preparer.finishBatch()
    }

    @Test
    func eventsGivenOneByOneIntoReusedBatchesStoreTheRowsOfTheSameAppendsMadeTheUsualWay() throws {
        let pair = try Pair()
        let (usual, load) = (pair.usual, pair.load)
        let preparer = try load.makePreparer()
        // Every event with its recordedAt (the usual path would give the others the store's
        // clock), every id packed (the id index from the preparer's sorted runs).
        let batches = Self.batches(capitals: false).map { batch in
            batch.map { append in
                StreamAppend(
                    stream: append.stream, expectedVersion: append.expectedVersion,
                    events: append.events.map { event in
                        var stamped = event
                        stamped.recordedAt = stamped.recordedAt ?? Fixture.time
                        return stamped
                    })
            }
        }
        for batch in batches {
            let prepared = Self.prepareEventByEvent(batch, with: preparer)
            #expect(prepared.eventCount == batch.reduce(0) { $0 + $1.events.count })
            let expected = try usual.append(batch)
            #expect(try load.append(prepared) == expected.reduce(0) { $0 + $1.written })
            // The next batch is built in this one's arrays, emptied.
            preparer.reuse(prepared)
        }
        try load.finish()
        let loaded = try pair.loaded()
        #expect(try Self.rows(loaded) == Self.rows(usual))
        #expect(try Self.idIndexIsExact(loaded))
    }

    @Test
    func aPreparedLoadThatFillsTheDiskThrowsFullAndLeavesNothingBehind() throws {
        let directory = TemporaryDirectory.make()
        var configuration = JournalLoadTests.configuration()
        configuration.maxPageCount = 60
        var failure: EventStoreError?
        var written = 0
        do {
            let load = try SQLiteJournalLoad(path: directory.file("full.db"), configuration: configuration)
            let preparer = try load.makePreparer()
            // Rows compressed by the preparer wait to be written 16 to a statement when the disk fills.
            for batch in Self.batches(rounds: 400, capitals: false) {
                do {
                    let prepared = preparer.prepare(batch)
                    written += try load.append(prepared)
                    preparer.reuse(prepared)
                } catch {
                    failure = error
                    break
                }
            }
        }
        let error = try #require(failure)
        #expect(error.code == .full)
        #expect(written > 100)
        // The load was dropped: neither the journal nor its loading file is left.
        #expect(try JournalLoadTests.files(in: directory) == [])
    }

    @Test
    func aPreparedBatchThatBreaksARuleFailsAsTheUsualAppendAndWritesNothing() throws {
        var configuration = JournalLoadTests.configuration()
        configuration.maxPayloadBytes = 65_536
        let pair = try Pair(configuration)
        let (usual, load) = (pair.usual, pair.load)
        let preparer = try load.makePreparer()
        let first = Self.batches(rounds: 1)[0]
        try usual.append(first)
        try load.append(preparer.prepare(first))
        let head = try usual.headPosition()

        // Each rule once, in the second append (the first is good): the id, the type, the size.
        var badID = Fixture.event(900, recordedAt: Fixture.time)
        badID.id = "not-a-uuid"
        let badType = Fixture.event(901, type: "Challenge Started", recordedAt: Fixture.time)
        let tooLarge = Fixture.event(
            902, data: "[\(String(repeating: "1,", count: 40_000))1]", recordedAt: Fixture.time)
        for (bad, code) in [(badID, EventStoreError.Code.invalidInput), (badType, .invalidInput), (tooLarge, .tooLarge)]
        {
            let later = [
                StreamAppend(
                    stream: Fixture.stream(0), expectedVersion: .any,
                    events: [Fixture.event(800, recordedAt: Fixture.time)]),
                StreamAppend(
                    stream: Fixture.stream(40), expectedVersion: .noStream,
                    events: [Fixture.event(903, recordedAt: Fixture.time), bad])
            ]
            let expected = try #require(throws: EventStoreError.self) { try usual.append(later) }
            let failure = try #require(throws: EventStoreError.self) { try load.append(preparer.prepare(later)) }
            #expect(failure.code == code)
            #expect(failure.message == expected.message)
            let oneByOne = try #require(throws: EventStoreError.self) {
                try load.append(Self.prepareEventByEvent(later, with: preparer))
            }
            #expect(oneByOne.message == expected.message)
            #expect(try usual.headPosition() == head)
        }

        // The load goes on; nothing of the refused batch was kept (stream 40 included).
        let next = [
            StreamAppend(
                stream: Fixture.stream(40), expectedVersion: .noStream,
                events: [Fixture.event(950, recordedAt: Fixture.time)])
        ]
        try usual.append(next)
        try load.append(preparer.prepare(next))
        try load.finish()
        let loaded = try pair.loaded()
        #expect(try Self.rows(loaded) == Self.rows(usual))
        #expect(try Self.idIndexIsExact(loaded))
    }

    @Test
    func aPreparedAppendWithAStaleExpectedVersionIsAConflictAndTheLoadGoesOn() throws {
        let pair = try Pair()
        let load = pair.load
        let preparer = try load.makePreparer()
        let stamped = { (n: Int) in Fixture.event(n, recordedAt: Fixture.time) }
        try load.append(
            preparer.prepare([
                StreamAppend(
                    stream: Fixture.stream(1), expectedVersion: .noStream,
                    events: [stamped(1), stamped(2)])
            ]))
        // Version 1 is the stream's last, from an earlier transaction: exact(0) is stale.
        let stale = [
            StreamAppend(stream: Fixture.stream(2), expectedVersion: .noStream, events: [stamped(3)]),
            StreamAppend(stream: Fixture.stream(1), expectedVersion: .exact(0), events: [stamped(4)])
        ]
        let conflict = try #require(throws: EventStoreError.self) { try load.append(preparer.prepare(stale)) }
        #expect(conflict.code == .conflict)
        #expect(conflict.actualVersion == 1)
        let fresh = [
            StreamAppend(stream: Fixture.stream(2), expectedVersion: .noStream, events: [stamped(3)]),
            StreamAppend(stream: Fixture.stream(1), expectedVersion: .exact(1), events: [stamped(4)])
        ]
        #expect(try load.append(preparer.prepare(fresh)) == 2)
        #expect(try load.finish() == 4)
        let loaded = try pair.loaded()
        #expect(
            try loaded.read(stream: Fixture.stream(1), from: 0, direction: .forward, limit: 10).map(\.version) == [
                0, 1, 2
            ])
        #expect(try loaded.verify().headPosition == 4)
    }

    /// Journeys as the simulator writes them: a first append that expects no stream, then
    /// appends that expect the exact version, `recordedAt` on every event.
    static func journeys(_ rounds: Range<Int>, streams: Int = 20) -> [[StreamAppend]] {
        rounds.map { round in
            (0..<streams).map { s in
                let n = 10_000 + round * 1000 + s * 10
                let events = (0..<(1 + s % 2)).map { k in
                    Fixture.event(
                        n + k, data: #"{"round":\#(round),"s":\#(s),"k":\#(k),"note":"hash ahead"}"#,
                        recordedAt: Fixture.time.adding(milliseconds: Int64(n + k)))
                }
                let before = round == 0 ? nil : (0..<round).reduce(Int64(-1)) { last, _ in last + Int64(1 + s % 2) }
                return StreamAppend(
                    stream: Fixture.stream(s), expectedVersion: before.map { .exact($0) } ?? .noStream, events: events)
            }
        }
    }

    @Test
    func chainHashesComputedAheadAreTakenWhileTheChainIsWhereThePreparerAssumed() throws {
        let pair = try Pair()
        let (usual, load) = (pair.usual, pair.load)
        let preparer = try load.makePreparer()
        let batches = Self.journeys(0..<4)
        var events = 0
        for batch in batches {
            try usual.append(batch)
            events += try load.append(Self.prepareEventByEvent(batch, with: preparer))
        }
        #expect(load.hashesTakenAhead == events)
        try load.finish()
        let loaded = try pair.loaded()
        #expect(try Self.rows(loaded) == Self.rows(usual))
        #expect(try loaded.verify().headHash == usual.verify().headHash)
    }

    @Test
    func afterABatchTheWriterRefusedNoHashComputedAheadIsTakenAndTheChainStaysRight() throws {
        let pair = try Pair()
        let (usual, load) = (pair.usual, pair.load)
        let preparer = try load.makePreparer()
        let batches = Self.journeys(0..<4)
        // A copy of the third batch that expects a version stream 3 never reaches: refused by
        // the writer, whose head then is not where the preparer assumes it for what follows
        // (the third batch as it should be, then the fourth).
        var stale = batches[2]
        stale[3].expectedVersion = .exact(99)
        var taken = 0
        for (index, batch) in batches.enumerated() {
            if index == 2 {
                #expect(throws: EventStoreError.self) { try usual.append(stale) }
                let refused = try #require(throws: EventStoreError.self) {
                    try load.append(Self.prepareEventByEvent(stale, with: preparer))
                }
                #expect(refused.code == .conflict)
                taken = load.hashesTakenAhead
            }
            try usual.append(batch)
            try load.append(Self.prepareEventByEvent(batch, with: preparer))
        }
        #expect(taken > 0)
        #expect(load.hashesTakenAhead == taken) // none after the refused batch
        try load.finish()
        let loaded = try pair.loaded()
        #expect(try Self.rows(loaded) == Self.rows(usual))
        #expect(try loaded.verify().headHash == usual.verify().headHash)
    }

    @Test
    func aBatchPreparedForAnotherLoadIsRefusedAndWritesNothing() throws {
        let (first, second) = (try Pair(), try Pair())
        let batch = Self.journeys(0..<2)
        // A preparer compresses with its own load's dictionary and hashes from its own load's
        // head: a batch of the first load's preparer is refused by the second load.
        try first.load.append(Self.prepareEventByEvent(batch[0], with: first.load.makePreparer()))
        let foreign = Self.prepareEventByEvent(batch[0], with: try first.load.makePreparer())
        let error = try #require(throws: EventStoreError.self) { try second.load.append(foreign) }
        #expect(error.code == .invalidInput)
        #expect(try second.load.append(Self.prepareEventByEvent(batch[0], with: second.load.makePreparer())) == 30)
    }
}
