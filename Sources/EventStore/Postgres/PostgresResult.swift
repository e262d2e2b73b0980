import CLibPQ

/// The rows of one statement, fetched in the binary format. Owns its `PGresult` (cleared in
/// `deinit`, which cannot fail). Column accessors trap on a type mismatch: the store's own
/// queries fix every column's type, so a mismatch is a programming error.
package final class PostgresResult {
    let handle: OpaquePointer
    /// The libpq of the connection that made the result.
    private let pq: LibPQ

    init(handle: OpaquePointer, pq: LibPQ) {
        self.handle = handle
        self.pq = pq
    }

    deinit { pq.clear(handle) }

    package var rowCount: Int { Int(pq.ntuples(handle)) }
    package var columnCount: Int { Int(pq.nfields(handle)) }

    /// Rows changed by an INSERT/UPDATE/DELETE (0 when not applicable).
    package var affectedRows: Int { pq.cmdTuples(handle).flatMap { Int(String(cString: $0)) } ?? 0 }

    /// The type OID of a column (`pg_type.oid`: 20 bigint, 25 text, 16 boolean, 1700 numeric,
    /// …), for callers whose queries do not fix every column's type.
    package func columnType(_ column: Int) -> UInt32 { UInt32(pq.ftype(handle, Int32(column))) }

    package func isNull(_ row: Int, _ column: Int) -> Bool {
        pq.getisnull(handle, Int32(row), Int32(column)) == 1
    }

    /// A bigint, integer or smallint column (binary format: big-endian two's complement).
    package func int64(_ row: Int, _ column: Int) -> Int64 {
        withBytes(row, column) { bytes in
            precondition(
                bytes.count == 8 || bytes.count == 4 || bytes.count == 2,
                "column \(column) is not an integer") // a query/decoder mismatch is a bug
            var value: UInt64 = bytes[0] & 0x80 == 0 ? 0 : .max
            for byte in bytes { value = value << 8 | UInt64(byte) }
            return Int64(bitPattern: value)
        }
    }

    package func optionalInt64(_ row: Int, _ column: Int) -> Int64? {
        isNull(row, column) ? nil : int64(row, column)
    }

    /// A text column as UTF-8 (binary format = the text's bytes).
    package func text(_ row: Int, _ column: Int) -> String {
        withBytes(row, column) { String(decoding: $0, as: UTF8.self) }
    }

    package func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        withBytes(row, column) { Array($0) }
    }

    /// The raw bytes of a value, valid only inside `body` (empty for NULL).
    package func withBytes<R, E: Error>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R)
        throws(E) -> R
    {
        let length = Int(pq.getlength(handle, Int32(row), Int32(column)))
        guard length > 0, let pointer = pq.getvalue(handle, Int32(row), Int32(column)) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: pointer, count: length))
    }
}

@available(*, unavailable, message: "a result belongs to the thread that ran its query")
extension PostgresResult: Sendable {}
