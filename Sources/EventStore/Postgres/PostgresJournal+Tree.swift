import JournalCore

// The journal's Merkle tree on PostgreSQL (`TreeTiles`): a write transaction reads the tree's
// edge tiles with the head (`beginWrite`, same round trip), gathers its events' leaf hashes, and
// its commit pipeline upserts the tiles they change before moving the head.
extension PostgresJournal {
    /// The partial tiles at the right edge of the tree of the head's size, as (level, hashes):
    /// tile (L, size >> (8·L + 8)) for each level (levels 0…6 cover sizes below 2^56). Runs
    /// after the head row is locked, so READ COMMITTED gives the tiles of that very head.
    static let treeEdgeQuery = """
        SELECT t.level, t.hashes FROM journal_tree t JOIN journal_head h ON h.singleton = 1
        WHERE (t.level, t.idx) IN ((0, h.position >> 8), (1, h.position >> 16), (2, h.position >> 24),
                                   (3, h.position >> 32), (4, h.position >> 40), (5, h.position >> 48),
                                   (6, h.position >> 56))
        """

    static let upsertTile = """
        INSERT INTO journal_tree(level, idx, hashes) VALUES ($1, $2, $3)
        ON CONFLICT (level, idx) DO UPDATE SET hashes = EXCLUDED.hashes
        """

    /// The statements that append the transaction's leaf hashes to the tiles.
    func treeStatements(_ state: WriteState) throws(EventStoreError) -> [PostgresStatement] {
        guard !state.leafHashes.isEmpty else { return [] }
        let size = state.headPosition - Int64(state.leafHashes.count / 32)
        let tiles = try TreeTiles.append(state.leafHashes, to: size, hasher: hasher) { level, _ in state.treeEdge[level]
        }
        return tiles.map { tile in
            PostgresStatement(Self.upsertTile, [.int64(Int64(tile.level)), .int64(tile.index), .bytea(tile.hashes)])
        }
    }

    /// The stored hashes of tile (level, index); empty when there is no such tile yet.
    func treeTile(level: Int, index: Int64) throws(EventStoreError) -> [UInt8] {
        let result = try run("reading the journal's tree tile (\(level), \(index))") { () throws(PostgresError) in
            try pg.query(
                "SELECT hashes FROM journal_tree WHERE level = $1 AND idx = $2", [.int64(Int64(level)), .int64(index)])
        }
        return result.rowCount == 1 ? result.bytes(0, 0) : []
    }

    /// Version 1 → 2: creates the tree and checkpoint tables and fills the tree from the whole
    /// log, in one transaction holding the append lock (re-checked under it: another process may
    /// have just done it). Prints its progress on stderr when stderr is a terminal.
    func upgradeToTree() throws(EventStoreError) {
        do {
            try pg.execute("BEGIN")
            _ = try pg.query("SELECT pg_advisory_xact_lock(1246973516)")
            let head = try pg.query("SELECT position FROM journal_head WHERE singleton = 1 FOR UPDATE")
            let version = try pg.query("SELECT value FROM journal_meta WHERE key = 'schema_version'")
            if version.rowCount == 1 && version.text(0, 0) == "1" {
                try pg.execute(PostgresEventStore.upgradeFromVersion1SQL)
                try buildTree(size: head.rowCount == 1 ? head.int64(0, 0) : 0)
            }
            try pg.execute("COMMIT")
        } catch let error as PostgresError {
            pg.rollback()
            throw EventStoreError(postgres: error, doing: "upgrading \(pg.location) to journal schema version 2")
        } catch let error as EventStoreError {
            pg.rollback()
            throw error
        } catch {
            pg.rollback()
            throw EventStoreError(code: .io, message: "upgrading \(pg.location): \(error)")
        }
    }

    /// Version 2 → 3: records each stream's last event (`streamEndsUpgradeSQL`), in one
    /// transaction holding the append lock (re-checked under it: another process may have just
    /// done it). Says so on a terminal.
    func upgradeToStreamEnds() throws(EventStoreError) {
        do throws(PostgresError) {
            try pg.execute("BEGIN")
            _ = try pg.query("SELECT pg_advisory_xact_lock(1246973516)")
            _ = try pg.query("SELECT position FROM journal_head WHERE singleton = 1 FOR UPDATE")
            let version = try pg.query("SELECT value FROM journal_meta WHERE key = 'schema_version'")
            if version.rowCount == 1 && version.text(0, 0) == "2" {
                let streams = try pg.query("SELECT count(*) FROM journal_streams").int64(0, 0)
                let progress = UpgradeProgress(
                    total: streams, what: "recording the last event of each stream of \(pg.location)",
                    unit: "streams")
                progress.report(0)
                defer { progress.finish() }
                try pg.execute(PostgresEventStore.streamEndsUpgradeSQL)
                progress.report(streams)
            }
            try pg.execute("COMMIT")
        } catch {
            pg.rollback()
            throw EventStoreError(
                postgres: error,
                doing: "upgrading \(pg.location) to journal schema version \(PostgresEventStore.schemaVersion)")
        }
    }

    /// Fills the empty tree with the log's first `head` events (inside the upgrade's transaction).
    private func buildTree(size head: Int64) throws {
        let progress = UpgradeProgress(total: head, what: "building the Merkle tree of \(pg.location)")
        var size: Int64 = 0
        var leaves: [UInt8] = []
        while size < head {
            let page = try readAll(from: size + 1, limit: 16_384)
            guard let last = page.last, last.position == size + Int64(page.count) else {
                throw EventStoreError(
                    code: .integrity, message: "\(pg.location): the log has a gap after position \(size)",
                    position: size + 1)
            }
            leaves.removeAll(keepingCapacity: true)
            for event in page { leaves.append(contentsOf: hasher.leafHash(of: event)) }
            let tiles = try TreeTiles.append(leaves, to: size, hasher: hasher) { level, index throws(EventStoreError) in
                try treeTile(level: level, index: index)
            }
            _ = try pg.pipeline(
                tiles.map { tile in
                    PostgresStatement(
                        Self.upsertTile, [.int64(Int64(tile.level)), .int64(tile.index), .bytea(tile.hashes)])
                })
            size = last.position
            progress.report(size)
        }
        progress.finish()
    }

    // MARK: - Checkpoints

    /// Stores a signed checkpoint in a transaction of its own (numbered after the last one,
    /// under a lock that only other keepers of checkpoints take).
    func keepCheckpoint(_ checkpoint: StoredCheckpoint) throws(EventStoreError) {
        if configuration.readOnly {
            throw EventStoreError(
                code: .readOnly, message: "\(pg.location) is open read-only: checkpoints cannot be kept")
        }
        do {
            _ = try pg.pipeline([
                PostgresStatement("BEGIN"),
                PostgresStatement("LOCK TABLE journal_checkpoints IN SHARE ROW EXCLUSIVE MODE"),
                PostgresStatement(
                    """
                    INSERT INTO journal_checkpoints(id, size, root, note, signed_at)
                    SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4 FROM journal_checkpoints
                    """,
                    [
                        .int64(checkpoint.size), .bytea(checkpoint.root), .text(checkpoint.note),
                        .int64(checkpoint.signedAt.millisecondsSinceEpoch)
                    ]),
                PostgresStatement("COMMIT")
            ])
        } catch {
            pg.rollback()
            throw EventStoreError(postgres: error, doing: "keeping a checkpoint in \(pg.location)")
        }
    }

    /// Every kept checkpoint, oldest first.
    func checkpoints() throws(EventStoreError) -> [StoredCheckpoint] {
        let rows = try run("listing the checkpoints of \(pg.location)") { () throws(PostgresError) in
            try pg.query("SELECT size, root, note, signed_at FROM journal_checkpoints ORDER BY id")
        }
        return (0..<rows.rowCount).map { row in Self.checkpoint(rows, row) }
    }

    /// The last kept checkpoint (the highest id), nil when none was kept.
    func latestCheckpoint() throws(EventStoreError) -> StoredCheckpoint? {
        let rows = try run("reading the latest checkpoint of \(pg.location)") { () throws(PostgresError) in
            try pg.query("SELECT size, root, note, signed_at FROM journal_checkpoints ORDER BY id DESC LIMIT 1")
        }
        return rows.rowCount == 0 ? nil : Self.checkpoint(rows, 0)
    }

    /// The checkpoint of one result row (columns size, root, note, signed_at).
    private static func checkpoint(_ rows: PostgresResult, _ row: Int) -> StoredCheckpoint {
        StoredCheckpoint(
            size: rows.int64(row, 0), root: rows.bytes(row, 1), note: rows.text(row, 2),
            signedAt: Timestamp(millisecondsSinceEpoch: rows.int64(row, 3)))
    }
}
