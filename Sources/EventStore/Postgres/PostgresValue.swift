/// A parameter of a PostgreSQL statement, sent in the binary format with its type.
public enum PostgresValue: Sendable {
    case null
    case int64(Int64)
    case text(String)
    case bytea([UInt8])
    case textArray([String])
    case byteaArray([[UInt8]])

    // Type OIDs from pg_type (stable across releases).
    static let int8OID: UInt32 = 20
    static let textOID: UInt32 = 25
    static let byteaOID: UInt32 = 17
    static let textArrayOID: UInt32 = 1009
    static let byteaArrayOID: UInt32 = 1001

    var oid: UInt32 {
        switch self {
        case .null: return 0
        case .int64: return Self.int8OID
        case .text: return Self.textOID
        case .bytea: return Self.byteaOID
        case .textArray: return Self.textArrayOID
        case .byteaArray: return Self.byteaArrayOID
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
        }
    }

    /// A one-dimensional array without NULLs: ndim, has-null flag, element OID, length, lower
    /// bound, then each element as a 4-byte length and its bytes.
    private static func array(_ elements: [[UInt8]], elementOID: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(20 + elements.reduce(0) { $0 + 4 + $1.count })
        out += bigEndian(elements.isEmpty ? 0 : 1, bytes: 4)
        out += bigEndian(0, bytes: 4)
        out += bigEndian(UInt64(elementOID), bytes: 4)
        if !elements.isEmpty {
            out += bigEndian(UInt64(elements.count), bytes: 4)
            out += bigEndian(1, bytes: 4)
        }
        for element in elements {
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
public struct PostgresStatement: Sendable {
    public var sql: String
    public var parameters: [PostgresValue]

    public init(_ sql: String, _ parameters: [PostgresValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}
