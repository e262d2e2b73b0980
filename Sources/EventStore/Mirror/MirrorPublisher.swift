import JournalCore

/// Writes the journal's latest kept checkpoint and the tree it signs into a folder, in the layout
/// of C2SP tlog-tiles (spec §10): `checkpoint`, the hash tiles `tile/<L>/<N>[.p/<W>]` and,
/// with entries, the entry bundles `tile/entries/<N>[.p/<W>]`.
///
/// ```swift
/// let report = try MirrorPublisher(store: store, directory: "mirror", entries: true).publish()
/// ```
///
/// - **Read, not recomputed**: hash tiles are the store's tiles (`treeTile`), whose levels,
///   heights and indexes are tlog-tiles' own; a tile of the checkpoint's tree is the stored
///   tile, cut to the width the checkpoint's size gives it. Entries are the events' leaf lines,
///   each checked against its leaf hash in the stored level-0 tile.
/// - **Incremental**: a run after another writes only the tiles and bundles the previous
///   checkpoint's tree did not have (a file already there is never written again: a full tile
///   never changes, and a partial one is named by its width).
/// - **Safe for readers at every moment**: every new file is written in a staging folder
///   (`.publish-XXXXXX`, which no reader asks for), then renamed into place; the file system is
///   synced; then `checkpoint` is replaced, atomically (written beside, synced, renamed, the
///   folder synced). A reader that read a checkpoint finds every tile it needs, before, during
///   and after a run, even one killed halfway: files are only added, never removed or changed,
///   except `checkpoint`. A killed run's staging folder is removed by the next run.
/// - **All or nothing before the checkpoint**: an event too long for a bundle (over 65,535
///   bytes) is found before anything is moved into place.
///
/// One publisher at a time per folder.
package struct MirrorPublisher {
    package let store: any EventStore
    package let directory: String
    package let entries: Bool
    /// Called after each change a reader can see (a file renamed into place, the checkpoint
    /// replaced): the state a run killed right there leaves. For tests.
    package var afterEachChange: () -> Void = {}

    /// What a run wrote.
    package struct Report: Sendable, Equatable {
        package var checkpoint: SignedCheckpoint
        /// The size of the checkpoint the folder held before (0 when none).
        package var previousSize: Int64
        package var tilesWritten = 0
        package var bundlesWritten = 0
        /// False when the folder already held this checkpoint.
        package var checkpointReplaced = false
    }

    /// Hash tiles and checkpoint: published (they reveal no event). Entry bundles: the owner's.
    static let publicMode: UInt32 = 0o644
    static let entriesMode: UInt32 = 0o600
    static let stagingPrefix = ".publish-"

    package init(store: any EventStore, directory: String, entries: Bool) {
        self.store = store
        self.directory = directory
        self.entries = entries
    }

    /// - Throws: `.refused` (no checkpoint kept; the folder holds another log's checkpoint or a
    ///   newer one; it holds entry bundles and `entries` is false; an event too long for a
    ///   bundle), `.integrity` (the journal's tree does not have the checkpoint's root, or not
    ///   the root of the folder's checkpoint), `.io`. Nothing is moved into place on any of them.
    package func publish() throws(MirrorError) -> Report {
        let signed = try latestCheckpoint()
        let size = signed.checkpoint.size
        try makeDirectory(directory)
        removeStaleStaging()
        let reader = MirrorReader(directory: directory)
        let previous = try previousCheckpoint(reader, for: signed)
        let previousSize = previous?.checkpoint.size ?? 0
        var report = Report(checkpoint: signed, previousSize: previousSize)
        let hasEntries = reader.hasEntries
        if hasEntries && !entries {
            throw MirrorError(
                .refused,
                "\(directory) holds entry bundles: publish with --entries, so that they cover every entry")
        }
        let staging: String
        do {
            staging = try FileSystem.makeTemporaryDirectory(prefix: directory + "/" + Self.stagingPrefix)
        } catch {
            throw MirrorError(.io, "cannot write the mirror: \(error)")
        }
        defer { FileSystem.removeFlatDirectory(staging) }
        var staged = Staged(staging: staging)
        report.tilesWritten = try stageTiles(size: size, after: previousSize, into: &staged)
        if entries {
            let from = previous != nil && hasEntries ? previousSize : 0
            report.bundlesWritten = try stageBundles(size: size, after: from, into: &staged)
        }
        try staged.moveIntoPlace(directory: directory, afterEach: afterEachChange)
        if previous?.noteText != signed.noteText {
            try replaceCheckpoint(signed, staging: staging)
            report.checkpointReplaced = true
        }
        return report
    }

    /// The latest kept checkpoint, after checking that the journal's tree has its root.
    private func latestCheckpoint() throws(MirrorError) -> SignedCheckpoint {
        do {
            guard let latest = try store.latestCheckpoint() else {
                throw MirrorError(.refused, "the journal has kept no checkpoint to publish")
            }
            let signed: SignedCheckpoint
            do {
                signed = try SignedCheckpoint(parsing: latest.note)
            } catch {
                throw MirrorError(.integrity, "the journal's latest checkpoint is not a signed checkpoint: \(error)")
            }
            guard signed.checkpoint.size == latest.size, signed.checkpoint.root == latest.root,
                try store.treeRoot(size: latest.size) == latest.root
            else {
                throw MirrorError(
                    .integrity,
                    "the journal's tree at size \(latest.size) does not have the root of its latest checkpoint")
            }
            return signed
        } catch let error as MirrorError {
            throw error
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The folder's checkpoint, if any, after checking that `signed` extends it: the same log,
    /// no larger, and the journal's tree at its size has its root.
    private func previousCheckpoint(_ reader: MirrorReader, for signed: SignedCheckpoint) throws(MirrorError)
        -> SignedCheckpoint?
    {
        let previous: SignedCheckpoint?
        do {
            previous = try reader.checkpointIfAny()
        } catch  where error.kind == .integrity {
            throw MirrorError(.refused, "\(error.message): \(directory) is not a mirror journal publish wrote")
        }
        guard let previous else { return nil }
        guard previous.checkpoint.origin == signed.checkpoint.origin else {
            throw MirrorError(
                .refused,
                "\(directory) is the mirror of \(previous.checkpoint.origin), not of \(signed.checkpoint.origin)")
        }
        guard previous.checkpoint.size <= signed.checkpoint.size else {
            throw MirrorError(
                .refused,
                "\(directory) holds a checkpoint of \(previous.checkpoint.size) entries, newer than the journal's "
                    + "latest (\(signed.checkpoint.size)): a mirror never goes back")
        }
        let root: [UInt8]
        do {
            root = try store.treeRoot(size: previous.checkpoint.size)
        } catch {
            throw Self.storeError(error)
        }
        guard root == previous.checkpoint.root else {
            throw MirrorError(
                .integrity,
                "the journal's tree at size \(previous.checkpoint.size) does not have the root of "
                    + "\(directory)/checkpoint: the journal does not extend the log the mirror holds")
        }
        return previous
    }

    /// Stages the hash tiles of the tree of `size` entries that the tree of `previousSize` did
    /// not have and the folder does not hold yet. Returns how many.
    private func stageTiles(size: Int64, after previousSize: Int64, into staged: inout Staged) throws(MirrorError)
        -> Int
    {
        let before = TlogTiles.levels(size: previousSize)
        var count = 0
        for level in TlogTiles.levels(size: size) {
            let first = level.level < before.count ? before[level.level].fullTiles : 0
            for index in first..<level.tileCount {
                guard let width = level.width(ofTile: index) else { continue }
                let path = TlogTiles.path(level: level.level, index: index, width: width)
                guard !FileSystem.exists(directory + "/" + path) else { continue }
                let stored: [UInt8]
                do {
                    stored = try store.treeTile(level: level.level, index: index)
                } catch {
                    throw Self.storeError(error)
                }
                guard stored.count >= width * Merkle.hashSize else {
                    throw MirrorError(
                        .integrity,
                        "the journal's tree tile (\(level.level), \(index)) holds \(stored.count / 32) hashes, "
                            + "not the \(width) of the checkpoint's tree")
                }
                try staged.add(Array(stored[0..<(width * Merkle.hashSize)]), at: path, mode: Self.publicMode)
                count += 1
            }
        }
        return count
    }

    /// Stages the entry bundles of the tree of `size` entries from entry `from` on that the
    /// folder does not hold yet, each entry checked against the stored level-0 tile. Returns how
    /// many.
    private func stageBundles(size: Int64, after from: Int64, into staged: inout Staged) throws(MirrorError) -> Int {
        let bundles = TlogTiles.bundles(size: size)
        var count = 0
        var index = from >> 8
        while let width = bundles.width(ofTile: index) {
            defer { index += 1 }
            let path = TlogTiles.entriesPath(index: index, width: width)
            guard !FileSystem.exists(directory + "/" + path) else { continue }
            try staged.add(try bundle(index: index, width: width), at: path, mode: Self.entriesMode)
            count += 1
        }
        return count
    }

    /// Bundle `index` of `width` entries: the leaf lines of the events at positions
    /// index·256 + 1 …, each hashing to its leaf hash in the stored tile (0, index).
    private func bundle(index: Int64, width: Int) throws(MirrorError) -> [UInt8] {
        let events: [RecordedEvent]
        let tile: [UInt8]
        do {
            events = try store.readAll(from: index * 256 + 1, limit: width)
            tile = try store.treeTile(level: 0, index: index)
        } catch {
            throw Self.storeError(error)
        }
        guard events.count == width, tile.count >= width * Merkle.hashSize else {
            throw MirrorError(
                .integrity, "the journal does not hold the \(width) events of entry bundle \(index)")
        }
        var bytes: [UInt8] = []
        var line: [UInt8] = []
        for (offset, event) in events.enumerated() {
            line.removeAll(keepingCapacity: true)
            event.exportLine(into: &line)
            let start = offset * Merkle.hashSize
            guard event.position == index * 256 + Int64(offset) + 1,
                Merkle.leafHash(line)[...] == tile[start..<(start + Merkle.hashSize)]
            else {
                throw MirrorError(
                    .integrity,
                    "the event at position \(index * 256 + Int64(offset) + 1) does not hash to its leaf hash "
                        + "in the journal's tree")
            }
            do {
                try TlogTiles.appendEntry(line, to: &bytes, offset: offset)
            } catch {
                throw MirrorError(
                    .refused,
                    "the event at position \(event.position) has a leaf line of \(error.length) bytes: an entry "
                        + "bundle holds at most \(TlogTiles.maxEntryBytes); nothing was published")
            }
        }
        return bytes
    }

    /// Writes the new checkpoint beside, syncs it, renames it over `checkpoint`, syncs the folder.
    private func replaceCheckpoint(_ signed: SignedCheckpoint, staging: String) throws(MirrorError) {
        let temporary = staging + "/checkpoint"
        do {
            try FileSystem.writeNewFile(
                temporary, Array(signed.noteText.utf8), permissions: Self.publicMode, sync: true)
            try FileSystem.renameReplacing(temporary, to: directory + "/checkpoint")
            try FileSystem.sync(directory, directory: true)
        } catch {
            throw MirrorError(.io, "cannot write \(directory)/checkpoint: \(error)")
        }
        afterEachChange()
    }

    private func makeDirectory(_ path: String) throws(MirrorError) {
        do {
            try FileSystem.makeDirectories(path)
        } catch {
            throw MirrorError(.io, "cannot create the mirror folder: \(error)")
        }
    }

    /// Removes what a killed run left (its staging folder): no reader asks for it.
    private func removeStaleStaging() {
        for name in (try? FileSystem.names(in: directory)) ?? [] where name.hasPrefix(Self.stagingPrefix) {
            FileSystem.removeFlatDirectory(directory + "/" + name)
        }
    }

    static func storeError(_ error: any Error) -> MirrorError {
        guard let error = error as? EventStoreError else { return MirrorError(.io, "\(error)") }
        return MirrorError(error.code == .integrity ? .integrity : .io, error.message)
    }

    /// The files of a run, written in the staging folder under numbers, each with its place.
    private struct Staged {
        let staging: String
        var files: [(staged: String, path: String)] = []

        init(staging: String) { self.staging = staging }

        mutating func add(_ bytes: [UInt8], at path: String, mode: UInt32) throws(MirrorError) {
            let staged = staging + "/\(files.count)"
            do {
                try FileSystem.writeNewFile(staged, bytes, permissions: mode, sync: false)
            } catch {
                throw MirrorError(.io, "cannot write the mirror: \(error)")
            }
            files.append((staged, path))
        }

        /// Renames every staged file to its place (creating folders as needed), then syncs the
        /// file system, so that they are on the disk before the checkpoint that needs them.
        func moveIntoPlace(directory: String, afterEach: () -> Void) throws(MirrorError) {
            var folders: Set<String> = []
            do {
                for (staged, path) in files {
                    let final = directory + "/" + path
                    let folder = FileSystem.directory(of: final)
                    if folders.insert(folder).inserted { try FileSystem.makeDirectories(folder) }
                    try FileSystem.renameReplacing(staged, to: final)
                    afterEach()
                }
                try FileSystem.syncFileSystem(of: directory)
            } catch {
                throw MirrorError(.io, "cannot write the mirror: \(error)")
            }
        }
    }
}
