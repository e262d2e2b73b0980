import EventStore
import JournalCore
import Testing

/// Spec §9: the journal records each stream's last event with every append, stream reads hold
/// their events to it, and `verify` holds it to the events. On every backend.
@Suite("Stream ends conformance")
struct StreamEndConformanceTests {
    /// 3 streams of 4 events each, interleaved: stream n has positions n + 1, n + 4, n + 7, n + 10.
    private func populated(_ backend: Backend) throws -> Harness {
        let harness = try backend.open(StoreOptions())
        for n in 0..<12 {
            try harness.store.append([Fixture.event(n)], to: Fixture.stream(n % 3), expectedVersion: .any)
        }
        return harness
    }

    /// Sets the end recorded for `stream` behind the store's back (guards removed first).
    private func recordEnd(_ harness: Harness, of stream: StreamName, version: Int64, position: Int64) {
        #expect(
            !harness.tamper.sqlIsRefused(
                "UPDATE journal_streams SET last_version = \(version), last_position = \(position) "
                    + "WHERE name = '\(stream)'"))
    }

    private func expectVerifyFails(
        _ store: any EventStore, at position: Int64, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        CheckedReadsConformanceTests.expectIntegrity(at: position, "verify", sourceLocation: sourceLocation) {
            _ = try store.verify()
        }
    }

    @Test(
        "a stream read that reaches the end of a stream whose last events are gone names the recorded end",
        arguments: Backend.all)
    func aReadThatStopsShortOfTheRecordedEndFails(backend: Backend) throws {
        let harness = try populated(backend)
        let stream = Fixture.stream(0)
        try harness.tamper.dropImmutabilityTriggers()
        // Stream 0's last event (version 3), in the middle of the log: 11 and 12 follow.
        try harness.tamper.deleteEvent(at: 10)
        let store = harness.store
        for (label, read) in [
            ("whole", { _ = try store.readStream(stream) }),
            ("forward from version 2", { _ = try store.read(stream: stream, from: 2, direction: .forward, limit: 10) }),
            ("forward from version 3", { _ = try store.read(stream: stream, from: 3, direction: .forward, limit: 10) }),
            (
                "backward from the end",
                {
                    _ = try store.read(stream: stream, from: .max, direction: .backward, limit: 10)
                }
            )
        ] as [(String, () throws -> Void)] {
            CheckedReadsConformanceTests.expectIntegrity(at: 10, label, read)
        }
        // From a version at or below the recorded end, that version is there: its absence is
        // named at the event read in its place.
        CheckedReadsConformanceTests.expectIntegrity(at: 7, "backward from version 3") {
            _ = try store.read(stream: stream, from: 3, direction: .backward, limit: 1)
        }
        do {
            _ = try store.readStream(stream)
        } catch {
            #expect(error.message.contains("recorded version 3 at position 10"), "\(error.message)")
            #expect(error.message.contains("versions 3 … 3 are gone"), "\(error.message)")
        }
        // Reads that do not reach the end see nothing missing; nor does a stream none of whose
        // events follows the gap (stream 1's position 11 does: its chain link names 10).
        #expect(try store.read(stream: stream, from: 0, direction: .forward, limit: 3).map(\.position) == [1, 4, 7])
        #expect(try store.read(stream: stream, from: 2, direction: .backward, limit: 10).map(\.position) == [7, 4, 1])
        #expect(try store.readStream(Fixture.stream(2)).count == 4)
        expectVerifyFails(store, at: 10)
    }

    @Test(
        "a stream read of a journal whose last events are gone from every stream names the recorded end",
        arguments: Backend.all)
    func aWholeStreamsEventsGoneFailsItsRead(backend: Backend) throws {
        let harness = try populated(backend)
        try harness.tamper.dropImmutabilityTriggers()
        for position in [2, 5, 8, 11] as [Int64] { try harness.tamper.deleteEvent(at: position) }
        CheckedReadsConformanceTests.expectIntegrity(at: 11, "stream without events") {
            _ = try harness.store.readStream(Fixture.stream(1))
        }
    }

    @Test(
        "a stream cut back with its recorded end edited to match reads as whole, and verify finds it",
        arguments: Backend.all)
    func aCutWithItsBookkeepingEditedIsFoundByVerify(backend: Backend) throws {
        let harness = try populated(backend)
        let stream = Fixture.stream(0)
        try harness.tamper.dropImmutabilityTriggers()
        try harness.tamper.deleteEvent(at: 10)
        recordEnd(harness, of: stream, version: 2, position: 7)
        #expect(try harness.store.readStream(stream).map(\.position) == [1, 4, 7])
        expectVerifyFails(harness.store, at: 10)
    }

    /// Stream ids far apart: the walk keeps the end of an id beyond its arrays aside, and must
    /// take it back when the arrays grow past that id (else the stream's next event looks like a
    /// version gap, and the stream is counted twice).
    @Test(
        "verify follows a stream whose far id the walk's arrays grew past",
        arguments: [Backend.sqliteInMemory, .sqliteOnDisk])
    func verifyFollowsStreamsWithFarIDs(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        let order = [0, 1, 2, 3, 4, 5, 1]
        for (n, stream) in order.enumerated() {
            try harness.store.append([Fixture.event(n)], to: Fixture.stream(stream), expectedVersion: .any)
        }
        try harness.tamper.dropImmutabilityTriggers()
        // Stream n + 1 has id n + 1; these ids are what a log whose ids jumped would hold.
        for (id, far) in [(2, 200_000), (3, 60_000), (4, 120_000), (5, 180_000), (6, 230_000)] {
            #expect(!harness.tamper.sqlIsRefused("UPDATE journal_streams SET id = \(far) WHERE id = \(id)"))
            #expect(
                !harness.tamper.sqlIsRefused("UPDATE journal_events SET stream_id = \(far) WHERE stream_id = \(id)"))
        }
        let report = try harness.store.verify()
        #expect(report.events == 7)
        #expect(report.streams == 6)
    }

    @Test("verify finds a recorded end edited behind the store's back, lowered or raised", arguments: Backend.all)
    func verifyHoldsTheRecordedEndsToTheEvents(backend: Backend) throws {
        let harness = try populated(backend)
        let stream = Fixture.stream(2)
        #expect(try harness.store.verify().streams == 3)
        try harness.tamper.dropImmutabilityTriggers()
        // Lowered: readers see every event (the stream only looks longer than recorded).
        recordEnd(harness, of: stream, version: 2, position: 9)
        #expect(try harness.store.readStream(stream).count == 4)
        expectVerifyFails(harness.store, at: 12)
        do {
            _ = try harness.store.verify()
        } catch {
            #expect(error.message.contains("stream \(stream)"), "\(error.message)")
        }
        // Raised past the stored events: readers name the recorded end, verify the first
        // position past the log (the head is 12).
        recordEnd(harness, of: stream, version: 5, position: 15)
        CheckedReadsConformanceTests.expectIntegrity(at: 15, "read") { _ = try harness.store.readStream(stream) }
        expectVerifyFails(harness.store, at: 13)
        // Two streams wrong: verify names the smaller position, whatever the streams' order.
        recordEnd(harness, of: Fixture.stream(0), version: 2, position: 7)
        expectVerifyFails(harness.store, at: 10)
        recordEnd(harness, of: stream, version: 3, position: 12)
        recordEnd(harness, of: Fixture.stream(0), version: 3, position: 10)
        #expect(try harness.store.verify().events == 12)
    }

    @Test(
        "the schema lets a stream's recorded end move forward only, and refuses renaming or deleting it",
        arguments: Backend.all)
    func theSchemaGuardsTheRecordedEnds(backend: Backend) throws {
        let harness = try populated(backend)
        let name = Fixture.stream(0).rawValue
        for sql in [
            "UPDATE journal_streams SET last_version = 2 WHERE name = '\(name)'",
            "UPDATE journal_streams SET last_position = 7 WHERE name = '\(name)'",
            "UPDATE journal_streams SET last_version = NULL, last_position = NULL WHERE name = '\(name)'",
            "UPDATE journal_streams SET name = 'card-x' WHERE name = '\(name)'",
            "DELETE FROM journal_streams WHERE name = '\(name)'"
        ] {
            #expect(harness.tamper.sqlIsRefused(sql), "\(sql)")
        }
        #expect(try harness.store.verify().events == 12)
    }

    @Test(
        "every write path records the ends: appends, batches, transactions, rolled-back savepoints",
        arguments: Backend.all)
    func everyWritePathRecordsTheEnds(backend: Backend) throws {
        let harness = try populated(backend)
        let store = harness.store
        try store.append([
            StreamAppend(stream: Fixture.stream(0), events: Fixture.events(20..<23)),
            StreamAppend(stream: Fixture.stream(5), expectedVersion: .noStream, events: Fixture.events(23..<25))
        ])
        try store.write { transaction in
            try transaction.append(Fixture.events(30..<32), to: Fixture.stream(1), expectedVersion: .any)
            // Refused inside the transaction: what it had appended to that stream stays out.
            #expect(throws: EventStoreError.self) {
                try transaction.append([Fixture.event(40)], to: Fixture.stream(1), expectedVersion: .exact(0))
            }
            try transaction.append([Fixture.event(33)], to: Fixture.stream(6), expectedVersion: .noStream)
            // A read inside the transaction sees its own events past the committed end.
            #expect(try transaction.read(stream: Fixture.stream(1), from: 0, direction: .forward, limit: 99).count == 6)
        }
        #expect(try store.verify().events == 20)
        #expect(try store.readStream(Fixture.stream(1)).last?.position == 19)
        // And the reads hold them: the last event of stream 0 (position 15, amid others) gone.
        try harness.tamper.dropImmutabilityTriggers()
        try harness.tamper.deleteEvent(at: 15)
        CheckedReadsConformanceTests.expectIntegrity(at: 15, "stream 0") {
            _ = try store.readStream(Fixture.stream(0))
        }
    }

    @Test("reads of a stream while it grows never mistake a concurrent append for a cut", arguments: Backend.all)
    func readsDuringAppendsSeeNoCut(backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        final class Failures: @unchecked Sendable {
            private let lock = ConditionLock()
            private var messages: [String] = []
            func add(_ message: String) { lock.withLock { messages.append(message) } }
            var all: [String] { lock.withLock { messages } }
        }
        let failures = Failures()
        let appends = 150
        runThreads(3) { thread in
            if thread == 0 {
                for n in 0..<appends {
                    do {
                        try store.append([Fixture.event(n)], to: Fixture.stream(n % 2), expectedVersion: .any)
                    } catch {
                        failures.add("append \(n): \(error)")
                    }
                }
                return
            }
            // Forward whole and backward from the end, until the writer is done.
            for _ in 0..<appends {
                do {
                    _ = try store.readStream(Fixture.stream(0))
                    _ = try store.read(stream: Fixture.stream(0), from: .max, direction: .backward, limit: 5)
                } catch {
                    failures.add("read: \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(try store.readStream(Fixture.stream(0)).count == appends / 2)
        #expect(try store.verify().events == Int64(appends))
    }
}
