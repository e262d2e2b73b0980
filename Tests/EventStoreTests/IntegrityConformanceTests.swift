import EventStore
import JournalCore
import Testing

@Suite("Integrity conformance")
struct IntegrityConformanceTests {
    /// 3 streams, 12 events, all with meta so every stored field exists.
    private func populated(_ backend: Backend, compress: Bool = false) throws -> Harness {
        let harness = try backend.open(StoreOptions(dictionaryTrainingEvents: compress ? 4 : 0))
        for n in 0..<12 {
            var event = Fixture.event(
                n, type: n % 2 == 0 ? "ChallengeStarted" : "ChallengeCompleted",
                meta: #"{"sdkVersion":"2.3.1","source":"device"}"#)
            event.recordedAt = Fixture.time.adding(milliseconds: Int64(1000 + n))
            try harness.store.append([event], to: Fixture.stream(n % 3), expectedVersion: .any)
        }
        return harness
    }

    private func expectIntegrityFailure(
        _ store: any EventStore, at position: Int64, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let report = try store.verify()
            Issue.record(
                "verify passed (\(report.events) events) \(comment.map { "\($0)" } ?? "")",
                sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .integrity, comment, sourceLocation: sourceLocation)
            #expect(error.position == position, comment, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: Backend.all)
    func verifyOfAnIntactJournalReportsItsHead(backend: Backend) throws {
        let store = try populated(backend).store
        let report = try store.verify()
        let last = try #require(try store.readAll(from: 12, limit: 1).first)
        #expect(report == VerifyReport(events: 12, streams: 3, headPosition: 12, headHash: EventHashing.hex(last.hash)))
        let empty = try backend.open(StoreOptions()).store
        #expect(try empty.verify() == VerifyReport(events: 0, streams: 0, headPosition: 0, headHash: ""))
    }

    @Test("verify reports how many events it has checked as it goes, and the same report", arguments: Backend.all)
    func verifyReportsProgress(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        var events: [ProposedEvent] = []
        for n in 0..<10_000 { events.append(Fixture.event(n, type: "ChallengeStarted")) }
        try harness.store.append(events, to: Fixture.stream(0), expectedVersion: .any)
        var counts: [Int64] = []
        let report = try harness.store.verify { counts.append($0) }
        #expect(report == (try harness.store.verify()))
        #expect(!counts.isEmpty && counts == counts.sorted() && (counts.last ?? 0) <= 10_000, "\(counts)")
    }

    @Test(arguments: Backend.all)
    func eachHashFollowsTheDocumentedByteLayout(backend: Backend) throws {
        let store = try populated(backend).store
        var previous = [UInt8](repeating: 0, count: 32)
        for event in try store.readAll(from: 1, limit: 100) {
            var link: [UInt8] = Array("JRNLEV01".utf8) + previous
            func be(_ value: Int64, _ bytes: Int) -> [UInt8] {
                (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> UInt64($0 * 8)) }
            }
            func field(_ bytes: [UInt8]) -> [UInt8] { be(Int64(bytes.count), 4) + bytes }
            link += be(event.position, 8) + be(event.version, 8)
            link +=
                field(Array(event.stream.rawValue.utf8)) + field(Array(event.id.utf8)) + field(Array(event.type.utf8))
            link += be(event.occurredAt.millisecondsSinceEpoch, 8) + be(event.recordedAt.millisecondsSinceEpoch, 8)
            link += field(event.data)
            link += event.meta.map { [1] + field($0) } ?? [0]
            let expected = try EventHashing.sha256(link)
            #expect(event.hash == expected, "position \(event.position)")
            #expect(try EventHashing.linkHash(previous: previous, event: event) == expected)
            previous = event.hash
        }
        #expect(
            EventHashing.hex(try EventHashing.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: Backend.all)
    func theSchemaRefusesUpdatesAndDeletesOfStoredEvents(backend: Backend) throws {
        let harness = try populated(backend)
        #expect(harness.tamper.updateIsRefused(at: 3))
        #expect(harness.tamper.deleteIsRefused(at: 3))
        #expect(try harness.store.verify().events == 12)
    }

    @Test(arguments: Backend.all, [false, true])
    func aChangeOfAnySingleStoredByteIsDetectedAtItsPosition(backend: Backend, compressed: Bool) throws {
        let harness = try populated(backend, compress: compressed)
        try harness.tamper.dropImmutabilityTriggers()
        // Position 10 is in the first stream, so no stream or type id can flip onto a real one.
        let position: Int64 = 10
        let changes = try harness.tamper.singleByteChanges(at: position)
        #expect(changes.count > 60)
        for change in changes {
            try change.apply()
            expectIntegrityFailure(harness.store, at: position, "\(change.label)")
            try change.revert()
        }
        #expect(try harness.store.verify().events == 12)
    }

    @Test(arguments: Backend.all)
    func aChangedStreamOrTypeNameIsDetectedAtItsFirstEvent(backend: Backend) throws {
        let harness = try populated(backend)
        try harness.tamper.dropImmutabilityTriggers()
        let stream = Fixture.stream(1)
        var renamed = Array(stream.rawValue.utf8)
        renamed[renamed.count - 1] = UInt8(ascii: "z")
        try harness.tamper.renameStream(stream, to: String(decoding: renamed, as: UTF8.self))
        expectIntegrityFailure(harness.store, at: 2)
        try harness.tamper.renameStream(try StreamName(String(decoding: renamed, as: UTF8.self)), to: stream.rawValue)
        try harness.tamper.renameType("ChallengeCompleted", to: "ChallengeCompletes")
        expectIntegrityFailure(harness.store, at: 2)
    }

    @Test(arguments: Backend.all, [Int64(5), 12])
    func aDeletedEventIsDetected(backend: Backend, position: Int64) throws {
        let harness = try populated(backend)
        try harness.tamper.dropImmutabilityTriggers()
        try harness.tamper.deleteEvent(at: position)
        expectIntegrityFailure(harness.store, at: position)
    }

    @Test(arguments: Backend.all)
    func anInsertedEventIsDetected(backend: Backend) throws {
        let harness = try populated(backend)
        try harness.tamper.dropImmutabilityTriggers()
        try harness.tamper.insertCopy(of: 12, at: 13, newID: Fixture.uuid(500))
        expectIntegrityFailure(harness.store, at: 13)
    }

    @Test(arguments: Backend.all)
    func reorderedEventsAreDetectedAtTheEarlierPosition(backend: Backend) throws {
        let harness = try populated(backend)
        try harness.tamper.dropImmutabilityTriggers()
        try harness.tamper.swapEvents(4, 7)
        expectIntegrityFailure(harness.store, at: 4)
    }

    @Test(arguments: Backend.all)
    func aRehashedForgeryBreaksTheChainAtTheNextEvent(backend: Backend) throws {
        let harness = try populated(backend)
        try harness.tamper.dropImmutabilityTriggers()
        let previous = try #require(try harness.store.readAll(from: 5, limit: 1).first)
        var forged = try #require(try harness.store.readAll(from: 6, limit: 1).first)
        forged.data = Array(#"{"attempt":99}"#.utf8)
        let forgedHash = try EventHashing.linkHash(previous: previous.hash, event: forged)
        try harness.tamper.overwrite(at: 6, data: forged.data, hash: forgedHash)
        #expect(try harness.store.readAll(from: 6, limit: 1).first?.data == forged.data)
        expectIntegrityFailure(harness.store, at: 7)
    }
}

@Suite("Checked reads conformance")
struct CheckedReadsConformanceTests {
    /// Events per batch a scan's chain check hashes on its other thread (`ScanChainCheck.batchEvents`).
    static let checkBatch = 4_096

    @Test(
        "a scan of several check batches names the first bad position, whichever batch holds it",
        arguments: Backend.all)
    func aScanNamesTheFirstBadPositionAcrossBatches(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        let count = 3 * Self.checkBatch + 100
        var events: [ProposedEvent] = []
        for n in 0..<count { events.append(Fixture.event(n, type: "ChallengeStarted")) }
        try harness.store.append(events, to: Fixture.stream(0), expectedVersion: .any)
        let scanning = try #require(harness.store as? any EventScanning)
        #expect(try scanning.scanAll(from: 1, limit: .max) { _ in true } == count)
        try harness.tamper.dropImmutabilityTriggers()
        // A bad event in the second batch, then one in the third: the second is reported, from
        // any starting position before it, and a scan that stops before it reports nothing.
        let first = Int64(Self.checkBatch + 17)
        let second = Int64(2 * Self.checkBatch + 5)
        for position in [second, first] {
            let change = try #require(
                try harness.tamper.singleByteChanges(at: position).first { $0.label == "hash[0]" })
            try change.apply()
        }
        for start: Int64 in [1, 2, first - 1, first] {
            #expect(throws: EventStoreError.self, "from \(start)") {
                try scanning.scanAll(from: start, limit: .max) { _ in true }
            }
            do {
                try scanning.scanAll(from: start, limit: .max) { _ in true }
            } catch {
                #expect(error.code == .integrity && error.position == first, "from \(start): \(error)")
            }
        }
        #expect(try scanning.scanAll(from: 1, limit: Int(first) - 1) { _ in true } == Int(first) - 1)
        // Read all lent in place checks the same way.
        do {
            try harness.store.readAll(from: 1, limit: .max) { _ in true }
            Issue.record("read all lent from 1 passed")
        } catch {
            #expect(error.code == .integrity && error.position == first, "read all lent: \(error)")
        }
        // A changed stored hash breaks the next event's link too; from the event after that,
        // the second change is the first bad position.
        do {
            try scanning.scanAll(from: first + 2, limit: .max) { _ in true }
            Issue.record("the scan from \(first + 2) passed")
        } catch {
            #expect(error.code == .integrity && error.position == second, "\(error)")
        }
    }

    @Test("a stored hash shorter or longer than 32 bytes fails a checked read at its position", arguments: Backend.all)
    func aStoredHashOfAnotherLengthFailsAtItsPosition(backend: Backend) throws {
        let harness = try backend.open(StoreOptions(dictionaryTrainingEvents: 0))
        for n in 0..<8 {
            try harness.store.append([Fixture.event(n)], to: Fixture.stream(n % 2), expectedVersion: .any)
        }
        let stored = try harness.store.readAll(from: 5, limit: 1)[0]
        let scanning = try #require(harness.store as? any EventScanning)
        try harness.tamper.dropImmutabilityTriggers()
        for hash in [Array(stored.hash.dropLast()), stored.hash + [0]] {
            try harness.tamper.overwrite(at: 5, data: stored.data, hash: hash)
            for (name, read) in [
                ("readAll", { () throws(EventStoreError) in _ = try harness.store.readAll(from: 1, limit: 10) }),
                (
                    "scanAll",
                    { () throws(EventStoreError) in _ = try scanning.scanAll(from: 1, limit: .max) { _ in true } }
                ),
                (
                    "readAll lent",
                    { () throws(EventStoreError) in _ = try harness.store.readAll(from: 1, limit: .max) { _ in true } }
                )
            ] {
                do {
                    try read()
                    Issue.record("\(name) passed a hash of \(hash.count) bytes")
                } catch {
                    #expect(error.code == .integrity && error.position == 5, "\(name), \(hash.count) bytes: \(error)")
                }
            }
        }
        try harness.tamper.overwrite(at: 5, data: stored.data, hash: stored.hash)
        #expect(try harness.store.readAll(from: 1, limit: 10).count == 8)
    }

    @Test(
        "a scan that meets a damaged row after a bad link names the bad link, even in the batch being hashed",
        arguments: Backend.all)
    func aScanNamesABadLinkBeforeADamagedRow(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        let count = Self.checkBatch + 50
        var events: [ProposedEvent] = []
        for n in 0..<count { events.append(Fixture.event(n, type: "ChallengeStarted")) }
        try harness.store.append(events, to: Fixture.stream(0), expectedVersion: .any)
        let scanning = try #require(harness.store as? any EventScanning)
        try harness.tamper.dropImmutabilityTriggers()
        // A changed stored hash at 10, then a payload whose declared length is damaged: in the
        // same batch (30) and in the next one (after the first batch was handed to the other
        // thread). The scan stops at the damaged row, and names the bad link before it.
        let bad: Int64 = 10
        let hash = try #require(try harness.tamper.singleByteChanges(at: bad).first { $0.label == "hash[0]" })
        try hash.apply()
        for damaged in [Int64(30), Int64(Self.checkBatch + 20)] {
            let length = try #require(
                try harness.tamper.singleByteChanges(at: damaged).first { $0.label == "data_len" })
            try length.apply()
            do {
                try scanning.scanAll(from: 1, limit: .max) { _ in true }
                Issue.record("the scan passed with damage at \(bad) and \(damaged)")
            } catch {
                #expect(error.code == .integrity && error.position == bad, "damage at \(damaged): \(error)")
            }
            do {
                try scanning.scanAll(from: bad + 2, limit: .max) { _ in true }
                Issue.record("the scan from \(bad + 2) passed")
            } catch {
                #expect(error.code == .integrity && error.position == damaged, "from \(bad + 2): \(error)")
            }
            try length.revert()
        }
    }

    @Test(
        "every read path throws .integrity at the position of an event changed behind the store's back",
        arguments: Backend.all, [false, true])
    func everyReadPathChecksWhatItReads(backend: Backend, compressed: Bool) throws {
        let harness = try backend.open(StoreOptions(dictionaryTrainingEvents: compressed ? 4 : 0))
        for n in 0..<12 {
            let event = Fixture.event(n, type: "ChallengeStarted", meta: #"{"source":"device"}"#)
            try harness.store.append([event], to: Fixture.stream(n % 3), expectedVersion: .any)
        }
        try harness.tamper.dropImmutabilityTriggers()
        let position: Int64 = 10 // version 3 of stream 0
        let changes = try harness.tamper.singleByteChanges(at: position)
        #expect(!changes.isEmpty)
        for change in changes {
            try change.apply()
            let label = "\(change.label)"
            // A row moved to another position is missing where it was: a page reports the event
            // after the gap, a scan the missing position. A row moved to another stream is not
            // in its stream's reads; the log-wide reads name it.
            let structural = ["position", "stream_id"].contains(change.label)
            let reported = change.label == "position" ? position + 1 : position
            Self.expectIntegrity(at: reported, label) { _ = try harness.store.readAll(from: 1, limit: 100) }
            Self.expectIntegrity(at: reported, label) { _ = try harness.store.readAll(from: position, limit: 2) }
            if let scanner = harness.store as? any EventScanning {
                Self.expectIntegrity(at: position, label) {
                    _ = try scanner.scanAll(from: 1, limit: 100) { _ in true }
                }
            }
            if !structural {
                Self.expectIntegrity(at: position, label) {
                    _ = try harness.store.read(stream: Fixture.stream(0), from: 0, direction: .forward, limit: 100)
                }
                Self.expectIntegrity(at: position, label) {
                    _ = try harness.store.read(stream: Fixture.stream(0), from: .max, direction: .backward, limit: 100)
                }
            }
            try change.revert()
        }
        // Intact again: every path reads the whole log.
        #expect(try harness.store.readAll(from: 1, limit: 100).count == 12)
        #expect(try harness.store.read(stream: Fixture.stream(0), from: 0, direction: .forward, limit: 100).count == 4)
    }

    @Test("a scan or page that starts after a deleted event reports the missing position", arguments: Backend.all)
    func aDeletedPredecessorIsReported(backend: Backend) throws {
        let harness = try backend.open(StoreOptions())
        for n in 0..<6 {
            try harness.store.append(
                [Fixture.event(n, type: "ChallengeStarted")], to: Fixture.stream(0), expectedVersion: .any)
        }
        try harness.tamper.dropImmutabilityTriggers()
        try harness.tamper.deleteEvent(at: 3)
        Self.expectIntegrity(at: 4, "page after the gap") { _ = try harness.store.readAll(from: 4, limit: 10) }
        if let scanner = harness.store as? any EventScanning {
            Self.expectIntegrity(at: 3, "scan across the gap") {
                _ = try scanner.scanAll(from: 1, limit: 10) { _ in true }
            }
            Self.expectIntegrity(at: 4, "scan after the gap") {
                _ = try scanner.scanAll(from: 4, limit: 10) { _ in true }
            }
        }
    }

    static func expectIntegrity(
        at position: Int64, _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("read without an error: \(label)", sourceLocation: sourceLocation)
        } catch let error as EventStoreError {
            #expect(error.code == .integrity, "\(label): \(error)", sourceLocation: sourceLocation)
            #expect(error.position == position, "\(label): \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(label): \(error)", sourceLocation: sourceLocation)
        }
    }
}
