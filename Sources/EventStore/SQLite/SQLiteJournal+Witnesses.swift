import JournalCore

// Witnesses' cosignatures and the sizes witnesses hold (spec §11), in tables made by the
// first `journal cosign` (docs/decisions/witnesses.md): a journal that never met a witness
// has neither, and needs no schema upgrade.
//
//   journal_cosignatures(id INTEGER PRIMARY KEY, origin, size, root BLOB, witness, line, kept_at)
//                                  append-only (triggers), like the checkpoints
//   journal_witness_sizes(witness, origin, size)   the size last known per witness and origin
extension SQLiteJournal {
    static let witnessSchema = """
        CREATE TABLE IF NOT EXISTS journal_cosignatures(
            id INTEGER PRIMARY KEY,
            origin TEXT NOT NULL,
            size INTEGER NOT NULL,
            root BLOB NOT NULL,
            witness TEXT NOT NULL,
            line TEXT NOT NULL,
            kept_at INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS journal_cosignatures_size ON journal_cosignatures(size);
        CREATE TRIGGER IF NOT EXISTS journal_cosignatures_no_update BEFORE UPDATE ON journal_cosignatures
            BEGIN SELECT RAISE(ABORT, 'journal cosignatures are immutable'); END;
        CREATE TRIGGER IF NOT EXISTS journal_cosignatures_no_delete BEFORE DELETE ON journal_cosignatures
            BEGIN SELECT RAISE(ABORT, 'journal cosignatures are immutable'); END;
        CREATE TABLE IF NOT EXISTS journal_witness_sizes(
            witness TEXT NOT NULL,
            origin TEXT NOT NULL,
            size INTEGER NOT NULL,
            PRIMARY KEY (witness, origin)
        );
        """

    /// Keeps cosignatures and witness sizes in one transaction, making the tables first.
    func storeCosignatures(_ cosignatures: [StoredCosignature], witnessSizes: [WitnessSize])
        throws(EventStoreError)
    {
        if configuration.readOnly || sql.isReadOnly {
            throw EventStoreError(code: .readOnly, message: "\(path) is open read-only: cosignatures cannot be kept")
        }
        try run("keeping cosignatures in \(path)") { () throws(SQLiteError) in
            try sql.begin(.immediate)
            do throws(SQLiteError) {
                try sql.execute(Self.witnessSchema)
                let insert = try sql.prepare(
                    "INSERT INTO journal_cosignatures(origin, size, root, witness, line, kept_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)")
                for cosignature in cosignatures {
                    insert.bind(cosignature.origin, at: 1)
                    insert.bind(cosignature.size, at: 2)
                    insert.bind(blob: cosignature.root, at: 3)
                    insert.bind(cosignature.witness, at: 4)
                    insert.bind(cosignature.line, at: 5)
                    insert.bind(cosignature.keptAt.millisecondsSinceEpoch, at: 6)
                    try insert.run()
                    insert.reset()
                }
                let upsert = try sql.prepare(
                    """
                    INSERT INTO journal_witness_sizes(witness, origin, size) VALUES (?, ?, ?)
                    ON CONFLICT(witness, origin) DO UPDATE SET size = excluded.size
                    """)
                for known in witnessSizes {
                    upsert.bind(known.witness, at: 1)
                    upsert.bind(known.origin, at: 2)
                    upsert.bind(known.size, at: 3)
                    try upsert.run()
                    upsert.reset()
                }
                try sql.commit()
            } catch {
                sql.rollback()
                throw error
            }
        }
    }

    /// True once `journal cosign` made the witness tables.
    private func hasWitnessTables() throws(SQLiteError) -> Bool {
        try sql.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'journal_witness_sizes'")
            == 1
    }

    /// The kept cosignatures of checkpoints of `size` events (nil: all), oldest first.
    func cosignatures(size: Int64?) throws(EventStoreError) -> [StoredCosignature] {
        try run("reading the cosignatures of \(path)") { () throws(SQLiteError) in
            guard try hasWitnessTables() else { return [] }
            let statement = try sql.prepare(
                "SELECT origin, size, root, witness, line, kept_at FROM journal_cosignatures "
                    + (size == nil ? "" : "WHERE size = ? ") + "ORDER BY id")
            if let size { statement.bind(size, at: 1) }
            var kept: [StoredCosignature] = []
            while try statement.step() {
                kept.append(
                    StoredCosignature(
                        origin: statement.text(at: 0), size: statement.int64(at: 1), root: statement.blob(at: 2),
                        witness: statement.text(at: 3), line: statement.text(at: 4),
                        keptAt: Timestamp(millisecondsSinceEpoch: statement.int64(at: 5))))
            }
            return kept
        }
    }

    /// The size last known per witness for `origin`.
    func witnessSizes(origin: String) throws(EventStoreError) -> [String: Int64] {
        try run("reading the witness sizes of \(path)") { () throws(SQLiteError) in
            guard try hasWitnessTables() else { return [:] }
            let statement = try sql.prepare("SELECT witness, size FROM journal_witness_sizes WHERE origin = ?")
            statement.bind(origin, at: 1)
            var sizes: [String: Int64] = [:]
            while try statement.step() { sizes[statement.text(at: 0)] = statement.int64(at: 1) }
            return sizes
        }
    }
}

extension SQLiteEventStore {
    public func storeCosignatures(_ cosignatures: [StoredCosignature], witnessSizes: [WitnessSize])
        throws(EventStoreError)
    {
        try requireTree()
        if commits.isHeldByCurrentThread {
            throw EventStoreError(
                code: .invalidInput, message: "cosignatures cannot be kept inside a write transaction of the same store"
            )
        }
        try withWriter { writer throws(EventStoreError) in
            try writer.storeCosignatures(cosignatures, witnessSizes: witnessSizes)
        }
    }

    public func cosignatures(size: Int64?) throws(EventStoreError) -> [StoredCosignature] {
        try requireTree()
        return try reading { connection throws(EventStoreError) in try connection.cosignatures(size: size) }
    }

    public func witnessSizes(origin: String) throws(EventStoreError) -> [String: Int64] {
        try requireTree()
        return try reading { connection throws(EventStoreError) in try connection.witnessSizes(origin: origin) }
    }
}
