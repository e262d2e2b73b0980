import EventStore
import Foundation
import JournalCore
import Testing

/// Changes made behind the journal's back, with the immutability triggers dropped first (as an
/// attacker with the file would): `journal verify` exits 4 and names the first bad position,
/// on stderr and as `firstBadPosition` in its JSON.
@Suite("Tampering: journal verify names the first bad position")
struct TamperingTests {
    /// Each kind of change and the position verify must name, given the journal's `count` events
    /// (the journeys of `LegalEvents.events(atLeast: 30, firstStream: 1)`: positions 1–4 are the
    /// frictionless stream 3ds #1, 5–12 the yellow card stream #2, 13–16 card #3, 17–25 3ds #4).
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case changeData, changeOccurredAt, changeRecordedAt, changeType, changeVersion, moveToAnotherStream
        case deleteFirst, deleteMiddle, deleteLast
        case insertCopyInTheMiddle, insertRehashedInTheMiddle, appendRehashedPastTheHead
        case swapTwoEvents, swapNeighboursOfOneStream
        case changeAHash, rehashOneChangedEvent, changeTheHeadHash, moveTheHeadBack, moveTheHeadForward
        case renameAStream, renameAType

        var testDescription: String { rawValue }

        func firstBadPosition(count: Int) -> Int {
            switch self {
            case .changeData, .changeOccurredAt, .changeRecordedAt, .changeType, .changeVersion, .moveToAnotherStream:
                return 10
            case .deleteFirst: return 1
            case .deleteMiddle, .insertCopyInTheMiddle: return 10
            case .deleteLast, .changeTheHeadHash: return count
            case .insertRehashedInTheMiddle: return 11 // the forged event chains; the next one no longer does
            case .appendRehashedPastTheHead, .moveTheHeadForward: return count + 1
            case .swapTwoEvents: return 3
            case .swapNeighboursOfOneStream: return 6
            case .changeAHash: return 15
            case .rehashOneChangedEvent: return 16
            case .moveTheHeadBack: return count - 2
            case .renameAStream: return 5 // card #2's first event
            case .renameAType: return 1 // TransactionCreated
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func verifyExits4NamingTheFirstBadPosition(_ kind: Kind) throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let lines = legal.events(atLeast: 30, firstStream: 1).lines
        #expect(try runner.run(["import", try runner.ndjson("in.ndjson", lines)], timeout: 120).ending == .exited(0))
        let intact = try runner.verification()
        #expect(intact.status == 0 && intact.events == lines.count)

        try Self.tamper(runner.database, kind, count: lines.count)
        let expected = kind.firstBadPosition(count: lines.count)
        let text = try runner.run(["verify"], timeout: 120)
        #expect(text.ending == .exited(4), "\(text.stderr)")
        let first = text.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("error: ") && first.contains("position \(expected)"), "\(first)")
        let json = try runner.verification()
        #expect(json.status == 4 && json.firstBadPosition == expected, "\(json.stdout)")
    }

    /// A rewritten chain under the Merkle tree kept from before: every link checks, but the
    /// tree is no longer the tree of the events, and verify names the first position of the tile
    /// that differs.
    @Test func aRewrittenChainUnderTheOldTreeFailsAtTheTileThatCoversTheChange() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let lines = legal.events(atLeast: 30, firstStream: 1).lines
        #expect(try runner.run(["import", try runner.ndjson("in.ndjson", lines)], timeout: 120).ending == .exited(0))
        try Self.rewriteChain(runner.database, changing: 10)
        let after = try runner.run(["verify", "--format", "json"], timeout: 120)
        #expect(after.ending == .exited(4), "\(after.stdout)")
        #expect(
            after.stdout.contains(#""firstBadPosition":1"#) && after.stdout.contains("Merkle tree"), "\(after.stdout)")
    }

    /// The limit of any log kept by its writer: whoever rewrites every link after a change, the
    /// head, and the tree (here: drops it and lets the upgrade of a writing command rebuild it)
    /// leaves a journal that checks. What gives it away is the head hash or the tree root
    /// recorded before (verify prints the one, a signed checkpoint holds the other), so record
    /// them somewhere the attacker cannot write.
    @Test func aRewrittenChainAndTreeCheckButTheHeadHashDiffersFromTheOneRecordedBefore() throws {
        let runner = try JournalRunner()
        var legal = LegalEvents()
        let lines = legal.events(atLeast: 30, firstStream: 1).lines
        #expect(try runner.run(["import", try runner.ndjson("in.ndjson", lines)], timeout: 120).ending == .exited(0))
        let before = try runner.run(["verify", "--format", "json"], timeout: 120).stdout
        try Self.rewriteChain(runner.database, changing: 10)
        do {
            let db = try Self.open(runner.database)
            defer { db.close() }
            try db.execute("DROP TABLE journal_tree; DROP TABLE journal_checkpoints; PRAGMA user_version = 2")
        }
        #expect(try runner.run(["import", "/dev/null"], timeout: 120).ending == .exited(0))
        let after = try runner.run(["verify", "--format", "json"], timeout: 120)
        #expect(after.ending == .exited(0), "\(after.stdout)")
        #expect(Self.headHash(after.stdout) != nil && Self.headHash(after.stdout) != Self.headHash(before))
    }

    static func headHash(_ json: String) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?["headHash"] as? String
    }

    // MARK: - Tampering through raw SQL

    /// The stored events, as the store reads them.
    static func events(_ path: String) throws -> [RecordedEvent] {
        let store = try SQLiteEventStore(path: path, configuration: .init(createIfMissing: false, readOnly: true))
        return try store.readAll(from: 1, limit: 10_000)
    }

    static func open(_ path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, options: .init(create: false))
        for trigger in SQLiteEventStore.immutabilityTriggers { try db.execute("DROP TRIGGER IF EXISTS \(trigger)") }
        return db
    }

    static func tamper(_ path: String, _ kind: Kind, count: Int) throws {
        let events = try events(path)
        let db = try open(path)
        defer { db.close() }
        func run(_ sql: String) throws { try db.execute(sql) }
        switch kind {
        case .changeData:
            try run(
                "UPDATE journal_events SET payload = CAST(replace(CAST(payload AS TEXT), 'e', "
                    + "'E') AS BLOB) WHERE position = 10"
            )
        case .changeOccurredAt:
            try run("UPDATE journal_events SET occurred_at = occurred_at - 1000 WHERE position = 10")
        case .changeRecordedAt:
            try run("UPDATE journal_events SET recorded_at = recorded_at + 1 WHERE position = 10")
        case .changeType:
            try run(
                "UPDATE journal_events SET type_id = (SELECT type_id FROM journal_events WHERE "
                    + "position = 1) WHERE position = 10"
            )
        case .changeVersion:
            try run("UPDATE journal_events SET version = version + 1000 WHERE position = 10")
        case .moveToAnotherStream:
            try run(
                "UPDATE journal_events SET stream_id = (SELECT stream_id FROM journal_events WHERE position = 1), "
                    + "version = 4 WHERE position = 10"
            )
        case .deleteFirst:
            try run("DELETE FROM journal_events WHERE position = 1")
        case .deleteMiddle:
            try run("DELETE FROM journal_events WHERE position = 10")
        case .deleteLast:
            try run("DELETE FROM journal_events WHERE position = \(count)")
        case .insertCopyInTheMiddle, .insertRehashedInTheMiddle:
            try run("UPDATE journal_events SET position = position + 1000000 WHERE position >= 10")
            try run("UPDATE journal_events SET position = position - 999999 WHERE position >= 1000000")
            try run("INSERT INTO journal_streams(name) VALUES ('3ds-0f0f0f0f-0000-4000-8000-00000000beef')")
            let original = events[9 - 1]
            var forged = original
            forged.position = 10
            forged.version = 0
            forged.id = "0f0f0f0f-0000-4000-8000-00000000beef"
            forged.stream = try StreamName("3ds-0f0f0f0f-0000-4000-8000-00000000beef")
            if kind == .insertRehashedInTheMiddle {
                forged.hash = try EventHashing.linkHash(previous: original.hash, event: forged)
            }
            try insert(
                forged, into: db, streamIDSQL: "(SELECT id FROM journal_streams WHERE name = '\(forged.stream)')",
                typeIDSQL: "(SELECT type_id FROM journal_events WHERE position = 9)")
        case .appendRehashedPastTheHead:
            let last = events[count - 1]
            var forged = last
            forged.position = Int64(count + 1)
            forged.version = last.version + 1
            forged.id = "0f0f0f0f-0000-4000-8000-00000000cafe"
            forged.occurredAt = last.occurredAt.adding(milliseconds: 1000)
            forged.hash = try EventHashing.linkHash(previous: last.hash, event: forged)
            try insert(
                forged, into: db, streamIDSQL: "(SELECT stream_id FROM journal_events WHERE position = \(count))",
                typeIDSQL: "(SELECT type_id FROM journal_events WHERE position = \(count))")
        case .swapTwoEvents:
            try swap(3, 14, db)
        case .swapNeighboursOfOneStream:
            try swap(6, 7, db)
        case .changeAHash:
            try run("UPDATE journal_events SET hash = zeroblob(32) WHERE position = 15")
        case .rehashOneChangedEvent:
            var changed = events[15 - 1]
            changed.occurredAt = changed.occurredAt.adding(milliseconds: -1)
            let hash = try EventHashing.linkHash(previous: events[14 - 1].hash, event: changed)
            let statement = try db.prepare("UPDATE journal_events SET occurred_at = ?, hash = ? WHERE position = 15")
            statement.bind(changed.occurredAt.millisecondsSinceEpoch, at: 1)
            statement.bind(blob: hash, at: 2)
            try statement.run()
        case .changeTheHeadHash:
            try run("UPDATE journal_head SET hash = zeroblob(32)")
        case .moveTheHeadBack:
            let statement = try db.prepare("UPDATE journal_head SET position = ?, hash = ?")
            statement.bind(Int64(count - 3), at: 1)
            statement.bind(blob: events[count - 3 - 1].hash, at: 2)
            try statement.run()
        case .moveTheHeadForward:
            try run("UPDATE journal_head SET position = position + 2")
        case .renameAStream:
            try run(
                "UPDATE journal_streams SET name = '\(LegalEvents.cardStream(99))' WHERE name = "
                    + "'\(LegalEvents.cardStream(2))'"
            )
        case .renameAType:
            try run("UPDATE journal_types SET name = 'TransactionCreatet' WHERE name = 'TransactionCreated'")
        }
    }

    /// Exchanges the stored rows of two positions.
    static func swap(_ a: Int, _ b: Int, _ db: SQLiteConnection) throws {
        try db.execute(
            """
            UPDATE journal_events SET position = -1 WHERE position = \(a);
            UPDATE journal_events SET position = \(a) WHERE position = \(b);
            UPDATE journal_events SET position = \(b) WHERE position = -1;
            """)
    }

    /// Stores `event` raw (codec 0), with its id as text.
    static func insert(_ event: RecordedEvent, into db: SQLiteConnection, streamIDSQL: String, typeIDSQL: String) throws
    {
        let statement = try db.prepare(
            """
            INSERT INTO journal_events(position, stream_id, version, event_id, type_id, occurred_at, recorded_at,
                                       codec, data_len, meta_len, payload, hash)
            VALUES (?, \(streamIDSQL), ?, ?, \(typeIDSQL), ?, ?, 0, ?, ?, ?, ?)
            """)
        statement.bind(event.position, at: 1)
        statement.bind(event.version, at: 2)
        statement.bind(event.id, at: 3)
        statement.bind(event.occurredAt.millisecondsSinceEpoch, at: 4)
        statement.bind(event.recordedAt.millisecondsSinceEpoch, at: 5)
        statement.bind(Int64(event.data.count), at: 6)
        statement.bind(event.meta.map { Int64($0.count) }, at: 7)
        statement.bind(blob: event.data + (event.meta ?? []), at: 8)
        statement.bind(blob: event.hash, at: 9)
        try statement.run()
    }

    /// Changes the event at `position` and rewrites every hash from there on, and the head.
    static func rewriteChain(_ path: String, changing position: Int) throws {
        var events = try events(path)
        let db = try open(path)
        defer { db.close() }
        events[position - 1].occurredAt = events[position - 1].occurredAt.adding(milliseconds: -1)
        var previous = events[position - 2].hash
        for index in (position - 1)..<events.count {
            events[index].hash = try EventHashing.linkHash(previous: previous, event: events[index])
            previous = events[index].hash
            let statement = try db.prepare("UPDATE journal_events SET occurred_at = ?, hash = ? WHERE position = ?")
            statement.bind(events[index].occurredAt.millisecondsSinceEpoch, at: 1)
            statement.bind(blob: events[index].hash, at: 2)
            statement.bind(events[index].position, at: 3)
            try statement.run()
        }
        let head = try db.prepare("UPDATE journal_head SET hash = ?")
        head.bind(blob: previous, at: 1)
        try head.run()
    }
}
