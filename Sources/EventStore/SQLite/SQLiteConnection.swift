import CJournalVFS
import CSQLite
import JournalCore

/// One SQLite connection: the only place in the package that calls the sqlite3 C API on a
/// connection handle. `SQLiteStatement` wraps the statement handle the same way.
///
/// A connection is **not** thread-safe and not `Sendable`: it is opened with
/// `SQLITE_OPEN_NOMUTEX`, so its owner must serialize every use (the event store does, see
/// `SQLiteEventStore`). Other modules (the projections) open their own connection to the same
/// file; WAL mode lets readers run while one writer commits.
///
/// ```swift
/// let db = try SQLiteConnection(path: "journal.db")
/// try db.execute("CREATE TABLE IF NOT EXISTS counts(name TEXT PRIMARY KEY, n INTEGER)")
/// try db.transaction {
///     let insert = try db.cached("INSERT INTO counts VALUES (?, ?)")
///     insert.bind("otp", at: 1); insert.bind(Int64(3), at: 2)
///     try insert.run()
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/open.html>
package final class SQLiteConnection {
    package struct Options: Sendable {
        /// Open with `SQLITE_OPEN_READONLY`: every write fails with `SQLITE_READONLY`.
        package var readOnly: Bool = false
        /// Create the file when it does not exist (ignored when `readOnly`).
        package var create: Bool = true
        /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
        package var busyTimeoutMilliseconds: Int32 = 5_000
        /// Switch the database to WAL mode on open (needs write access).
        package var walMode: Bool = true
        /// `PRAGMA synchronous`: 2 = FULL (an fsync per commit), 1 = NORMAL, 0 = OFF.
        package var synchronous: Int32 = 2

        package init(
            readOnly: Bool = false, create: Bool = true, busyTimeoutMilliseconds: Int32 = 5_000,
            walMode: Bool = true, synchronous: Int32 = 2
        ) {
            self.readOnly = readOnly
            self.create = create
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.walMode = walMode
            self.synchronous = synchronous
        }
    }

    /// Kinds of `BEGIN`. Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    package enum TransactionKind: Sendable {
        case deferred
        case immediate
        case exclusive
    }

    package let path: String
    let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    private var isClosed = false

    /// Opens (and by default creates) the database at `path`; `:memory:` is a private in-memory
    /// database. Sets the busy timeout, then WAL mode and `synchronous` unless read-only.
    package init(path: String, options: Options = Options()) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
        if options.readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if options.create {
                flags |= SQLITE_OPEN_CREATE
                Self.createOwnerOnly(path)
            }
        }
        var db = try Self.open(path, flags: flags)
        if options.readOnly && path != ":memory:" && !path.isEmpty {
            db = try Self.readableOnReadOnlyMedia(db, path: path, flags: flags)
        }
        self.path = path
        self.handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds)
        if !options.readOnly {
            if options.walMode && path != ":memory:" {
                try execute("PRAGMA journal_mode=WAL")
            }
            try execute("PRAGMA synchronous=\(options.synchronous)")
        }
    }

    deinit { close() }

    /// Creates a missing database file with mode 0600 before SQLite opens it: SQLite would create
    /// it 0644 (less the umask), and gives its `-wal`, `-shm` and `-journal` files the database
    /// file's mode, so the whole journal stays readable by its owner only (spec §4). An
    /// existing file is left as it is; a failure here is left for `sqlite3_open_v2` to report.
    private static func createOwnerOnly(_ path: String) {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return }
        (try? FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive], permissions: 0o600))?.close()
    }

    /// Process-wide settings, applied once before the first connection opens: no memory
    /// statistics, which nobody reads and which cost a global mutex on every allocation SQLite
    /// makes (BENCHMARKS.md, "Append path").
    private static let processSettings: Void = { _ = csqlite_disable_memory_statistics() }()

    private static func open(_ path: String, flags: Int32) throws(SQLiteError) -> OpaquePointer {
        Self.processSettings
        var db: OpaquePointer?
        // The journal's VFS (CJournalVFS: a WAL commit's frames in one write); SQLite's default
        // when it could not be registered, which only costs speed.
        let rc = sqlite3_open_v2(path, &db, flags, journal_vfs_register())
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let code = db.map { sqlite3_extended_errcode($0) } ?? rc
            // "Whether or not an error occurs when it is opened, resources associated with the
            // database connection handle should be released by passing it to sqlite3_close()."
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: code, operation: "open", message: message)
        }
        return db
    }

    /// `db`, opened read-only, if it can read; else, when the reason is that no `-shm` is there
    /// and none can be made beside it (a read-only file system, a folder this user may not
    /// write), the same file opened without the shared-memory index:
    /// - no `-wal`, or an empty one: the database file holds every commit, opened `immutable=1`;
    /// - a `-wal` with frames (a copy of a journal that was open when it was copied): opened with
    ///   the `unix-none` VFS in `EXCLUSIVE` locking mode, so SQLite reads the WAL into an index
    ///   in its own memory instead of the `-shm` file, and the commits in the WAL are read.
    ///
    /// Neither takes a lock, so each is right only when nobody writes the file. Here nobody
    /// can: every connection to a WAL-mode database keeps its `-shm` file, so none is open, and
    /// a writer would need to create one where this process cannot. An existing `-shm` is read
    /// by SQLite itself (read-only, its `readonly_shm` path), which does see a live writer.
    /// Nothing is written or created beside the file either way.
    /// Related SQLite documentation: <https://www.sqlite.org/wal.html#readonly>,
    /// <https://www.sqlite.org/uri.html#uriimmutable>, <https://www.sqlite.org/pragma.html#pragma_locking_mode>
    private static func readableOnReadOnlyMedia(_ db: OpaquePointer, path: String, flags: Int32)
        throws(SQLiteError) -> OpaquePointer
    {
        guard cannotMakeSharedMemory(db), !FileSystem.exists(path + "-shm") else { return db }
        sqlite3_close_v2(db)
        let uri = "file:" + Self.uriPath(path)
        guard hasContent(path + "-wal") else {
            return try Self.open(uri + "?immutable=1", flags: flags | SQLITE_OPEN_URI)
        }
        let lockless = try Self.open(uri + "?vfs=unix-none", flags: flags | SQLITE_OPEN_URI)
        // Before the first read: the WAL index then lives in this connection's memory.
        let rc = sqlite3_exec(lockless, "PRAGMA locking_mode = EXCLUSIVE", nil, nil, nil)
        guard rc == SQLITE_OK else {
            let failure = SQLiteError(
                extendedCode: sqlite3_extended_errcode(lockless), operation: "open",
                message: String(cString: sqlite3_errmsg(lockless)))
            sqlite3_close_v2(lockless)
            throw failure
        }
        return lockless
    }

    /// True when reading fails because the `-shm` file cannot be made: `SQLITE_READONLY_DIRECTORY`
    /// (a folder this user may not write) or `SQLITE_CANTOPEN` (a read-only file system).
    private static func cannotMakeSharedMemory(_ db: OpaquePointer) -> Bool {
        let rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nil, nil, nil)
        guard rc != SQLITE_OK else { return false }
        let code = sqlite3_extended_errcode(db)
        return code == SQLITE_READONLY | (6 << 8) || code & 0xFF == SQLITE_CANTOPEN
    }

    private static func hasContent(_ path: String) -> Bool {
        ((try? FileStatus.of(path))?.size ?? 0) > 0
    }

    /// `path` for a `file:` URI: `%`, `?`, `#` and control bytes percent-encoded.
    private static func uriPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte < 0x20 {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Finalizes the cached statements and closes the connection. Idempotent. Statements from
    /// `prepare` that are still alive keep SQLite's side of the connection open until they are
    /// released (SQLite then closes it, and the last connection to a file checkpoints its WAL).
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in cache.values { statement.finalize() }
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// Runs one or more statements without results (DDL, pragmas, `BEGIN`/`COMMIT`).
    package func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, "exec", sql: sql) }
    }

    /// Prepares a statement that the caller owns (finalized when released).
    package func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw error(rc == SQLITE_OK ? SQLITE_MISUSE : rc, "prepare", sql: sql)
        }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// A prepared statement from this connection's cache, reset and with its bindings cleared.
    package func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    /// Runs `sql` and returns the first column of the first row as an integer (nil: no row/NULL).
    package func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try cached(sql)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    // MARK: - Transactions

    package func begin(_ kind: TransactionKind = .immediate) throws(SQLiteError) {
        switch kind {
        case .deferred: try execute("BEGIN DEFERRED")
        case .immediate: try execute("BEGIN IMMEDIATE")
        case .exclusive: try execute("BEGIN EXCLUSIVE")
        }
    }

    package func commit() throws(SQLiteError) { try execute("COMMIT") }

    /// Rolls back when a transaction is open; never throws (a failed rollback leaves SQLite to
    /// roll back on the next statement, and the caller is already reporting the first error).
    package func rollback() {
        guard !isAutocommit else { return }
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back and rethrows the first
    /// error when it throws.
    package func transaction<R>(_ kind: TransactionKind = .immediate, _ body: () throws -> R) throws -> R {
        try begin(kind)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// True outside a transaction (also after SQLite rolled one back on its own, e.g. on
    /// `SQLITE_FULL`). Related SQLite documentation: <https://www.sqlite.org/c3ref/get_autocommit.html>
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// True when the connection cannot write (opened read-only, or the file is read-only).
    package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rows changed since the connection opened (every INSERT/UPDATE/DELETE, triggers excluded).
    package var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many writes SQLite made to this connection's WAL file, and how many reached the file
    /// (CJournalVFS gathers a commit's into one); nil without a WAL opened through the VFS.
    package var walWrites: (received: Int64, issued: Int64)? {
        var received: sqlite3_int64 = 0
        var issued: sqlite3_int64 = 0
        guard journal_vfs_wal_writes(handle, &received, &issued) == 0 else { return nil }
        return (received, issued)
    }

    /// SQLite's library version, e.g. `3.40.1`.
    package static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: - Errors

    func error(_ rc: Int32, _ operation: String, sql: String? = nil) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        // The connection's last error belongs to the last failed call on it; when rc is a
        // primary code that matches, prefer the extended one.
        let code = (extended & 0xFF) == (rc & 0xFF) ? extended : rc
        return SQLiteError(
            extendedCode: code, operation: operation,
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

@available(*, unavailable, message: "a connection must be used from one thread at a time")
extension SQLiteConnection: Sendable {}
