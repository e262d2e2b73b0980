import EventStore
import Foundation
import JournalCore
import Testing

@testable import EventStore

/// Spec §10 in the store library: `MirrorPublisher` writes the stored tree as C2SP
/// tlog-tiles, `MirrorVerifier` holds the files to their checkpoint, and the mirror grows by
/// new files only.
@Suite("Mirrors: publish the stored tiles, verify them, grow by new files only")
struct MirrorTests {
    /// The backends whose stores publish (`:memory:` included: the folder is on disk).
    static let backends = [Backend.sqliteOnDisk] + Backend.postgresIfAvailable

    @Test("the tiles are the stored tiles cut to the checkpoint's size, and the mirror verifies", arguments: backends)
    func publishedTilesAreTheStoredTiles(_ backend: Backend) throws {
        let store = try backend.open(StoreOptions()).store
        try MirrorFixture.fill(store, 0..<700)
        let signed = try MirrorFixture.sign(store) // 700 events
        try MirrorFixture.fill(store, 700..<760) // the head goes past the checkpoint
        let folder = TemporaryDirectory.make().file("mirror")
        let report = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
        #expect(report.previousSize == 0 && report.checkpointReplaced)
        let files = MirrorFixture.files(under: folder)
        #expect(
            Set(files.keys) == [
                "checkpoint", "tile/0/000", "tile/0/001", "tile/0/002.p/188", "tile/1/000.p/2",
                "tile/entries/000", "tile/entries/001", "tile/entries/002.p/188"
            ])
        #expect(report.tilesWritten == 4 && report.bundlesWritten == 3)
        #expect(files["checkpoint"] == Data(signed.noteText.utf8))
        #expect(files["tile/0/001"] == Data(try store.treeTile(level: 0, index: 1)))
        #expect(try store.treeTile(level: 0, index: 2).count == 248 * 32)
        #expect(files["tile/0/002.p/188"] == Data(try store.treeTile(level: 0, index: 2)[0..<(188 * 32)]))
        #expect(files["tile/1/000.p/2"] == Data(try store.treeTile(level: 1, index: 0)))
        let lines = try MirrorFixture.exportLines(store)
        let bundle = try #require(TlogTiles.entries(ofBundle: Array(files["tile/entries/001"] ?? Data())))
        #expect(bundle.map { Array($0) } == Array(lines[256..<512]))
        #expect(try MirrorFixture.mode(folder + "/checkpoint") == 0o644)
        #expect(try MirrorFixture.mode(folder + "/tile/0/000") == 0o644)
        #expect(try MirrorFixture.mode(folder + "/tile/entries/000") == 0o600)
        let verified = try MirrorVerifier.verify(MirrorReader(directory: folder), verifiers: [MirrorFixture.verifier])
        #expect(verified.checkpoint == signed)
        #expect(verified.tiles == 4 && verified.entries == 700)
        #expect(!(try FileSystem.names(in: folder)).contains { $0.hasPrefix(".publish-") })
    }

    @Test("a later publish writes only the new files, never rewrites one, and keeps the old checkpoint's tiles")
    func incrementalPublish() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        try MirrorFixture.fill(store, 0..<300)
        let first = try MirrorFixture.sign(store)
        let folder = TemporaryDirectory.make().file("mirror")
        _ = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
        let before = MirrorFixture.files(under: folder)
        var inodes: [String: Int] = [:]
        for path in before.keys where path != "checkpoint" {
            inodes[path] = try MirrorFixture.inode(folder + "/" + path)
        }

        try MirrorFixture.fill(store, 300..<700)
        let second = try MirrorFixture.sign(store) // 700
        let report = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
        #expect(report.previousSize == 300)
        let after = MirrorFixture.files(under: folder)
        let added = Set(after.keys).subtracting(before.keys)
        // 300 → 700: tile 0/001 fills, 0/002.p/188 and 1/000.p/2 appear, likewise the bundles.
        #expect(
            added == ["tile/0/001", "tile/0/002.p/188", "tile/1/000.p/2", "tile/entries/001", "tile/entries/002.p/188"])
        #expect(report.tilesWritten == 3 && report.bundlesWritten == 2)
        for (path, inode) in inodes {
            #expect(try MirrorFixture.inode(folder + "/" + path) == inode, "\(path) was written again")
            #expect(after[path] == before[path])
        }
        // The old checkpoint's partial tiles stay: a reader that read it still finds them.
        #expect(after["tile/0/001.p/44"] != nil && after["tile/1/000.p/1"] != nil)
        #expect(after["checkpoint"] == Data(second.noteText.utf8))
        _ = try MirrorVerifier.verify(MirrorReader(directory: folder), verifiers: [MirrorFixture.verifier])
        // The same checkpoint again: nothing is written.
        let again = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
        #expect(again.tilesWritten == 0 && again.bundlesWritten == 0 && !again.checkpointReplaced)
        #expect(first.checkpoint.size == 300)
    }

    @Test("a changed tile, entry or checkpoint fails verification naming the file")
    func tamperedMirrorsFail() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        try MirrorFixture.fill(store, 0..<600)
        try MirrorFixture.sign(store)
        let folder = TemporaryDirectory.make().file("mirror")
        _ = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
        let reader = MirrorReader(directory: folder)
        func failure(_ change: (String) throws -> Void, restoring path: String) throws -> MirrorError? {
            let original = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            try change(folder + "/" + path)
            defer { try? original.write(to: URL(fileURLWithPath: folder + "/" + path)) }
            do {
                _ = try MirrorVerifier.verify(reader, verifiers: [MirrorFixture.verifier])
                return nil
            } catch {
                return error
            }
        }
        func flipByte(at offset: Int) -> (String) throws -> Void {
            { path in
                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                bytes[offset] ^= 1
                try bytes.write(to: URL(fileURLWithPath: path))
            }
        }
        let tile = try failure(flipByte(at: 100), restoring: "tile/0/000")
        #expect(tile?.kind == .integrity)
        #expect(
            tile?.message.contains("tile/0/000 does not hash to hash 0 of tile/1/000.p/2") == true,
            "\(String(describing: tile))")
        let partial = try failure(flipByte(at: 5), restoring: "tile/0/002.p/88")
        #expect(partial?.message.contains("give the root") == true, "\(String(describing: partial))")
        let entry = try failure(flipByte(at: 40), restoring: "tile/entries/001")
        #expect(entry?.message.contains("entry 256 of") == true)
        let missing = try failure({ try FileManager.default.removeItem(atPath: $0) }, restoring: "tile/0/001")
        #expect(missing?.message.hasSuffix("tile/0/001 is missing") == true)
        let note = try failure(flipByte(at: 30), restoring: "checkpoint")
        #expect(note?.kind == .integrity)
        _ = try MirrorVerifier.verify(reader, verifiers: [MirrorFixture.verifier])
    }

    @Test("publish refuses another log's mirror, a newer one, and an event too long for a bundle, moving nothing")
    func refusals() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions(maxPayloadBytes: 1 << 20)).store
        try MirrorFixture.fill(store, 0..<10)
        try MirrorFixture.sign(store)
        let folder = TemporaryDirectory.make().file("mirror")
        _ = try MirrorPublisher(store: store, directory: folder, entries: false).publish()
        let before = MirrorFixture.files(under: folder)

        // Entry bundles asked for later, with an event over 65,535 bytes: nothing moves.
        let big = "{\"blob\":\"" + String(repeating: "x", count: 70_000) + "\"}"
        try store.append([Fixture.event(10, data: big)], to: Fixture.stream(99), expectedVersion: .noStream)
        try MirrorFixture.sign(store)
        do {
            _ = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
            Issue.record("published an event over 65,535 bytes")
        } catch {
            #expect(error.kind == .refused)
            #expect(error.message.contains("position 11 has a leaf line of"))
        }
        #expect(MirrorFixture.files(under: folder) == before)

        // A mirror of a bigger tree than the journal's latest checkpoint.
        let smaller = try Backend.sqliteOnDisk.open(StoreOptions()).store
        try MirrorFixture.fill(smaller, 0..<5)
        try MirrorFixture.sign(smaller)
        do {
            _ = try MirrorPublisher(store: smaller, directory: folder, entries: false).publish()
            Issue.record("published over a newer mirror")
        } catch {
            #expect(error.kind == .refused && error.message.contains("newer"))
        }
        // A journal that does not extend the mirror's log.
        let other = try Backend.sqliteOnDisk.open(StoreOptions()).store
        try MirrorFixture.fill(other, 100..<120)
        try MirrorFixture.sign(other)
        do {
            _ = try MirrorPublisher(store: other, directory: folder, entries: false).publish()
            Issue.record("published another journal over the mirror")
        } catch {
            #expect(error.kind == .integrity && error.message.contains("does not extend"))
        }
        #expect(MirrorFixture.files(under: folder) == before)
    }

    @Test("after every change a publish makes, the folder verifies: a run killed at any point leaves it consistent")
    func everyIntermediateStateVerifies() throws {
        let store = try Backend.sqliteOnDisk.open(StoreOptions()).store
        try MirrorFixture.fill(store, 0..<300)
        try MirrorFixture.sign(store)
        let folder = TemporaryDirectory.make().file("mirror")
        _ = try MirrorPublisher(store: store, directory: folder, entries: true).publish()
        try MirrorFixture.fill(store, 300..<1_100)
        let signed = try MirrorFixture.sign(store)
        var publisher = MirrorPublisher(store: store, directory: folder, entries: true)
        let reader = MirrorReader(directory: folder)
        var states = 0
        var failures: [String] = []
        publisher.afterEachChange = {
            states += 1
            do {
                _ = try MirrorVerifier.verify(reader, verifiers: [MirrorFixture.verifier])
            } catch {
                failures.append("after change \(states): \(error)")
            }
        }
        let report = try publisher.publish()
        #expect(failures == [])
        #expect(states == report.tilesWritten + report.bundlesWritten + 1)
        #expect(try reader.checkpoint(verifiers: [MirrorFixture.verifier]) == signed)
    }
}
