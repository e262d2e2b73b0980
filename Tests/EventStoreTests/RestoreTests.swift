import EventStore
import Foundation
import JournalCore
import Synchronization
import Testing

@testable import EventStore

/// Spec §10's restore in the store library: the signed log back from its export or a
/// mirror's entries, every line checked, nothing kept when one fails.
@Suite("Restore: the signed log back, byte for byte, or nothing")
struct RestoreTests {
    /// A source journal of `count` events with a checkpoint, and its export as a file.
    struct Source {
        let store: any TransactionalEventStore
        let lines: [[UInt8]]
        let checkpoint: SignedCheckpoint
        let exportFile: String

        init(count: Int = 600) throws {
            // A clock that moves: recordedAt differs from occurredAt and from the restoring clock.
            let ticks = Synchronization.Mutex<Int64>(0)
            let clock: @Sendable () -> Timestamp = {
                FixedClock.instant.adding(
                    milliseconds: ticks.withLock {
                        $0 += 7
                        return $0
                    })
            }
            store = try Backend.sqliteOnDisk.open(StoreOptions(clock: clock)).store
            try MirrorFixture.fill(store, 0..<count)
            checkpoint = try MirrorFixture.sign(store)
            lines = try MirrorFixture.exportLines(store)
            exportFile = TemporaryDirectory.make().file("export.ndjson")
            try Data(Self.text(lines).utf8).write(to: URL(fileURLWithPath: exportFile))
        }

        static func text(_ lines: [[UInt8]]) -> String {
            lines.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
        }
    }

    /// A new SQLite journal at a fresh path (batches of 100 events: several per restore).
    static func sqliteTarget(_ path: String) throws -> ImportTarget {
        try SQLiteEventStore.openForRestore(
            path: path, configuration: StoreOptions(clock: { Timestamp(millisecondsSinceEpoch: 0) }).sqlite,
            batchEvents: 100)
    }

    static func restore(_ file: String, into target: ImportTarget, checkpoint: Checkpoint? = nil) throws
        -> JournalRestore.Report
    {
        var input = try ExportFileInput(path: file)
        defer { input.close() }
        return try JournalRestore.run(&input, checkpoint: checkpoint, into: target)
    }

    @Test("a restored SQLite journal exports the same bytes and has the same tree and chain head")
    func sqliteRestoreIsByteForByte() throws {
        let source = try Source()
        let path = TemporaryDirectory.make().file("restored.db")
        let report = try Self.restore(
            source.exportFile, into: try Self.sqliteTarget(path), checkpoint: source.checkpoint.checkpoint)
        #expect(report.events == 600 && report.streams == 200)
        let restored = try SQLiteEventStore(path: path)
        #expect(try MirrorFixture.exportLines(restored) == source.lines)
        #expect(try restored.treeHead() == (try source.store.treeHead()))
        #expect(try restored.verify() == (try source.store.verify()))
        #expect(report.root == source.checkpoint.checkpoint.root)
    }

    @Test("a restored PostgreSQL journal exports the same bytes", .enabled(if: !PostgresTestServer.skipped))
    func postgresRestoreIsByteForByte() throws {
        let source = try Source(count: 300)
        let url = try PostgresTestServer.freshURL()
        let target = try PostgresEventStore.openForRestore(url: url, configuration: StoreOptions().postgres)
        _ = try Self.restore(source.exportFile, into: target, checkpoint: source.checkpoint.checkpoint)
        let restored = try PostgresEventStore(url: url, configuration: StoreOptions().postgres)
        #expect(try MirrorFixture.exportLines(restored) == source.lines)
        #expect(try restored.treeHead() == (try source.store.treeHead()))
        // A journal that holds events is not restored into.
        #expect(throws: EventStoreError.self) {
            try PostgresEventStore.openForRestore(url: url, configuration: StoreOptions().postgres)
        }
    }

    @Test("a gap, a changed hash, a changed byte, a wrong version or a line out of form stops the restore at that line")
    func badLinesStopTheRestore() throws {
        let source = try Source(count: 300)
        let folder = TemporaryDirectory.make()
        func failure(_ lines: [[UInt8]], checkpoint: Checkpoint? = nil) throws -> RestoreError? {
            let file = folder.file("bad-\(UUID().uuidString).ndjson")
            try Data(Source.text(lines).utf8).write(to: URL(fileURLWithPath: file))
            let path = folder.file("restored-\(UUID().uuidString).db")
            do {
                _ = try Self.restore(file, into: try Self.sqliteTarget(path), checkpoint: checkpoint)
                Issue.record("restored a bad export")
                return nil
            } catch let error as RestoreError {
                // Nothing kept: no journal, no loading file.
                #expect(!FileManager.default.fileExists(atPath: path))
                #expect(
                    !(try FileManager.default.contentsOfDirectory(atPath: folder.path)).contains {
                        $0.contains(".loading-")
                    })
                return error
            }
        }
        func replacing(_ line: Int, _ from: String, _ to: String) -> [[UInt8]] {
            var lines = source.lines
            lines[line - 1] = Array(
                String(decoding: lines[line - 1], as: UTF8.self)
                    .replacingOccurrences(of: from, with: to).utf8)
            return lines
        }
        var gap = source.lines
        gap.remove(at: 149)
        let gapError = try failure(gap)
        #expect(gapError?.kind == .integrity)
        #expect(gapError?.message.hasPrefix("line 150: position 151 where 150 comes next") == true)

        let hash = String(decoding: source.lines[199], as: UTF8.self).suffix(66).prefix(64)
        let hashError = try failure(replacing(200, String(hash), String(repeating: "0", count: 64)))
        #expect(hashError?.message.hasPrefix("line 200: the hash of position 200 is not the chain's") == true)

        let edited = try failure(replacing(120, "\"channel\":\"app\"", "\"channel\":\"web\""))
        #expect(edited?.message.hasPrefix("line 120: the hash of position 120") == true)

        let spaced = try failure(replacing(3, "\"position\":3,", "\"position\":03,"))
        #expect(
            spaced?.message.hasPrefix("line 3: not an export line: not written as") == true,
            "\(String(describing: spaced))")
        let keys = try failure(replacing(5, ",\"version\":", ", \"version\":"))
        #expect(keys?.message.hasPrefix("line 5: not an export line: expected ,\"version\": at byte") == true)

        let garbage = try failure(Array(source.lines[0..<10]) + [Array("{\"id\":1}".utf8)])
        #expect(garbage?.message.hasPrefix("line 11: not an export line") == true)

        // Positions kept, but a stream's version skipped.
        let version = try failure(replacing(4, "\"version\":0", "\"version\":1"))
        #expect(version?.message.contains("line 4: \(Fixture.stream(1)) version 1 where 0 comes next") == true)

        // A checkpoint the export does not reach, or whose root it does not have.
        let beyond = Checkpoint(origin: "x", size: 301, root: source.checkpoint.checkpoint.root)
        #expect(try failure(source.lines, checkpoint: beyond)?.message.contains("ends after 300 events") == true)
        let otherRoot = Checkpoint(origin: "x", size: 100, root: [UInt8](repeating: 1, count: 32))
        #expect(
            try failure(source.lines, checkpoint: otherRoot)?.message.hasPrefix(
                "line 100: the tree of the first 100 events has the root") == true)
    }

    @Test("a restore refuses a path where something is, and writes nothing there")
    func existingPathIsRefused() throws {
        let source = try Source(count: 10)
        let path = TemporaryDirectory.make().file("exists.db")
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: EventStoreError.self) { try Self.sqliteTarget(path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("not a journal".utf8))
        _ = source
    }

    @Test("a restore from a mirror's entries checks them against the tiles and the signed root")
    func restoreFromMirror() throws {
        let source = try Source(count: 520)
        let folder = TemporaryDirectory.make().file("mirror")
        _ = try MirrorPublisher(store: source.store, directory: folder, entries: true).publish()
        let reader = MirrorReader(directory: folder)
        let signed = try reader.checkpoint(verifiers: [MirrorFixture.verifier])
        let path = TemporaryDirectory.make().file("from-mirror.db")
        var input = MirrorInput(MirrorEntries(reader: reader, size: signed.checkpoint.size))
        _ = try JournalRestore.run(&input, checkpoint: signed.checkpoint, into: try Self.sqliteTarget(path))
        #expect(try MirrorFixture.exportLines(try SQLiteEventStore(path: path)) == source.lines)

        // An entry changed in its bundle (and nowhere else) is caught against the level-0 tile.
        let bundle = folder + "/tile/entries/001"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: bundle))
        bytes[10] ^= 1
        try bytes.write(to: URL(fileURLWithPath: bundle))
        var tampered = MirrorInput(MirrorEntries(reader: reader, size: signed.checkpoint.size))
        let other = TemporaryDirectory.make().file("tampered.db")
        #expect(throws: RestoreError.self) {
            try JournalRestore.run(&tampered, checkpoint: signed.checkpoint, into: try Self.sqliteTarget(other))
        }
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
