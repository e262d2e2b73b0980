/// A parameter of a PostgreSQL statement, sent in the binary format with its type.
package enum PostgresValue: Sendable {
    case null
    case int64(Int64)
    case text(String)
    case bytea([UInt8])
    case textArray([String])
    case byteaArray([[UInt8]])
    /// A bigint array whose nil elements are SQL NULLs.
    case int64Array([Int64?])

    // Type OIDs from pg_type (stable across releases).
    static let int8OID: UInt32 = 20
    static let textOID: UInt32 = 25
    static let byteaOID: UInt32 = 17
    static let textArrayOID: UInt32 = 1009
    static let byteaArrayOID: UInt32 = 1001
    static let int8ArrayOID: UInt32 = 1016

    var oid: UInt32 {
        switch self {
        case .null: return 0
        case .int64: return Self.int8OID
        case .text: return Self.textOID
        case .bytea: return Self.byteaOID
        case .textArray: return Self.textArrayOID
        case .byteaArray: return Self.byteaArrayOID
        case .int64Array: return Self.int8ArrayOID
        }
    }

    /// The binary wire encoding (nil for SQL NULL).
    var encoded: [UInt8]? {
        switch self {
        case .null: return nil
        case let .int64(value): return Self.bigEndian(UInt64(bitPattern: value), bytes: 8)
        case let .text(value): return Array(value.utf8)
        case let .bytea(value): return value
        case let .textArray(values): return Self.array(values.map { Array($0.utf8) }, elementOID: Self.textOID)
        case let .byteaArray(values): return Self.array(values, elementOID: Self.byteaOID)
        case let .int64Array(values):
            return Self.array(
                values.map { $0.map { Self.bigEndian(UInt64(bitPattern: $0), bytes: 8) } }, elementOID: Self.int8OID)
        }
    }

    /// A one-dimensional array: ndim, has-null flag, element OID, length, lower
    /// bound, then each element as a 4-byte length and its bytes.
    private static func array(_ elements: [[UInt8]?], elementOID: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(20 + elements.reduce(0) { $0 + 4 + ($1?.count ?? 0) })
        out += bigEndian(elements.isEmpty ? 0 : 1, bytes: 4)
        out += bigEndian(elements.contains(where: { $0 == nil }) ? 1 : 0, bytes: 4)
        out += bigEndian(UInt64(elementOID), bytes: 4)
        if !elements.isEmpty {
            out += bigEndian(UInt64(elements.count), bytes: 4)
            out += bigEndian(1, bytes: 4)
        }
        for element in elements {
            guard let element else {
                out += bigEndian(UInt64(UInt32.max), bytes: 4) // length -1: NULL
                continue
            }
            out += bigEndian(UInt64(element.count), bytes: 4)
            out += element
        }
        return out
    }

    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
    }
}

/// One statement of a pipeline: SQL text with `$n` placeholders and its parameters.
package struct PostgresStatement: Sendable {
    package var sql: String
    package var parameters: [PostgresValue]
    /// Prepared once per connection and reused (the default), or planned for these parameters
    /// every time: for lookups whose best plan depends on the values (an `= ANY($1)` over an
    /// array of any length), where a cached generic plan may scan the whole table.
    package var prepared: Bool

    package init(_ sql: String, _ parameters: [PostgresValue] = [], prepared: Bool = true) {
        self.sql = sql
        self.parameters = parameters
        self.prepared = prepared
    }
}
