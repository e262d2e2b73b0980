import JournalCore

// The journal's Merkle tree on SQLite (`TreeTiles`): each write transaction gathers its events'
// leaf hashes in `WriteState.leafHashes` and appends them to `journal_tree` before it moves the
// head, in the same transaction.
extension SQLiteJournal {
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

    /// `treeTile`, with a full leaf tile the file does not keep (`elidesLeafTiles`) made again
    /// from its 256 events, as their leaf hashes.
    /// - Throws: `.integrity` when the events of a full tile are not all there.
    func treeTileOrLeaves(level: Int, index: Int64) throws(EventStoreError) -> [UInt8] {
        let stored = try treeTile(level: level, index: index)
        let width = Int64(TreeTiles.width)
        guard stored.isEmpty, level == 0, elidesLeafTiles, index >= 0, index < Int64.max / width - 1,
            (index + 1) * width <= (try head().position)
        else { return stored }
        let first = index * width + 1
        let events = try readAll(from: first, limit: TreeTiles.width)
        guard events.count == TreeTiles.width, events.first?.position == first,
            events.last?.position == first + width - 1
        else {
            throw .integrity(at: first, "the journal lacks events of its tree's leaf tile \(index)")
        }
        var tile: [UInt8] = []
        tile.reserveCapacity(TreeTiles.tileBytes)
        for event in events { tile.append(contentsOf: hasher.leafHash(of: event)) }
        return tile
    }

    /// Whether the file's tree triggers let a full leaf tile be removed (see `elidesLeafTiles`).
    func allowsRemovingLeafTiles() throws(EventStoreError) -> Bool {
        try run("reading the schema of \(path)") { () throws(SQLiteError) in
            try sql.scalarInt(
                """
                SELECT count(*) FROM sqlite_master
                WHERE type = 'trigger' AND name = 'journal_tree_no_delete' AND sql LIKE '%OLD.level != 0%'
                """) == 1
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
        guard let state = write, state.savepoints == 0, state.leafHashes.count >= 32 * Self.treeFlushLeaves else {
            return
        }
        try flushTree()
    }

    /// Appends leaf hashes to the stored tree of `size` leaves (inside a write transaction).
    func appendToTree(_ leaves: [UInt8], size: Int64) throws(EventStoreError) {
        let tiles = try TreeTiles.append(leaves, to: size, hasher: hasher) { level, index throws(EventStoreError) in
            try treeTile(level: level, index: index)
        }
        try run("appending to the journal's tree") { () throws(SQLiteError) in
            let statement = try sql.cached(
                """
                INSERT INTO journal_tree(level, idx, hashes) VALUES (?, ?, ?)
                ON CONFLICT(level, idx) DO UPDATE SET hashes = excluded.hashes
                """)
            for tile in tiles {
                // A full leaf tile is not kept (its root went to the tile above): one an earlier
                // commit stored partial is completed, as the triggers allow, then removed.
                let elided = elidesLeafTiles && tile.level == 0 && tile.hashes.count == TreeTiles.tileBytes
                let storedPartial = tile.level == 0 && tile.index == size >> 8 && size & 255 > 0
                if elided && !storedPartial { continue }
                statement.bind(Int64(tile.level), at: 1)
                statement.bind(tile.index, at: 2)
                statement.bind(blob: tile.hashes, at: 3)
                try statement.run()
                if elided {
                    let remove = try sql.cached("DELETE FROM journal_tree WHERE level = 0 AND idx = ?")
                    remove.bind(tile.index, at: 1)
                    try remove.run()
                }
            }
        }
    }

    /// Version 2 → 4: creates the tree and checkpoint tables and fills the tree from the whole
    /// log, then records each stream's last event (`addStreamEnds`), in one write transaction
    /// (re-checked under the lock: another process may have just done it). Prints its progress
    /// on stderr when stderr is a terminal.
    func upgradeToTree() throws(EventStoreError) {
        try run("upgrading \(path) to journal schema version \(SQLiteEventStore.schemaVersion)") {
            () throws(SQLiteError) in try sql.begin(.immediate)
        }
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
                var read: Int64 = 0
                var treeSize: Int64 = 0
                var leaves: [UInt8] = []
                // The leaf hashes are made on the thread that checks each batch of links, from
                // the links themselves: this thread only reads rows and copies them.
                var chain = ScanChainCheck(from: 1, previousHash: nil, limit: Int(clamping: head))
                chain.keepsLeafHashes = true
                let names = (streams: Self.newLinkStreamNames(), types: Self.newLinkTypeNames())
                func flush() throws(EventStoreError) {
                    chain.takeLeafHashes(into: &leaves)
                    guard !leaves.isEmpty else { return }
                    try appendToTree(leaves, size: treeSize)
                    treeSize += Int64(leaves.count / 32)
                    leaves.removeAll(keepingCapacity: true)
                }
                while read < head {
                    let count = try checkLog(
                        from: read + 1, limit: Self.treeFlushLeaves, chain: &chain, streams: names.streams,
                        types: names.types)
                    guard count > 0 else {
                        throw EventStoreError(
                            code: .integrity, message: "\(path): the log has a gap after position \(read)",
                            position: read + 1)
                    }
                    read += Int64(count)
                    try flush()
                    progress.report(read)
                }
                try chain.finish()
                try flush()
                progress.finish()
                // Then each stream's last event (version 4), in the same transaction.
                try run("upgrading \(path) to journal schema version \(SQLiteEventStore.schemaVersion)") {
                    () throws(SQLiteError) in try SQLiteEventStore.addStreamEnds(sql)
                }
            }
            try run("committing the upgrade of \(path)") { () throws(SQLiteError) in try sql.commit() }
        } catch {
            sql.rollback()
            throw error
        }
    }

    /// Adds up to `limit` events from `position` to `chain`, which checks each event's link and
    /// makes its leaf hash on another thread (`ScanChainCheck.keepsLeafHashes`). Reads the rows
    /// as the projections' scan does, lending each decoded payload instead of building a
    /// `RecordedEvent`: the upgrade of a big journal is mostly this loop. Returns the number of
    /// events read.
    private func checkLog(
        from position: Int64, limit: Int, chain: inout ScanChainCheck, streams: LinkNames, types: LinkNames
    ) throws(EventStoreError) -> Int {
        let statement = try run("reading the log") { () throws(SQLiteError) in
            try sql.cached("SELECT \(Self.columns) FROM journal_events WHERE position >= ? ORDER BY position LIMIT ?")
        }
        statement.bind(position, at: 1)
        statement.bind(Int64(clamping: limit), at: 2)
        defer { statement.reset() }
        var scratch: [UInt8] = []
        swap(&scratch, &payloadScratch)
        defer { swap(&scratch, &payloadScratch) }
        var count = 0
        while try run("reading the log", { () throws(SQLiteError) in try statement.step() }) {
            try addLink(of: statement, to: &chain, streams: streams, types: types, scratch: &scratch)
            count += 1
        }
        return count
    }

    /// Hands the chain link of the row `statement` is on (the `columns` of `journal_events`) to
    /// `chain`, its payload decoded into `scratch` and its names lent from `streams` and `types`
    /// (fresh tables for each walk: a name is read from the file once per walk); with `checked`
    /// false, only decodes it (a row that fails another check first).
    /// - Throws: `.integrity` at the row's position for a stream, type, id or payload that does
    ///   not decode; `chain`'s errors.
    func addLink(
        of statement: SQLiteStatement, to chain: inout ScanChainCheck, streams: LinkNames, types: LinkNames,
        scratch: inout [UInt8], checked: Bool = true
    ) throws(EventStoreError) {
        let at = statement.int64(at: 0)
        let version = statement.int64(at: 2)
        let occurredAt = statement.int64(at: 5)
        let recordedAt = statement.int64(at: 6)
        try withLinkNames(
            position: at, streamID: statement.int64(at: 1), typeID: statement.int64(at: 4),
            storedID: statement.blobBytes(at: 3), idIsPacked: statement.isBlob(at: 3), streams: streams, types: types
        ) { stream, type, id throws(EventStoreError) in
            var failure: EventStoreError?
            try StoredPayload.withDecoded(
                codec: statement.int64(at: 7), dataLength: statement.int(at: 8),
                metaLength: statement.isNull(at: 9) ? nil : statement.int(at: 9), position: at, scratch: &scratch,
                dictionary: { id throws(EventStoreError) in try self.dictionary(id) },
                bytes: { lend in statement.withBlob(at: 10, lend) },
                { data, meta in
                    guard checked else { return }
                    do throws(EventStoreError) {
                        try chain.check(
                            position: at, version: version, stream: stream, id: id, type: type,
                            occurredAt: occurredAt, recordedAt: recordedAt, data: data, meta: meta,
                            hash: statement.blobBytes(at: 11))
                    } catch {
                        failure = error
                    }
                })
            if let failure { throw failure }
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
                let statement = try sql.cached(
                    "INSERT INTO journal_checkpoints(size, root, note, signed_at) VALUES (?, ?, ?, ?)")
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
            while try statement.step() { kept.append(Self.checkpoint(statement)) }
            return kept
        }
    }

    /// The last kept checkpoint (the highest id), nil when none was kept.
    func latestCheckpoint() throws(EventStoreError) -> StoredCheckpoint? {
        try run("reading the latest checkpoint of \(path)") { () throws(SQLiteError) in
            let statement = try sql.cached(
                "SELECT size, root, note, signed_at FROM journal_checkpoints ORDER BY id DESC LIMIT 1")
            defer { statement.reset() }
            return try statement.step() ? Self.checkpoint(statement) : nil
        }
    }

    /// The checkpoint of the row `statement` stands on (columns size, root, note, signed_at).
    private static func checkpoint(_ statement: SQLiteStatement) -> StoredCheckpoint {
        StoredCheckpoint(
            size: statement.int64(at: 0), root: statement.blob(at: 1), note: statement.text(at: 2),
            signedAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 3)))
    }
}

/// One line on stderr, rewritten in place, while an upgrade walks a large log; nothing when
/// stderr is not a terminal (scripts and tests see no output).
final class UpgradeProgress {
    private let total: Int64
    private let what: String
    private let unit: String
    private let enabled: Bool
    private var shown: Int64 = -1

    init(total: Int64, what: String, unit: String = "events") {
        self.total = total
        self.what = what
        self.unit = unit
        enabled = FileDescriptor.standardError.isTerminal && total > 0
    }

    func report(_ done: Int64) {
        guard enabled else { return }
        let percent = total == 0 ? 100 : done * 100 / total
        guard percent != shown else { return }
        shown = percent
        show("\r\(what): \(done) of \(total) \(unit) (\(percent) %)")
    }

    func finish() {
        guard enabled else { return }
        show("\n")
    }

    private func show(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }
}
