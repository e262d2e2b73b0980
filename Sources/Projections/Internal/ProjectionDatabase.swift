import CSQLite

// The projections' own SQLite connection to the journal's database file. Every sqlite3 call of
// this module goes through this file; status codes become `ProjectionError` in `check` only.
//
// One connection, used from one thread at a time (the engine is not shared across threads).

/// A connection to the database that holds the read models.
final class ProjectionDatabase {
    private(set) var handle: OpaquePointer?
    private var cache: [String: Statement] = [:]

    /// Opens (and, when `create`, creates) the database at `path`.
    init(path: String, create: Bool) throws(ProjectionError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)  // required even when opening failed
            throw ProjectionError(.database, "cannot open \(path): \(message)", backendCode: rc)
        }
        handle = db
        sqlite3_busy_timeout(db, 10_000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA temp_store=MEMORY")
        try execute("PRAGMA cache_size=-65536")
    }

    deinit { assert(handle == nil, "ProjectionDatabase must be closed explicitly") }

    func close() {
        cache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private var db: OpaquePointer {
        guard let handle else { preconditionFailure("ProjectionDatabase used after close") }
        return handle
    }

    func check(_ rc: Int32, _ what: @autoclosure () -> String) throws(ProjectionError) {
        guard rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW else {
            let message = String(cString: sqlite3_errmsg(db))
            let code: ProjectionError.Code = (rc & 0xFF) == SQLITE_BUSY ? .busy : .database
            throw ProjectionError(code, "\(what()): \(message)", backendCode: rc)
        }
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(ProjectionError) {
        try check(sqlite3_exec(db, sql, nil, nil, nil), "sqlite: \(sql.prefix(60))")
    }

    /// A prepared statement, cached by its text.
    func statement(_ sql: String) throws(ProjectionError) -> Statement {
        if let cached = cache[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        try check(sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil),
                  "prepare \(sql.prefix(60))")
        guard let raw else { throw ProjectionError(.database, "empty statement \(sql.prefix(60))") }
        let statement = Statement(raw, database: self)
        cache[sql] = statement
        return statement
    }

    /// Drops cached statements (needed before renaming or dropping tables they use).
    func clearStatementCache() { cache.removeAll() }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction; rolls back and rethrows when it throws.
    func transaction<R>(_ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)  // the first error is the one reported
            throw error
        }
    }

    /// Runs `body` inside a read transaction so it sees one consistent snapshot.
    func readTransaction<R>(_ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    func tableExists(_ name: String) throws(ProjectionError) -> Bool {
        let st = try statement("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?")
        st.bind(1, name)
        return try st.step()
    }

    /// Executes a single-row, single-integer query (nil when no row or NULL).
    func scalarInt(_ sql: String, _ binds: [Int64] = []) throws(ProjectionError) -> Int64? {
        let st = try statement(sql)
        for (i, value) in binds.enumerated() { st.bind(Int32(i + 1), value) }
        guard try st.step(), !st.isNull(0) else { return nil }
        return st.int(0)
    }
}

/// A prepared statement owned by its connection's cache; finalized in `deinit`.
final class Statement {
    private let raw: OpaquePointer
    private unowned let database: ProjectionDatabase

    init(_ raw: OpaquePointer, database: ProjectionDatabase) {
        self.raw = raw
        self.database = database
    }

    deinit { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    // Bind failures are programmer errors (wrong index), never I/O: they trap in debug only.
    func bind(_ index: Int32, _ value: Int64) {
        let rc = sqlite3_bind_int64(raw, index, value)
        assert(rc == SQLITE_OK, "bind int at \(index)")
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(raw, index) }
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(raw, index, value)
    }

    func bind(_ index: Int32, _ value: String) {
        let rc = sqlite3_bind_text(raw, index, value, -1, csqlite_transient())
        assert(rc == SQLITE_OK, "bind text at \(index)")
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(raw, index) }
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws(ProjectionError) -> Bool {
        let rc = sqlite3_step(raw)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        try database.check(rc, "step \(String(cString: sqlite3_sql(raw)).prefix(60))")
        return false
    }

    /// Runs to completion (for statements without results).
    func run() throws(ProjectionError) {
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}
