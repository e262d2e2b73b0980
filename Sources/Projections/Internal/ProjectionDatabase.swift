import EventStore
import JournalCore

// The seam between the projections and the database that holds their read models: the
// journal's own SQLite file, or the journal's PostgreSQL database. The code above this file
// (the engine, the models, the queries) writes each statement for the engine it runs on, with
// the spellings of ``ReadModelSQL`` (`db.sql`, chosen once when the database opens), and calls
// the few operations below; the backends run the text they are given, unchanged:
//
// | | SQLite (`SQLiteProjectionBackend`) | PostgreSQL (`PostgresProjectionBackend`) |
// |---|---|---|
// | SQL spellings | `ReadModelSQL.sqlite` | `ReadModelSQL.postgres` |
// | write transaction | `BEGIN IMMEDIATE` (one writer) | `BEGIN` + `LOCK TABLE pj_meta IN SHARE ROW EXCLUSIVE MODE` |
// | read transaction | `BEGIN DEFERRED` (WAL snapshot) | `REPEATABLE READ READ ONLY` + `ROW SHARE` lock on `pj_meta` |
// | table existence | `sqlite_master` | `pg_tables` in `current_schema()` |
// | durability of commits | `synchronous=NORMAL` | `synchronous_commit=off` |
//
// What both engines spell alike is written once (`ON CONFLICT(k) DO UPDATE SET n = t.n +
// excluded.n` with the target table named, `coalesce`, `CASE`, `count(*)`, joins).
//
// One connection, used from one thread at a time (an engine is not shared across threads).

/// The operations a read-model database offers the engine; one implementation per engine.
protocol ProjectionBackend: AnyObject {
    func close()
    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(ProjectionError)
    /// A statement for `sql` (written for this engine), ready to bind and run.
    func statement(_ sql: String) throws(ProjectionError) -> Statement
    /// Starts a transaction that writes: one writer at a time per journal.
    func beginWrite() throws(ProjectionError)
    /// Starts a transaction that only reads, from one consistent snapshot.
    func beginRead() throws(ProjectionError)
    func commit() throws(ProjectionError)
    /// Rolls back an open transaction; never throws (the caller is reporting an error already).
    func rollback()
    /// True when the table exists in the read models' schema.
    func tableExists(_ name: String) throws(ProjectionError) -> Bool
    /// Starts copying the committed write-ahead log into the database file on another thread
    /// and connection, without blocking this connection's writes (nil: nothing to do).
    func checkpointAside() -> BackgroundTask<Void>?
}

/// A connection to the database that holds the read models.
final class ProjectionDatabase {
    /// The table whose lock serializes the writers of the read models (created by the engine
    /// before any transaction).
    static let lockTable = "pj_meta"

    private var backend: (any ProjectionBackend)?
    /// The spellings of this engine's SQL.
    let sql: ReadModelSQL
    /// True for PostgreSQL, false for SQLite.
    var isPostgres: Bool { sql.isPostgres }

    /// Opens (and, when `create`, creates) the SQLite database at `path`.
    init(path: String, create: Bool) throws(ProjectionError) {
        backend = try SQLiteProjectionBackend(path: path, create: create)
        sql = .sqlite
    }

    /// Opens the read models of the journal at `location`: a `postgres://` or `postgresql://`
    /// URL means the journal's PostgreSQL database (the first schema of its `search_path`),
    /// anything else is the journal's SQLite file.
    init(location: String) throws(ProjectionError) {
        if PostgresURL.isPostgres(location) {
            backend = try PostgresProjectionBackend(url: location)
            sql = .postgres
        } else {
            backend = try SQLiteProjectionBackend(path: location, create: true)
            sql = .sqlite
        }
    }

    func close() {
        backend?.close()
        backend = nil
    }

    private var db: any ProjectionBackend {
        guard let backend else { preconditionFailure("ProjectionDatabase used after close") }
        return backend
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(ProjectionError) { try db.execute(sql) }

    /// A prepared statement (SQLite: from the connection's cache), reset, bindings cleared.
    func statement(_ sql: String) throws(ProjectionError) -> Statement { try db.statement(sql) }

    /// True when the table exists.
    func tableExists(_ name: String) throws(ProjectionError) -> Bool { try db.tableExists(name) }

    /// See ``ProjectionBackend/checkpointAside()``: wait for the task before this connection
    /// empties the log (`wal_checkpoint(TRUNCATE)`), which needs the checkpoint lock.
    func checkpointAside() -> BackgroundTask<Void>? { db.checkpointAside() }

    /// Runs `body` in a write transaction (one writer at a time); rolls back and rethrows when
    /// it throws.
    func transaction<R>(_ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        let db = db
        try db.beginWrite()
        do {
            let result = try body()
            try db.commit()
            return result
        } catch {
            db.rollback() // the first error is the one reported
            throw error
        }
    }

    /// Runs `body` inside a read transaction, so it sees one consistent snapshot.
    func readTransaction<R>(_ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        let db = db
        try db.beginRead()
        do {
            let result = try body()
            try db.commit()
            return result
        } catch {
            db.rollback()
            throw error
        }
    }

    /// A single-row, single-integer query (nil when no row or NULL).
    func scalarInt(_ sql: String, _ binds: [Int64] = []) throws(ProjectionError) -> Int64? {
        let st = try statement(sql)
        for (i, value) in binds.enumerated() { st.bind(Int32(i + 1), value) }
        defer { st.reset() } // a statement left on a row would lock its table
        guard try st.step(), !st.isNull(0) else { return nil }
        return st.int(0)
    }
}

/// A statement with the engine's argument order and error type, on either engine.
///
/// `run()` is for statements without results; on PostgreSQL, inside a transaction, it may be
/// queued and sent with the next ones in one pipeline (its error then surfaces at the next
/// `step()`, `execute` or commit, still inside the transaction, which rolls back).
struct Statement {
    private enum Engine {
        case sqlite(SQLiteStatement)
        case postgres(PostgresProjectionStatement)
    }

    private let engine: Engine

    init(_ statement: SQLiteStatement) { engine = .sqlite(statement) }
    init(_ statement: PostgresProjectionStatement) { engine = .postgres(statement) }

    func reset() {
        switch engine {
        case let .sqlite(st): st.reset()
        case let .postgres(st): st.reset()
        }
    }

    func bind(_ index: Int32, _ value: Int64) {
        switch engine {
        case let .sqlite(st): st.bind(value, at: index)
        case let .postgres(st): st.bind(index, .int64(value))
        }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        switch engine {
        case let .sqlite(st): st.bind(value, at: index)
        case let .postgres(st): st.bind(index, value.map { .int64($0) } ?? .null)
        }
    }

    func bind(_ index: Int32, _ value: String) {
        switch engine {
        case let .sqlite(st): st.bind(value, at: index)
        case let .postgres(st): st.bind(index, .text(value))
        }
    }

    /// Binds a text of a ``TextArena`` (NULL for a nil span) without a copy on SQLite: the
    /// arena's bytes must stay where they are until the statement has run.
    func bind(_ index: Int32, _ span: TextArena.Span, in texts: TextArena.Bytes) {
        switch engine {
        case let .sqlite(st):
            if let bytes = texts[span] { st.bind(noCopyText: bytes, at: index) } else { st.bindNull(at: index) }
        case let .postgres(st):
            st.bind(index, texts[span].map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null)
        }
    }

    func bind(_ index: Int32, _ value: String?) {
        switch engine {
        case let .sqlite(st): st.bind(value, at: index)
        case let .postgres(st): st.bind(index, value.map { .text($0) } ?? .null)
        }
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws(ProjectionError) -> Bool {
        switch engine {
        case let .sqlite(st):
            do { return try st.step() } catch { throw ProjectionError(error, "read models") }
        case let .postgres(st):
            return try st.step()
        }
    }

    /// Runs to completion (statements without results).
    func run() throws(ProjectionError) {
        switch engine {
        case let .sqlite(st):
            do { try st.run() } catch { throw ProjectionError(error, "read models") }
        case let .postgres(st):
            try st.run()
        }
    }

    func isNull(_ column: Int32) -> Bool {
        switch engine {
        case let .sqlite(st): return st.isNull(at: column)
        case let .postgres(st): return st.isNull(column)
        }
    }

    /// An integer column (PostgreSQL: any integer, `numeric` without fraction, or boolean as 0/1).
    func int(_ column: Int32) -> Int64 {
        switch engine {
        case let .sqlite(st): return st.int64(at: column)
        case let .postgres(st): return st.int(column)
        }
    }

    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }

    /// A text column; on either engine an integer or boolean column reads as its decimal text
    /// (`1`, `0` for booleans), as SQLite does.
    func text(_ column: Int32) -> String {
        switch engine {
        case let .sqlite(st): return st.text(at: column)
        case let .postgres(st): return st.text(column)
        }
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

extension ProjectionError {
    /// Wraps a SQLite failure: what was being done, SQLite's message and its result code.
    init(_ error: SQLiteError, _ context: String) {
        self.init(error.isBusy ? .busy : .database, "\(context): \(error.description)", backendCode: error.extendedCode)
    }
}
