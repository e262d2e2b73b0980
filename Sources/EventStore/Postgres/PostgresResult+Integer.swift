/// Integers whatever their SQL type: for queries whose column types are not fixed by the
/// schema (`count(*)` is bigint, `sum(bigint)` is numeric, `x IS NOT NULL` is boolean).
extension PostgresResult {
    // Type OIDs from pg_type (stable across releases).
    static let boolOID: UInt32 = 16
    static let int2OID: UInt32 = 21
    static let int4OID: UInt32 = 23
    static let numericOID: UInt32 = 1700

    /// The value of a smallint, integer, bigint, numeric (its integral part; nil beyond Int64)
    /// or boolean (1 or 0) column; nil for NULL and for every other type.
    package func integer(_ row: Int, _ column: Int) -> Int64? {
        guard !isNull(row, column) else { return nil }
        switch columnType(column) {
        case PostgresValue.int8OID, Self.int4OID, Self.int2OID:
            return int64(row, column)
        case Self.boolOID:
            return withBytes(row, column) { $0.first.map { $0 == 0 ? 0 : 1 } }
        case Self.numericOID:
            return withBytes(row, column) { Self.numericIntegralPart($0) }
        default:
            return nil
        }
    }

    /// Decodes numeric's binary format: ndigits, weight, sign, dscale (16 bits each), then
    /// ndigits base-10,000 digits, the first one worth 10,000^weight. Nil for NaN, infinities,
    /// malformed input or a value outside Int64.
    static func numericIntegralPart(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        func word(_ index: Int) -> Int {
            Int(UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1]))
        }
        guard bytes.count >= 8 else { return nil }
        let ndigits = word(0)
        let weight = Int(Int16(bitPattern: UInt16(word(1))))
        let sign = word(2)
        guard sign == 0x0000 || sign == 0x4000, bytes.count >= 8 + 2 * ndigits else { return nil }
        var value: Int64 = 0
        for place in stride(from: weight, through: 0, by: -1) {
            let index = weight - place
            let digit = index < ndigits ? Int64(word(4 + index)) : 0
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10_000)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return sign == 0x4000 ? -value : value
    }
}
