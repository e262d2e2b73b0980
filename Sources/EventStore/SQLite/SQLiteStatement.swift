import CSQLite
import JournalCore

/// The empty text a no-copy bind of zero bytes points at (static storage: `SQLITE_STATIC`).
nonisolated(unsafe) private let emptyCString: UnsafeMutablePointer<CChar> = {
    let text = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
    text.initialize(to: 0)
    return text
}()

/// A prepared statement. Bind with 1-based indexes, `step()` through rows, read 0-based columns.
///
/// Binding never throws: a failed bind (a value too big for SQLite, say) is remembered and thrown
/// by the next `step()`, so call sites stay linear and nothing half-bound ever runs.
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
package final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    package let sql: String
    private var bindError: SQLiteError?
    private var finalized = false

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { finalize() }

    func finalize() {
        guard !finalized else { return }
        finalized = true
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    private func check(_ rc: Int32, _ index: Int32) {
        if rc != SQLITE_OK && bindError == nil {
            bindError = connection.error(rc, "bind #\(index)", sql: sql)
        }
    }

    package func bind(_ value: Int64, at index: Int32) { check(sqlite3_bind_int64(handle, index, value), index) }

    package func bind(_ value: Int, at index: Int32) { bind(Int64(value), at: index) }

    package func bind(_ value: Double, at index: Int32) { check(sqlite3_bind_double(handle, index, value), index) }

    package func bind(_ value: String, at index: Int32) {
        // The UTF-8 bytes in place (no C-string copy of the text per bind), up to the first NUL
        // as a C string would be.
        var text = value
        let rc = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
            let length = Memory.firstIndex(of: 0, in: base, count: bytes.count) ?? bytes.count
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(length), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        check(rc, index)
    }

    /// Binds bytes as a BLOB (copied by SQLite). An empty array binds a zero-length blob, not NULL.
    package func bind(blob value: [UInt8], at index: Int32) {
        value.withUnsafeBytes { bind(blob: $0, at: index) }
    }

    package func bind(blob value: UnsafeRawBufferPointer, at index: Int32) {
        if value.isEmpty {
            check(sqlite3_bind_zeroblob(handle, index, 0), index)
        } else {
            check(
                sqlite3_bind_blob(
                    handle, index, value.baseAddress, Int32(clamping: value.count),
                    csqlite_transient()), index)
        }
    }

    /// Binds bytes as a BLOB **without copying** (`SQLITE_STATIC`): the memory must stay valid
    /// and unchanged until the statement has run and is reset or rebound.
    package func bind(noCopyBlob value: UnsafeRawBufferPointer, at index: Int32) {
        if value.isEmpty {
            check(sqlite3_bind_zeroblob(handle, index, 0), index)
        } else {
            check(
                sqlite3_bind_blob(
                    handle, index, value.baseAddress, Int32(clamping: value.count),
                    csqlite_static()), index)
        }
    }

    /// Binds UTF-8 bytes as TEXT **without copying** (`SQLITE_STATIC`): the memory must stay
    /// valid and unchanged until the statement has run and is reset or rebound. The bytes are
    /// taken as they are (no stop at a NUL: the caller cuts there if it must).
    package func bind(noCopyText value: UnsafeRawBufferPointer, at index: Int32) {
        guard let base = value.baseAddress, !value.isEmpty else {
            check(sqlite3_bind_text(handle, index, emptyCString, 0, csqlite_static()), index)
            return
        }
        check(
            sqlite3_bind_text64(
                handle, index, base.assumingMemoryBound(to: CChar.self), sqlite3_uint64(value.count),
                csqlite_static(), UInt8(SQLITE_UTF8)), index)
    }

    package func bindNull(at index: Int32) { check(sqlite3_bind_null(handle, index), index) }

    package func bind(_ value: Int64?, at index: Int32) {
        if let value { bind(value, at: index) } else { bindNull(at: index) }
    }

    package func bind(_ value: String?, at index: Int32) {
        if let value { bind(value, at: index) } else { bindNull(at: index) }
    }

    // MARK: - Running

    /// Advances to the next row: true when a row is available, false when done.
    package func step() throws(SQLiteError) -> Bool {
        if let error = bindError {
            bindError = nil
            sqlite3_reset(handle)
            throw error
        }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = connection.error(rc, "step", sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Steps to completion (INSERT/UPDATE/DDL), then resets.
    package func run() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Resets the statement and clears its bindings.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        bindError = nil
    }

    // MARK: - Columns (0-based)

    package var columnCount: Int32 { sqlite3_column_count(handle) }

    package func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// True when the column holds a BLOB (rather than TEXT, INTEGER, …).
    package func isBlob(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_BLOB }

    package func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    package func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    package func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The column as UTF-8 text (an empty string for NULL).
    package func text(at index: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's bytes, copied (empty for NULL or a zero-length blob).
    package func blob(at index: Int32) -> [UInt8] {
        withBlob(at: index) { Array($0) }
    }

    /// The column's bytes (a TEXT column's UTF-8), not copied: valid until the statement steps,
    /// resets, or reads this column as another type.
    package func blobBytes(at index: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// Calls `body` with the column's bytes, valid only inside `body` (no copy).
    package func withBlob<R, E: Error>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R
    {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

@available(*, unavailable, message: "a statement belongs to its connection's thread")
extension SQLiteStatement: Sendable {}
