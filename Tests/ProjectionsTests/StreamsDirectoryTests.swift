import Domain
import EventStore
import JournalCore
import Testing

@testable import Projections

/// The `streams` directory behind `journal find` against the domain's own aggregates: every
/// stream's outcome (or open state), start, event count and ids, whatever the batch sizes,
/// catch-up steps and evictions; on SQLite and PostgreSQL.
@Suite("Streams directory matches the domain's aggregates")
struct StreamsDirectoryTests {
    struct Expected: Equatable {
        var found: FoundStream
        var category: String
        var directoryServer: String?
        var serverTransID: String?
        var acsTransID: String?
        var digitalCardID: String?
        var correlations: Set<String> = []
    }

    /// A simulated log whose events carry correlation ids in `meta`: one per stream on its first
    /// event, and a second one on some streams' later events.
    static func log(seed: UInt64) -> [RecordedEvent] {
        var log = SimulatorWorkload.log(seed: seed, transactions: 90, digitizations: 70)
        var seen: Set<String> = []
        for index in log.indices {
            let stream = log[index].stream.rawValue
            if seen.insert(stream).inserted {
                log[index].meta = Array(#"{"platform":"ios","correlationId":"c-\#(stream.suffix(12))"}"#.utf8)
            } else if log[index].version % 5 == 3 {
                log[index].meta = Array(#"{"correlationId":"late-\#(stream.suffix(4))"}"#.utf8)
            }
        }
        return log
    }

    /// Each stream as the domain's aggregate folds it, with the fields `find` filters on.
    static func reference(_ log: [RecordedEvent]) throws -> [Expected] {
        var states: [String: JourneyState] = [:]
        var expected: [String: Expected] = [:]
        let parser = JSONParser()
        for event in log {
            let stream = event.stream.rawValue
            var state = try states[stream] ?? JourneyState.initial(for: stream)
            let data = try parser.parse(event.data).objectValue!
            try state.apply(type: event.type, data: data, occurredAt: event.occurredAt)
            states[stream] = state
            var entry =
                expected[stream]
                ?? Expected(
                    found: FoundStream(stream: stream, startedAt: event.occurredAt, outcome: "", events: 0),
                    category: state.category.rawValue)
            entry.found.events += 1
            switch event.type {
            case "TransactionCreated": entry.directoryServer = data["directoryServerID"]?.stringValue
            case "AuthResponseReceived":
                entry.serverTransID = data["threeDSServerTransID"]?.stringValue
                entry.acsTransID = data["acsTransID"]?.stringValue
            case "DigitizationApproved", "DigitizationApprovedWithIDV":
                entry.digitalCardID = data["digitalCardID"]?.stringValue
            default: break
            }
            if let meta = event.meta, let id = try parser.parse(meta).objectValue?["correlationId"]?.stringValue {
                entry.correlations.insert(id)
            }
            expected[stream] = entry
        }
        for (stream, state) in states {
            let status: String
            switch state {
            case let .threeDS(s): status = s.statusName
            case let .card(s): status = s.statusName
            }
            expected[stream]!.found.outcome = state.isTerminal ? state.outcomeName : status
        }
        return expected.values.sorted {
            ($0.found.startedAt, $0.found.stream) < ($1.found.startedAt, $1.found.stream)
        }
    }

    static func expectFindsMatch(_ engine: ProjectionEngine, _ reference: [Expected], _ comment: String) throws {
        let all = try engine.find(StreamFilter(), limit: 100_000)
        #expect(all.streams == reference.map(\.found), Comment(rawValue: comment))
        #expect(!all.truncated)
        var filters: [(StreamFilter, [Expected])] = []
        for outcome in Set(reference.map(\.found.outcome)) {
            filters.append((StreamFilter(outcome: outcome), reference.filter { $0.found.outcome == outcome }))
        }
        let ended = Set(
            ThreeDSTransaction.OutcomeKey.allCases.map(\.rawValue)
                + CardDigitization.OutcomeKey.allCases.map(\.rawValue)
        ).subtracting(["open"])
        filters.append((StreamFilter(outcome: "open"), reference.filter { !ended.contains($0.found.outcome) }))
        filters.append((StreamFilter(category: "card"), reference.filter { $0.category == "card" }))
        for ds in Set(reference.compactMap(\.directoryServer)) {
            filters.append((StreamFilter(directoryServer: ds), reference.filter { $0.directoryServer == ds }))
        }
        for entry in reference.prefix(40) {
            if let id = entry.serverTransID { filters.append((StreamFilter(serverTransID: id), [entry])) }
            if let id = entry.acsTransID {
                filters.append((StreamFilter(acsTransID: id), reference.filter { $0.acsTransID == id }))
            }
            if let id = entry.digitalCardID { filters.append((StreamFilter(digitalCardID: id), [entry])) }
            for id in entry.correlations {
                filters.append((StreamFilter(correlationID: id), reference.filter { $0.correlations.contains(id) }))
            }
        }
        let middle = reference[reference.count / 2].found.startedAt
        filters.append(
            (
                StreamFilter(window: QueryWindow(since: middle)),
                reference.filter { $0.found.startedAt >= middle }
            ))
        filters.append(
            (
                StreamFilter(window: QueryWindow(until: middle), category: "3ds", outcome: "open"),
                reference.filter {
                    $0.found.startedAt < middle && $0.category == "3ds" && !ended.contains($0.found.outcome)
                }
            ))
        for (filter, expected) in filters {
            #expect(
                try engine.find(filter, limit: 100_000).streams == expected.map(\.found),
                Comment(rawValue: "\(comment), \(filter)"))
        }
        // A limit keeps the first ones, ties at the cut broken by name.
        for limit in [1, 7, 50] {
            let cut = try engine.find(StreamFilter(), limit: limit)
            #expect(
                cut.streams == Array(reference.prefix(limit).map(\.found)),
                Comment(rawValue: "\(comment), limit \(limit)"))
            #expect(cut.truncated == (reference.count > limit))
        }
    }

    @Test("every stream's row equals the domain's fold", arguments: DatabaseBackend.all, [UInt64(1), 2, 3])
    func everyStream(backend: DatabaseBackend, seed: UInt64) throws {
        let log = Self.log(seed: seed)
        let reference = try Self.reference(log)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 97
        engine.limitStreamCache(to: 20) // rows dropped from memory are read back
        try Self.expectFindsMatch(engine, reference, "seed \(seed)")
        try engine.rebuild([.streams])
        try Self.expectFindsMatch(engine, reference, "after rebuild, seed \(seed)")
    }

    /// The suffixes of the `streams` table's indexes.
    static let streamIndexNames = ["start", "outcome", "open", "ds", "ds_outcome", "sti", "ati", "dci"]

    /// The indexes of the `streams` table of generation `g` that exist.
    static func streamIndexes(_ engine: ProjectionEngine, generation g: Int64) throws -> [String] {
        let table = StreamsProjection.streamTable(g)
        return try streamIndexNames.filter {
            try engine.db.indexExists("\(table)_\($0)")
        }
    }

    @Test(
        """
        a rebuild fills the streams table without its indexes, the old generation answering \
        meanwhile, and makes every index when it swaps in
        """, arguments: DatabaseBackend.all)
    func indexesMadeAtTheSwap(backend: DatabaseBackend) throws {
        let log = Self.log(seed: 6)
        let reference = try Self.reference(log)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let engine = try ProjectionEngine(journal: db.location, source: ArrayEventSource(log))
        defer { engine.close() }
        engine.batchSize = 97
        try engine.catchUp([.streams]) // generation 1
        #expect(try Self.streamIndexes(engine, generation: 1) == Self.streamIndexNames)
        try engine.rebuild([.streams], maxBatches: 2) // generation 2, half-built: as if interrupted
        #expect(try engine.status().first { $0.name == .streams }?.rebuildCheckpoint == 194)
        #expect(try Self.streamIndexes(engine, generation: 2).isEmpty)
        #expect(try engine.generation(.streams) == 1)
        try Self.expectFindsMatch(engine, reference, "during the rebuild")
        try engine.rebuild([.streams]) // resumes and swaps
        #expect(try engine.generation(.streams) == 2)
        #expect(try Self.streamIndexes(engine, generation: 2) == Self.streamIndexNames)
        #expect(try !engine.db.tableExists(StreamsProjection.streamTable(1)))
        if !engine.db.isPostgres {
            // The searches by outcome and by directory server read their own index.
            for (column, index) in [("outcome", "outcome"), ("ds", "ds")] {
                let st = try engine.db.statement(
                    """
                    EXPLAIN QUERY PLAN SELECT sid FROM pj_streams_g2 WHERE \(column) = ?1 \
                    ORDER BY start_t, sid LIMIT 10
                    """)
                defer { st.reset() }
                var plan = ""
                while try st.step() { plan += st.text(3) + "\n" }
                #expect(plan.contains("INDEX pj_streams_g2_\(index) "), Comment(rawValue: plan))
            }
        }
        try Self.expectFindsMatch(engine, reference, "after the rebuild")
    }

    @Test("catch-ups of random sizes give the same rows", arguments: DatabaseBackend.all, [UInt64(4), 5])
    func stepwise(backend: DatabaseBackend, seed: UInt64) throws {
        let log = Self.log(seed: seed)
        let db = try TemporaryDatabase(backend)
        defer { db.remove() }
        let source = ArrayEventSource([])
        var random = TestRandom(seed: seed)
        var delivered = 0
        while delivered < log.count {
            delivered = min(log.count, delivered + Int.random(in: 1...300, using: &random))
            source.events = Array(log[..<delivered])
            let engine = try ProjectionEngine(journal: db.location, source: source)
            engine.batchSize = Int.random(in: 1...64, using: &random)
            // Each step asks: the answer is always that of the log so far.
            #expect(
                try engine.find(StreamFilter(), limit: 100_000).streams
                    == Self.reference(source.events).map(\.found))
            engine.close()
        }
        let engine = try ProjectionEngine(journal: db.location, source: source)
        defer { engine.close() }
        try Self.expectFindsMatch(engine, try Self.reference(log), "stepwise, seed \(seed)")
    }

    @Test("every name find accepts comes from the domain, each once")
    func names() {
        let names = StreamOutcome.names
        #expect(names.count == Set(names).count)
        for key in ThreeDSTransaction.OutcomeKey.allCases { #expect(names.contains(key.rawValue)) }
        for key in CardDigitization.OutcomeKey.allCases { #expect(names.contains(key.rawValue)) }
        for status in [ThreeDSTransaction.Status.created, .authParametersIssued, .authResponseReceived, .challenge] {
            #expect(names.contains(status.rawValue))
        }
        for status in [CardDigitization.Status.eligible, .requested, .pendingActivation] {
            #expect(names.contains(status.rawValue))
        }
        #expect(!names.contains("empty"))
        #expect(!names.contains("ended"))
    }
}
