import EventStore

// The projections' own connection to the journal's database file, over the store's public
// SQLite wrapper (`SQLiteConnection`, the package's one place that calls sqlite3). This file
// turns `SQLiteError` into `ProjectionError` and gives the engine the few calls it needs.
//
// One connection, used from one thread at a time (an engine is not shared across threads).

/// A connection to the database that holds the read models.
final class ProjectionDatabase {
    private var connection: SQLiteConnection?

    /// Opens (and, when `create`, creates) the database at `path`. The read models can always be
    /// rebuilt from the log, so commits use `synchronous=NORMAL` (no fsync per batch).
    init(path: String, create: Bool) throws(ProjectionError) {
        do {
            connection = try SQLiteConnection(path: path, options: .init(create: create, busyTimeoutMilliseconds: 10_000,
                                                                         walMode: true, synchronous: 1))
            try connection?.execute("PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536")
        } catch {
            connection?.close()
            throw ProjectionError(error, "cannot open the read models in \(path)")
        }
    }

    func close() {
        connection?.close()
        connection = nil
    }

    private var db: SQLiteConnection {
        guard let connection else { preconditionFailure("ProjectionDatabase used after close") }
        return connection
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(ProjectionError) {
        do { try db.execute(sql) } catch { throw ProjectionError(error, "read models") }
    }

    /// A prepared statement from the connection's cache, reset, bindings cleared.
    func statement(_ sql: String) throws(ProjectionError) -> Statement {
        do { return Statement(try db.cached(sql)) } catch { throw ProjectionError(error, "read models") }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction; rolls back and rethrows when it throws.
    func transaction<R>(_ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            db.rollback()  // the first error is the one reported
            throw error
        }
    }

    /// Runs `body` inside a read transaction, so it sees one consistent snapshot.
    func readTransaction<R>(_ body: () throws(ProjectionError) -> R) throws(ProjectionError) -> R {
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
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
        defer { st.reset() }  // a statement left on a row would lock its table
        guard try st.step(), !st.isNull(0) else { return nil }
        return st.int(0)
    }
}

/// A cached statement with the engine's argument order and error type.
struct Statement {
    private let statement: SQLiteStatement

    init(_ statement: SQLiteStatement) { self.statement = statement }

    func reset() { statement.reset() }
    func bind(_ index: Int32, _ value: Int64) { statement.bind(value, at: index) }
    func bind(_ index: Int32, _ value: Int64?) { statement.bind(value, at: index) }
    func bind(_ index: Int32, _ value: String) { statement.bind(value, at: index) }
    func bind(_ index: Int32, _ value: String?) { statement.bind(value, at: index) }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    func step() throws(ProjectionError) -> Bool {
        do { return try statement.step() } catch { throw ProjectionError(error, "read models") }
    }

    /// Runs to completion (statements without results).
    func run() throws(ProjectionError) {
        do { try statement.run() } catch { throw ProjectionError(error, "read models") }
    }

    func isNull(_ column: Int32) -> Bool { statement.isNull(at: column) }
    func int(_ column: Int32) -> Int64 { statement.int64(at: column) }
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    func text(_ column: Int32) -> String { statement.text(at: column) }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

extension ProjectionError {
    /// Wraps a SQLite failure: what was being done, SQLite's message and its result code.
    init(_ error: SQLiteError, _ context: String) {
        self.init(error.isBusy ? .busy : .database, "\(context): \(error.description)", backendCode: error.extendedCode)
    }
}
