import JournalCore

// Witnesses' cosignatures and the sizes witnesses hold (spec §11) on PostgreSQL: the same
// two tables as on SQLite (`SQLiteJournal+Witnesses.swift`), made by the first `journal cosign`
// under an advisory lock (two first cosigns at once do not both create them).
extension PostgresJournal {
    static let witnessSchema = """
        CREATE TABLE IF NOT EXISTS journal_cosignatures(
            id bigserial PRIMARY KEY,
            origin text NOT NULL,
            size bigint NOT NULL,
            root bytea NOT NULL,
            witness text NOT NULL,
            line text NOT NULL,
            kept_at bigint NOT NULL
        );
        CREATE INDEX IF NOT EXISTS journal_cosignatures_size ON journal_cosignatures(size);
        CREATE OR REPLACE TRIGGER journal_cosignatures_immutable BEFORE UPDATE OR DELETE ON journal_cosignatures
            FOR EACH ROW EXECUTE FUNCTION journal_refuse_change();
        CREATE OR REPLACE TRIGGER journal_cosignatures_no_truncate BEFORE TRUNCATE ON journal_cosignatures
            FOR EACH STATEMENT EXECUTE FUNCTION journal_refuse_change();
        CREATE TABLE IF NOT EXISTS journal_witness_sizes(
            witness text NOT NULL,
            origin text NOT NULL,
            size bigint NOT NULL,
            PRIMARY KEY (witness, origin)
        );
        """

    /// The advisory lock key that serializes the creation of the witness tables.
    private static let witnessTablesLock: Int64 = 1_246_973_517

    func storeCosignatures(_ cosignatures: [StoredCosignature], witnessSizes: [WitnessSize])
        throws(EventStoreError)
    {
        if configuration.readOnly {
            throw EventStoreError(
                code: .readOnly, message: "\(pg.location) is open read-only: cosignatures cannot be kept")
        }
        do throws(PostgresError) {
            try pg.execute("BEGIN")
            _ = try pg.query("SELECT pg_advisory_xact_lock($1)", [.int64(Self.witnessTablesLock)])
            try pg.execute(Self.witnessSchema)
            var statements: [PostgresStatement] = cosignatures.map { cosignature in
                PostgresStatement(
                    """
                    INSERT INTO journal_cosignatures(origin, size, root, witness, line, kept_at)
                    VALUES ($1, $2, $3, $4, $5, $6)
                    """,
                    [
                        .text(cosignature.origin), .int64(cosignature.size), .bytea(cosignature.root),
                        .text(cosignature.witness), .text(cosignature.line),
                        .int64(cosignature.keptAt.millisecondsSinceEpoch)
                    ], prepared: false)
            }
            statements += witnessSizes.map { known in
                PostgresStatement(
                    """
                    INSERT INTO journal_witness_sizes(witness, origin, size) VALUES ($1, $2, $3)
                    ON CONFLICT (witness, origin) DO UPDATE SET size = EXCLUDED.size
                    """, [.text(known.witness), .text(known.origin), .int64(known.size)], prepared: false)
            }
            statements.append(PostgresStatement("COMMIT"))
            _ = try pg.pipeline(statements)
        } catch {
            pg.rollback()
            throw EventStoreError(postgres: error, doing: "keeping cosignatures in \(pg.location)")
        }
    }

    /// True once `journal cosign` made the witness tables.
    private func hasWitnessTables() throws(PostgresError) -> Bool {
        let result = try pg.query("SELECT count(*) FROM pg_class WHERE oid = to_regclass('journal_witness_sizes')")
        return result.rowCount == 1 && result.int64(0, 0) == 1
    }

    func cosignatures(size: Int64?) throws(EventStoreError) -> [StoredCosignature] {
        let rows = try run("reading the cosignatures of \(pg.location)") {
            () throws(PostgresError) -> PostgresResult? in
            guard try hasWitnessTables() else { return nil }
            if let size {
                return try pg.query(
                    "SELECT origin, size, root, witness, line, kept_at FROM journal_cosignatures WHERE size = $1 "
                        + "ORDER BY id", [.int64(size)])
            }
            return try pg.query(
                "SELECT origin, size, root, witness, line, kept_at FROM journal_cosignatures ORDER BY id")
        }
        guard let rows else { return [] }
        return (0..<rows.rowCount).map { row in
            StoredCosignature(
                origin: rows.text(row, 0), size: rows.int64(row, 1), root: rows.bytes(row, 2),
                witness: rows.text(row, 3), line: rows.text(row, 4),
                keptAt: Timestamp(millisecondsSinceEpoch: rows.int64(row, 5)))
        }
    }

    func witnessSizes(origin: String) throws(EventStoreError) -> [String: Int64] {
        let rows = try run("reading the witness sizes of \(pg.location)") {
            () throws(PostgresError) -> PostgresResult? in
            guard try hasWitnessTables() else { return nil }
            return try pg.query("SELECT witness, size FROM journal_witness_sizes WHERE origin = $1", [.text(origin)])
        }
        guard let rows else { return [:] }
        var sizes: [String: Int64] = [:]
        for row in 0..<rows.rowCount { sizes[rows.text(row, 0)] = rows.int64(row, 1) }
        return sizes
    }
}

extension PostgresEventStore {
    public func storeCosignatures(_ cosignatures: [StoredCosignature], witnessSizes: [WitnessSize])
        throws(EventStoreError)
    {
        try requireTree()
        // On the reader's session: the writer's may be inside a write transaction of this thread.
        try reading { journal throws(EventStoreError) in
            try journal.storeCosignatures(cosignatures, witnessSizes: witnessSizes)
        }
    }

    public func cosignatures(size: Int64?) throws(EventStoreError) -> [StoredCosignature] {
        try requireTree()
        return try reading { journal throws(EventStoreError) in try journal.cosignatures(size: size) }
    }

    public func witnessSizes(origin: String) throws(EventStoreError) -> [String: Int64] {
        try requireTree()
        return try reading { journal throws(EventStoreError) in try journal.witnessSizes(origin: origin) }
    }
}
