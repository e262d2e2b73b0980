import CSQLite
import Synchronization

/// The raw baseline: the same rows through the SQLite C API into a minimal table, with the
/// journal's pragmas (WAL, `synchronous=FULL`), and nothing else: no hashing, no compression, no
/// JSON, no secondary index. What SQLite itself allows on this machine.
///
/// ```sql
/// CREATE TABLE events(position INTEGER PRIMARY KEY, stream TEXT NOT NULL,
///                     version INTEGER NOT NULL, payload BLOB NOT NULL)
/// ```
/// The group-commit writers share one connection: each call takes it under `connection`'s lock.
final class RawSQLite: Sendable {
    private let connection: Mutex<Connection>

    init(path: String) throws(BenchError) {
        connection = Mutex(try Connection(path: path))
    }

    /// Inserts the rows in one transaction (`BEGIN IMMEDIATE` … `COMMIT`, one fsync).
    func append(_ rows: ArraySlice<RawRow>) throws(BenchError) {
        try connection.withLock { connection throws(BenchError) in try connection.append(rows) }
    }

    /// Reads the whole table in pages of `pageSize`, copying each row out, and returns the count.
    func readAll(pageSize: Int = 1_000) throws(BenchError) -> Int {
        try connection.withLock { connection throws(BenchError) in try connection.readAll(pageSize: pageSize) }
    }
}

/// The SQLite connection of a `RawSQLite`, and its insert statement.
private final class Connection {
    private let db: OpaquePointer
    private let insert: OpaquePointer

    init(path: String) throws(BenchError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchError("raw open", "cannot open \(path)")
        }
        db = handle
        sqlite3_busy_timeout(db, 10_000)
        for sql in [
            "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
            """
            CREATE TABLE IF NOT EXISTS events(position INTEGER PRIMARY KEY, stream TEXT NOT NULL,
              version INTEGER NOT NULL, payload BLOB NOT NULL)
            """
        ] {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                let message = String(cString: sqlite3_errmsg(db))
                sqlite3_close_v2(db)
                throw BenchError("raw setup", message)
            }
        }
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v3(
                db, "INSERT INTO events(stream, version, payload) VALUES(?,?,?)", -1,
                UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            sqlite3_close_v2(db)
            throw BenchError("raw prepare", "insert")
        }
        insert = statement
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close_v2(db)
    }

    private func exec(_ sql: String) throws(BenchError) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("raw \(sql)", String(cString: sqlite3_errmsg(db)))
        }
    }

    func append(_ rows: ArraySlice<RawRow>) throws(BenchError) {
        try exec("BEGIN IMMEDIATE")
        for row in rows {
            row.stream.withCString { stream in
                _ = sqlite3_bind_text(insert, 1, stream, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            sqlite3_bind_int64(insert, 2, row.version)
            row.payload.withUnsafeBytes { raw in
                _ = sqlite3_bind_blob(
                    insert, 3, raw.baseAddress, Int32(raw.count),
                    unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            let rc = sqlite3_step(insert)
            sqlite3_reset(insert)
            guard rc == SQLITE_DONE else {
                _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                throw BenchError("raw insert", String(cString: sqlite3_errmsg(db)))
            }
        }
        try exec("COMMIT")
    }

    func readAll(pageSize: Int) throws(BenchError) -> Int {
        var statement: OpaquePointer?
        guard
            sqlite3_prepare_v2(
                db,
                "SELECT position, stream, version, payload FROM events WHERE position >= ? ORDER BY position LIMIT ?",
                -1, &statement, nil) == SQLITE_OK, let statement
        else {
            throw BenchError("raw prepare", "select")
        }
        defer { sqlite3_finalize(statement) }
        var position: Int64 = 1
        var count = 0
        var page: [RawRow] = []
        page.reserveCapacity(pageSize)
        while true {
            sqlite3_bind_int64(statement, 1, position)
            sqlite3_bind_int64(statement, 2, Int64(pageSize))
            page.removeAll(keepingCapacity: true)
            while sqlite3_step(statement) == SQLITE_ROW {
                position = sqlite3_column_int64(statement, 0) + 1
                let stream = String(cString: sqlite3_column_text(statement, 1))
                let length = Int(sqlite3_column_bytes(statement, 3))
                let payload =
                    length == 0
                    ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 3), count: length))
                page.append(RawRow(stream: stream, version: sqlite3_column_int64(statement, 2), payload: payload))
            }
            sqlite3_reset(statement)
            count += page.count
            if page.count < pageSize { return count }
        }
    }
}

extension RawSQLite {
    /// Moves everything from the WAL into the database file and truncates the WAL
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so file sizes compare steady states. Touches nothing
    /// else in the file.
    static func checkpoint(path: String) {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            return
        }
        sqlite3_busy_timeout(handle, 10_000)
        _ = sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
        sqlite3_close_v2(handle)
    }
}

/// A raw baseline row: stream name, version and the event's data bytes.
struct RawRow: Sendable {
    let stream: String
    let version: Int64
    let payload: [UInt8]
}
