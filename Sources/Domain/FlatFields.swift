import JournalCore

/// The catalog's field rules over a stored `data` read in place (``JSONFlatObject``), for a fold
/// that needs a few of the values and none of the others: each read answers the field's value
/// (or that it is absent) only when ``FieldReader`` would accept it, and nil otherwise. A nil
/// never says why: the caller then decodes the event with ``FieldReader``, which names the field
/// and the rule. No value becomes a `String` unless the fold keeps it.
struct FlatFields {
    let flat: JSONFlatObject

    /// A field's value as its bytes: nil when absent or `null` (the catalog's absent).
    private func present(_ key: String) -> JSONFlatObject.Scalar? {
        switch flat.scalar(forKey: key) {
        case nil, .null: return nil
        case let .some(scalar): return scalar
        }
    }

    /// Absent or `null`: all a flat object can hold of an array field.
    func isAbsent(_ key: String) -> Bool {
        guard case .none = present(key) else { return false }
        return true
    }

    /// A required string field.
    func text(_ key: String) -> UnsafeRawBufferPointer? {
        guard case let .string(bytes) = present(key) else { return nil }
        return bytes
    }

    /// A required string field, as the `String` a state keeps.
    func string(_ key: String) -> String? {
        text(key).map { String(decoding: $0, as: UTF8.self) }
    }

    /// An optional string field: absent, `null` or a string.
    func hasOptionalText(_ key: String) -> Bool {
        switch present(key) {
        case nil, .string: return true
        case .integer, .bool, .null: return false
        }
    }

    /// An optional boolean field: `.some(nil)` when absent, nil when not a boolean.
    func optionalBool(_ key: String) -> Bool?? {
        switch present(key) {
        case nil: return .some(nil)
        case let .bool(value): return .some(value)
        case .string, .integer, .null: return nil
        }
    }

    /// A required boolean field.
    func bool(_ key: String) -> Bool? {
        guard case let .bool(value) = present(key) else { return nil }
        return value
    }

    /// A required integer field that fits an `Int64`.
    func int(_ key: String) -> Int64? {
        guard case let .integer(bytes) = present(key) else { return nil }
        return Self.int64(bytes)
    }

    /// An optional integer field: `.some(nil)` when absent, nil when not an `Int64`.
    func optionalInt(_ key: String) -> Int64?? {
        switch present(key) {
        case nil: return .some(nil)
        case let .integer(bytes): return Self.int64(bytes).map { .some($0) }
        case .string, .bool, .null: return nil
        }
    }

    /// A required field whose string is one of `E`'s values.
    func value<E: CatalogValue>(_ key: String, _: E.Type) -> E? {
        guard let bytes = text(key) else { return nil }
        for value in E.catalogValues where value.rawValue.utf8.elementsEqual(bytes) { return value }
        return nil
    }

    /// A required three-digit counter field.
    func counter(_ key: String) -> ChallengeCounter? {
        guard let bytes = text(key), bytes.count == 3 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return ChallengeCounter(value)
    }

    /// A required string field that is a UUID (either letter case).
    func isUUID(_ key: String) -> Bool {
        guard let bytes = text(key) else { return false }
        return UUIDText.isUUID(bytes.assumingMemoryBound(to: UInt8.self), from: 0, lowercaseOnly: false)
    }

    /// The integer `Int64(text)` makes of an integer's digits, nil when it does not fit.
    private static func int64(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            guard digit >= 0 && digit <= 9 else { return nil }
            let shifted = value.multipliedReportingOverflow(by: 10)
            let next =
                negative
                ? shifted.partialValue.subtractingReportingOverflow(digit)
                : shifted.partialValue.addingReportingOverflow(digit)
            guard !shifted.overflow && !next.overflow else { return nil }
            value = next.partialValue
            index += 1
        }
        return value
    }
}
