import EventStore
import JournalCore

/// The read models in PostgreSQL tables of the journal's own schema (the first schema of the
/// URL's `search_path`, where the journal's tables are), over the store's libpq wrapper
/// (`PostgresConnection`, the package's one place that calls libpq), on a session of their own.
///
/// ## Locking: one writer, readers never blocked by batches
/// `pj_meta`'s table lock plays the part of SQLite's `BEGIN IMMEDIATE`:
/// - a **write** transaction starts with `LOCK TABLE pj_meta IN SHARE ROW EXCLUSIVE MODE`, a
///   mode that conflicts with itself, so writers of the read models (two `journal query`
///   catching up at once, a rebuild) run one at a time. In READ COMMITTED every statement after
///   the lock sees everything committed before it, so the engine's re-read of the checkpoint
///   inside the transaction sees the other writer's batch, and no batch is applied twice;
/// - a **read** transaction (a query's snapshot) is `REPEATABLE READ READ ONLY` and first takes
///   `ROW SHARE` on `pj_meta` (compatible with writers' batches, so a query never waits for a
///   catch-up or a rebuild batch), before its snapshot is taken;
/// - a transaction that **drops** tables (the swap of a rebuilt generation) first upgrades to
///   `EXCLUSIVE`, which waits for the queries reading a snapshot to finish: a query never finds
///   the generation its snapshot names dropped under it.
///
/// A table lock rather than a row lock (`SELECT … FOR UPDATE`) because the first transaction
/// inserts the meta row it must serialize on, and because the lock modes let batches and
/// queries overlap; rather than an advisory lock because it is scoped to the journal's schema
/// (two journals in one database never contend, no key can collide with another
/// application's) — the store's append lock is chosen the same way. Every lock wait gives up
/// after `lock_timeout` (10 s, the SQLite busy timeout) with SQLSTATE 55P03 → `.busy`.
///
/// ## Batching
/// Statements without results (`Statement.run()`) inside a transaction are queued and sent
/// before the next query, `execute` or commit: runs of one single-row insert as multi-row
/// inserts of 100 rows (`PostgresMultiRowInsert`), in libpq pipeline mode, up to 1,000
/// statements per round trip.
///
/// The read models can always be rebuilt, so the session commits with
/// `synchronous_commit = off` (a server crash may lose the last batches, never mix a batch
/// with another checkpoint: the rows and their checkpoint commit together).
final class PostgresProjectionBackend: ProjectionBackend {
    private var connection: PostgresConnection?
    private var pending: [PostgresStatement] = []
    /// Single-row inserts parsed for coalescing (nil: not coalescible), and their multi-row texts.
    private var multiRowInserts: [String: PostgresMultiRowInsert?] = [:]
    private var multiRowTexts: [String: [Int: String]] = [:]
    private var transaction: TransactionKind?
    private var exclusive = false

    private enum TransactionKind { case write, read }

    static let pipelineChunk = 1_000
    /// Statements queued before they are sent (coalesced into far fewer).
    static let queueLimit = 20_000
    static let lockTimeout = "10s"

    init(url: String) throws(ProjectionError) {
        do {
            let connection = try PostgresConnection(url)
            try connection.execute("SET lock_timeout = '\(Self.lockTimeout)'; SET synchronous_commit = off")
            self.connection = connection
        } catch {
            throw ProjectionError(error, "cannot open the read models")
        }
    }

    func close() {
        if let connection, connection.transactionState != .idle { connection.rollback() }
        connection = nil
    }

    private var pg: PostgresConnection {
        guard let connection else { preconditionFailure("ProjectionDatabase used after close") }
        return connection
    }

    // MARK: - Statements

    func execute(_ sql: String) throws(ProjectionError) {
        try flush()
        var text = sql
        if transaction == .write, !exclusive, sql.uppercased().contains("DROP TABLE") {
            text = "LOCK TABLE \(ProjectionDatabase.lockTable) IN EXCLUSIVE MODE;\n" + sql
            exclusive = true
        }
        do {
            try pg.execute(text)
        } catch {
            // Two sessions creating the same table at once: one of them fails on the catalog's
            // unique index although it said IF NOT EXISTS. The table exists now; run it again.
            if transaction == nil, error.sqlState == "23505" || error.sqlState == "42P07",
                text.uppercased().contains("IF NOT EXISTS")
            {
                do { try pg.execute(text) } catch { throw ProjectionError(error, "read models") }
                return
            }
            throw ProjectionError(error, "read models")
        }
    }

    func statement(_ sql: String) throws(ProjectionError) -> Statement {
        Statement(PostgresProjectionStatement(sql: sql, backend: self))
    }

    /// Runs a statement with rows, after the queued ones.
    func query(_ sql: String, _ parameters: [PostgresValue]) throws(ProjectionError) -> PostgresResult {
        try flush()
        do { return try pg.query(sql, parameters) } catch { throw ProjectionError(error, "read models") }
    }

    /// Queues a statement without rows (inside a transaction), or runs it at once.
    func enqueue(_ sql: String, _ parameters: [PostgresValue]) throws(ProjectionError) {
        guard transaction != nil else {
            _ = try query(sql, parameters)
            return
        }
        pending.append(PostgresStatement(sql, parameters))
        if pending.count >= Self.queueLimit { try flush() }
    }

    /// Sends the queued statements: runs of one single-row `INSERT` become multi-row inserts
    /// (`PostgresMultiRowInsert`), then pipelines of up to `pipelineChunk` statements.
    private func flush() throws(ProjectionError) {
        guard !pending.isEmpty else { return }
        let queued = pending
        pending.removeAll(keepingCapacity: true)
        var batch: [PostgresStatement] = []
        var start = 0
        while start < queued.count {
            let sql = queued[start].sql
            var end = start + 1
            while end < queued.count && queued[end].sql == sql { end += 1 }
            if end - start > 1, let insert = multiRowInsert(sql),
                queued[start..<end].allSatisfy({ $0.parameters.count == insert.columns })
            {
                var texts = multiRowTexts[sql] ?? [:]
                batch += insert.coalesce(queued[start..<end], texts: &texts)
                multiRowTexts[sql] = texts
            } else {
                batch += queued[start..<end]
            }
            start = end
        }
        var chunk = 0
        while chunk < batch.count {
            let end = min(batch.count, chunk + Self.pipelineChunk)
            do { _ = try pg.pipeline(Array(batch[chunk..<end])) } catch { throw ProjectionError(error, "read models") }
            chunk = end
        }
    }

    private func multiRowInsert(_ sql: String) -> PostgresMultiRowInsert? {
        if let known = multiRowInserts[sql] { return known }
        let parsed = PostgresMultiRowInsert(sql)
        multiRowInserts[sql] = .some(parsed)
        return parsed
    }

    // MARK: - Transactions

    func beginWrite() throws(ProjectionError) {
        try begin(.write, "BEGIN; LOCK TABLE \(ProjectionDatabase.lockTable) IN SHARE ROW EXCLUSIVE MODE")
    }

    func beginRead() throws(ProjectionError) {
        // LOCK takes no snapshot: the snapshot is taken by the first query, after the lock.
        try begin(
            .read,
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; "
                + "LOCK TABLE \(ProjectionDatabase.lockTable) IN ROW SHARE MODE")
    }

    private func begin(_ kind: TransactionKind, _ sql: String) throws(ProjectionError) {
        precondition(transaction == nil, "read-model transactions do not nest")
        do {
            try pg.execute(sql)
        } catch {
            pg.rollback()
            throw ProjectionError(error, "read models")
        }
        transaction = kind
        exclusive = false
    }

    func commit() throws(ProjectionError) {
        try flush()
        // COMMIT of a failed transaction block would report success and roll back.
        guard pg.transactionState == .inTransaction else {
            throw ProjectionError(.database, "read models: the transaction failed before its commit")
        }
        do { try pg.execute("COMMIT") } catch { throw ProjectionError(error, "read models") }
        transaction = nil
    }

    func rollback() {
        pending.removeAll()
        connection?.rollback()
        transaction = nil
    }

    func tableExists(_ name: String) throws(ProjectionError) -> Bool {
        let result = try query(
            "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1",
            [.text(name)])
        return result.rowCount > 0
    }

    /// PostgreSQL has no write-ahead log of ours to copy.
    func checkpointAside() -> BackgroundTask<Void>? { nil }
}

/// A statement on PostgreSQL: its parameters, and the rows of its last run.
final class PostgresProjectionStatement {
    private let sql: String
    private unowned let backend: PostgresProjectionBackend
    private var parameters: [PostgresValue] = []
    private var result: PostgresResult?
    private var row = 0

    init(sql: String, backend: PostgresProjectionBackend) {
        self.sql = sql
        self.backend = backend
    }

    func bind(_ index: Int32, _ value: PostgresValue) {
        let slot = Int(index) - 1
        if parameters.count <= slot { parameters += repeatElement(.null, count: slot + 1 - parameters.count) }
        parameters[slot] = value
    }

    /// Forgets the rows (the bindings stay, as in SQLite).
    func reset() { result = nil }

    func step() throws(ProjectionError) -> Bool {
        if let result {
            row += 1
            return row < result.rowCount
        }
        let fetched = try backend.query(sql, parameters)
        result = fetched
        row = 0
        return fetched.rowCount > 0
    }

    func run() throws(ProjectionError) {
        result = nil
        try backend.enqueue(sql, parameters)
    }

    private var rows: PostgresResult {
        guard let result, row < result.rowCount else { preconditionFailure("no current row: step() first") }
        return result
    }

    func isNull(_ column: Int32) -> Bool { rows.isNull(row, Int(column)) }

    func int(_ column: Int32) -> Int64 {
        let rows = rows
        if let value = rows.integer(row, Int(column)) { return value }
        guard let value = Int64(rows.text(row, Int(column))) else {
            preconditionFailure("column \(column) is not an integer") // a query/reader mismatch is a bug
        }
        return value
    }

    func text(_ column: Int32) -> String {
        let rows = rows
        if let value = rows.integer(row, Int(column)) { return String(value) }
        return rows.text(row, Int(column))
    }
}

extension ProjectionError {
    /// Wraps a PostgreSQL failure: what was being done and the scrubbed server message with its
    /// SQLSTATE (never a password: `PostgresConnection` redacts them). Lock and serialization
    /// failures are `.busy`.
    init(_ error: PostgresError, _ context: String) {
        let busy = ["55P03", "40P01", "40001", "57014"].contains(error.sqlState ?? "")
        self.init(busy ? .busy : .database, "\(context): \(error.description)")
    }
}
