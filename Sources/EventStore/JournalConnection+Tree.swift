#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JournalCore

// The journal's Merkle tree on SQLite (`TreeTiles`): each write transaction gathers its events'
// leaf hashes in `WriteState.leafHashes` and appends them to `journal_tree` before it moves the
// head, in the same transaction.
extension JournalConnection {
    /// Leaf hashes a long transaction (a 10-million-line import) keeps before it appends them to
    /// the tiles between two of its appends: bounds its memory, at the cost of rewriting the
    /// partial tiles once per this many events.
    static let treeFlushLeaves = 16_384

    /// The stored hashes of tile (level, index) as this connection sees it (the open
    /// transaction's included); empty when there is no such tile yet.
    func treeTile(level: Int, index: Int64) throws(EventStoreError) -> [UInt8] {
        try run("reading the journal's tree tile (\(level), \(index))") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT hashes FROM journal_tree WHERE level = ? AND idx = ?")
            statement.bind(Int64(level), at: 1)
            statement.bind(index, at: 2)
            defer { statement.reset() }
            return try statement.step() ? statement.blob(at: 0) : []
        }
    }

    /// Appends the open transaction's gathered leaf hashes to the tiles.
    func flushTree() throws(EventStoreError) {
        guard let state = write, !state.leafHashes.isEmpty else { return }
        try appendToTree(state.leafHashes, size: state.treeSize)
        write?.treeSize += Int64(state.leafHashes.count / 32)
        write?.leafHashes.removeAll(keepingCapacity: true)
    }

    /// `flushTree()` once a long transaction has gathered `treeFlushLeaves` (outside savepoints,
    /// which only ever take back leaves still gathered).
    func flushTreeIfDue() throws(EventStoreError) {
        guard let state = write, state.savepoints == 0, state.leafHashes.count >= 32 * Self.treeFlushLeaves else { return }
        try flushTree()
    }

    /// Appends leaf hashes to the stored tree of `size` leaves (inside a write transaction).
    func appendToTree(_ leaves: [UInt8], size: Int64) throws(EventStoreError) {
        let tiles = try TreeTiles.append(leaves, to: size, hasher: hasher) { level, index throws(EventStoreError) in
            try treeTile(level: level, index: index)
        }
        try run("appending to the journal's tree") { () throws(SQLiteError) in
            let statement = try sql.cached("""
                INSERT INTO journal_tree(level, idx, hashes) VALUES (?, ?, ?)
                ON CONFLICT(level, idx) DO UPDATE SET hashes = excluded.hashes
                """)
            for tile in tiles {
                statement.bind(Int64(tile.level), at: 1)
                statement.bind(tile.index, at: 2)
                statement.bind(blob: tile.hashes, at: 3)
                try statement.run()
            }
        }
    }

    /// Version 2 → 3: creates the tree and checkpoint tables and fills the tree from the whole
    /// log, in one write transaction (re-checked under the lock: another process may have just
    /// done it). Prints its progress on stderr when stderr is a terminal.
    func upgradeToTree() throws(EventStoreError) {
        try run("upgrading \(path) to journal schema version 3") { () throws(SQLiteError) in try sql.begin(.immediate) }
        do throws(EventStoreError) {
            let version = try run("reading the schema version") { () throws(SQLiteError) in
                try sql.scalarInt("PRAGMA user_version")
            }
            if version == 2 {
                try run("creating the journal's tree") { () throws(SQLiteError) in
                    try sql.execute(SQLiteEventStore.treeSchema)
                }
                let head = try self.head().position
                let progress = UpgradeProgress(total: head, what: "building the Merkle tree of \(path)")
                var size: Int64 = 0
                var leaves: [UInt8] = []
                while size < head {
                    let page = try readAll(from: size + 1, limit: Self.treeFlushLeaves)
                    guard let last = page.last, last.position == size + Int64(page.count) else {
                        throw EventStoreError(code: .integrity, message: "\(path): the log has a gap after position \(size)",
                                              position: size + 1)
                    }
                    leaves.removeAll(keepingCapacity: true)
                    for event in page { leaves.append(contentsOf: hasher.leafHash(of: event)) }
                    try appendToTree(leaves, size: size)
                    size = last.position
                    progress.report(size)
                }
                progress.finish()
                try run("upgrading \(path) to journal schema version 3") { () throws(SQLiteError) in
                    try sql.execute("PRAGMA user_version = 3")
                }
            }
            try run("committing the upgrade of \(path)") { () throws(SQLiteError) in try sql.commit() }
        } catch {
            sql.rollback()
            throw error
        }
    }

    // MARK: - Checkpoints

    /// Stores a signed checkpoint in a transaction of its own.
    func keepCheckpoint(_ checkpoint: StoredCheckpoint) throws(EventStoreError) {
        if configuration.readOnly || sql.isReadOnly {
            throw EventStoreError(code: .readOnly, message: "\(path) is open read-only: checkpoints cannot be kept")
        }
        try run("keeping a checkpoint in \(path)") { () throws(SQLiteError) in
            try sql.begin(.immediate)
            do throws(SQLiteError) {
                let statement = try sql.cached("INSERT INTO journal_checkpoints(size, root, note, signed_at) VALUES (?, ?, ?, ?)")
                statement.bind(checkpoint.size, at: 1)
                statement.bind(blob: checkpoint.root, at: 2)
                statement.bind(checkpoint.note, at: 3)
                statement.bind(checkpoint.signedAt.millisecondsSinceEpoch, at: 4)
                try statement.run()
                try sql.commit()
            } catch {
                sql.rollback()
                throw error
            }
        }
    }

    /// Every kept checkpoint, oldest first.
    func checkpoints() throws(EventStoreError) -> [StoredCheckpoint] {
        try run("listing the checkpoints of \(path)") { () throws(SQLiteError) in
            let statement = try sql.cached("SELECT size, root, note, signed_at FROM journal_checkpoints ORDER BY id")
            defer { statement.reset() }
            var kept: [StoredCheckpoint] = []
            while try statement.step() {
                kept.append(StoredCheckpoint(size: statement.int64(at: 0), root: statement.blob(at: 1),
                                             note: statement.text(at: 2),
                                             signedAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 3))))
            }
            return kept
        }
    }
}

/// One line on stderr, rewritten in place, while an upgrade walks a large log; nothing when
/// stderr is not a terminal (scripts and tests see no output).
final class UpgradeProgress {
    private let total: Int64
    private let what: String
    private let enabled: Bool
    private var shown: Int64 = -1

    init(total: Int64, what: String) {
        self.total = total
        self.what = what
        enabled = isatty(2) == 1 && total > 0
    }

    func report(_ done: Int64) {
        guard enabled else { return }
        let percent = total == 0 ? 100 : done * 100 / total
        guard percent != shown else { return }
        shown = percent
        show("\r\(what): \(done) of \(total) events (\(percent) %)")
    }

    func finish() {
        guard enabled else { return }
        show("\n")
    }

    private func show(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
