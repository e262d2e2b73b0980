import EventStore
import Glibc
import JournalCore
import Simulator
import Testing

/// Same arguments, same bytes: NDJSON and the store's whole export, hashes included.
@Suite("Simulation determinism")
struct SimulationDeterminismTests {
    @Test func theSameSeedGivesByteIdenticalNDJSON() throws {
        let first = try SimulationSupport.ndjson(seed: 42, transactions: 400, digitizations: 150)
        let second = try SimulationSupport.ndjson(seed: 42, transactions: 400, digitizations: 150)
        #expect(first.count > 10_000)
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentJournals() throws {
        let first = try SimulationSupport.ndjson(seed: 42, transactions: 200, digitizations: 50)
        let second = try SimulationSupport.ndjson(seed: 43, transactions: 200, digitizations: 50)
        #expect(first != second)
    }

    @Test func otherCountsOrProfilesGiveDifferentJournals() throws {
        let base = try SimulationSupport.ndjson(seed: 42, transactions: 200, digitizations: 50)
        #expect(try SimulationSupport.ndjson(seed: 42, transactions: 201, digitizations: 50) != base)
        #expect(try SimulationSupport.ndjson(seed: 42, transactions: 200, digitizations: 50, profile: .europe) != base)
    }

    @Test func theSameSeedGivesAByteIdenticalExportThroughTheStore() throws {
        let first = try exportAfterAppending(seed: 7)
        let second = try exportAfterAppending(seed: 7)
        #expect(first.count > 1_000)
        #expect(first == second, "positions, versions, recordedAt and hashes are all the same")
        let other = try exportAfterAppending(seed: 8)
        #expect(other.last?.hash != first.last?.hash)
    }

    @Test func recordedAtComesFromTheSimulatedClockAndNeverDecreases() throws {
        let exported = try exportAfterAppending(seed: 7)
        let start = JourneyGenerator.defaultStart
        var previous = start
        for event in exported {
            #expect(event.recordedAt >= previous)
            previous = event.recordedAt
        }
        // The whole run lies within days of the simulated start, far from the wall clock's now.
        #expect(exported.last!.recordedAt < start.adding(milliseconds: 30 * 86_400_000))
    }

    @Test func theStoreHoldsExactlyWhatTheSimulationHandsOut() throws {
        let events = try SimulationSupport.events(seed: 7, transactions: 300, digitizations: 100)
        let exported = try exportAfterAppending(seed: 7)
        #expect(exported.count == events.count)
        for (stored, simulated) in zip(exported, events) {
            #expect(stored.id == simulated.id && stored.stream.rawValue == simulated.stream)
            #expect(stored.version == simulated.version && stored.type == simulated.type)
            #expect(stored.occurredAt == simulated.occurredAt && stored.recordedAt == simulated.recordedAt)
            #expect(stored.data == simulated.data && stored.meta == simulated.meta)
        }
    }

    @Test func appendingTheSameRunTwiceWritesNothingTheSecondTime() throws {
        try withTemporaryJournal { store in
            let appender = SimulationAppender(batchSize: 500)
            let once = try appender.append(try Simulation(seed: 5, transactions: 100, digitizations: 30), to: store)
            let twice = try appender.append(try Simulation(seed: 5, transactions: 100, digitizations: 30), to: store)
            #expect(once.written == once.events)
            #expect(twice.events == once.events && twice.written == 0)
            #expect(try store.headPosition() == Int64(once.events))
        }
    }

    @Test func batchesAreOneStoreTransactionEach() throws {
        try withTemporaryJournal { store in
            let report = try SimulationAppender(batchSize: 1_000)
                .append(try Simulation(seed: 5, transactions: 300, digitizations: 100), to: store)
            #expect(report.transactions == (report.events + 999) / 1_000)
            #expect(try store.verify().events == Int64(report.events))
        }
    }

    @Test func aNewJournalsLoadHoldsWhatAnOrdinaryStoreHoldsByteForByte() throws {
        let simulation = { try Simulation(seed: 9, transactions: 300, digitizations: 100) }
        let (usual, usualHead) = try withTemporaryJournal { store in
            let report = try SimulationAppender(batchSize: 700).append(simulation(), to: store)
            #expect(report.written == report.events)
            return (try store.readAll(from: 1, limit: Int.max), try store.verify().headHash)
        }
        let (loaded, loadedHead) = try withTemporaryLoad { load, path in
            let report = try SimulationAppender(batchSize: 700).append(simulation(), to: load)
            #expect(report.transactions == (report.events + 699) / 700)
            #expect(try load.finish() == Int64(report.events))
            let journal = try SQLiteEventStore(path: path, configuration: Self.epochClock)
            return (try journal.readAll(from: 1, limit: Int.max), try journal.verify().headHash)
        }
        #expect(usual.count > 1_000)
        #expect(loaded == usual, "positions, versions, recordedAt, payloads and hashes are all the same")
        #expect(loadedHead == usualHead)
    }

    private func exportAfterAppending(seed: UInt64) throws -> [RecordedEvent] {
        try withTemporaryJournal { store in
            let simulation = try Simulation(seed: seed, transactions: 300, digitizations: 100)
            _ = try SimulationAppender(batchSize: 700).append(simulation, to: store)
            return try store.readAll(from: 1, limit: Int.max)
        }
    }
}

extension SimulationDeterminismTests {
    /// A store clock at the Unix epoch, so that any `recordedAt` not taken from the simulation
    /// would show.
    static let epochClock = SQLiteEventStore.Configuration(clock: { Timestamp(millisecondsSinceEpoch: 0) })
}

/// Runs `body` with a fresh journal in a temporary folder whose store clock is the Unix epoch.
func withTemporaryJournal<R>(_ body: (SQLiteEventStore) throws -> R) throws -> R {
    try withTemporaryFolder { folder in
        try body(SQLiteEventStore(path: folder + "/journal.db", configuration: SimulationDeterminismTests.epochClock))
    }
}

/// Runs `body` with the load of a new journal in a temporary folder (the store clock at the
/// Unix epoch) and the path where the journal appears when the load finishes.
func withTemporaryLoad<R>(_ body: (SQLiteJournalLoad, String) throws -> R) throws -> R {
    try withTemporaryFolder { folder in
        let path = folder + "/journal.db"
        return try body(SQLiteJournalLoad(path: path, configuration: SimulationDeterminismTests.epochClock), path)
    }
}

/// Runs `body` with a new folder under /tmp, removed afterwards with the journal files in it.
private func withTemporaryFolder<R>(_ body: (String) throws -> R) throws -> R {
    var template = Array("/tmp/simulator-tests-XXXXXX".utf8CString)
    guard let folder = mkdtemp(&template) else { throw TemporaryFolderError() }
    let path = String(cString: folder)
    defer {
        for name in ["journal.db", "journal.db-wal", "journal.db-shm"] { unlink(path + "/" + name) }
        rmdir(path)
    }
    return try body(path)
}

struct TemporaryFolderError: Error {}
