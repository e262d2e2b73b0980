import JournalCore

/// Reads the fields of one event's `data` object with the catalog's rules: `null` means absent,
/// integers are JSON integers (no fraction, no exponent), and every failure names the field.
struct FieldReader {
    /// Where the fields are read from.
    enum Source {
        /// A parsed `data` object.
        case object(JSONObject)
        /// `data` read in place from its stored bytes, for a fold (see ``JSONFlatObject``).
        case flat(JSONFlatObject)
    }

    let eventType: String
    let source: Source
    /// For an object inside an array field (`methods[1]`): the array's key and the index. The
    /// path text is built only when an error is reported.
    var element: (key: String, index: Int)?

    init(_ eventType: String, _ data: JSONObject, element: (key: String, index: Int)? = nil) {
        self.eventType = eventType
        self.source = .object(data)
        self.element = element
    }

    init(_ eventType: String, flat: JSONFlatObject) {
        self.eventType = eventType
        self.source = .flat(flat)
    }

    /// The whole `data` object (made from the bytes when read flat).
    var data: JSONObject {
        switch source {
        case let .object(data): return data
        case let .flat(flat): return flat.object
        }
    }

    /// `data` as a decoded payload keeps it: nil when read flat, where the event lives only
    /// for one fold step and its `data` is never asked for (see ``CatalogPayload/received``).
    var keptData: JSONObject? {
        switch source {
        case let .object(data): return data
        case .flat: return nil
        }
    }

    func fail(_ kind: EventDecodingError.Kind, _ key: String, _ rule: String) -> EventDecodingError {
        let field = element.map { "\($0.key)[\($0.index)].\(key)" } ?? key
        return EventDecodingError(kind: kind, eventType: eventType, field: field, rule: rule)
    }

    func invalid(_ key: String, _ rule: String) -> EventDecodingError { fail(.invalidValue, key, rule) }

    /// The value of `key`, or nil when absent or `null`.
    @inline(__always)
    func value(_ key: String) -> JSONValue? {
        switch source {
        case let .object(data):
            // Comparing lengths first skips most of the string comparisons with the other keys.
            let length = key.utf8.count
            for entry in data.entries where entry.key.utf8.count == length && entry.key == key {
                if case .null = entry.value { return nil }
                return entry.value
            }
            return nil
        case let .flat(flat):
            guard let value = flat.value(forKey: key) else { return nil }
            if case .null = value { return nil }
            return value
        }
    }

    func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> EventDecodingError {
        fail(.wrongType, key, "must be \(expected), got \(value.typeName)")
    }

    /// The field `key`, read as a `V` (see ``FieldValue``).
    func read<V: FieldValue>(_ key: String, as _: V.Type = V.self) throws(EventDecodingError) -> V {
        try V.read(self, key)
    }

    func enumValue<E: CatalogValue>(_ key: String, _ raw: String, _: E.Type) throws(EventDecodingError) -> E {
        // A linear scan of a static table: the values are short strings compared in place,
        // faster than the synthesized `init(rawValue:)` on the import hot path.
        for value in E.catalogValues where value.rawValue == raw { return value }
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw invalid(key, "must be one of \(allowed), got \(ValueEcho.describe(raw))")
    }
}

/// A value set of the catalog: a `String`-backed enumeration with a static table of its cases.
protocol CatalogValue: FieldValue, RawRepresentable, CaseIterable where RawValue == String {
    /// Every case, in declaration order (`allCases` builds a new array on every call).
    static var catalogValues: [Self] { get }
}

extension MessageVersion: CatalogValue { static let catalogValues = allCases }
extension TransStatus: CatalogValue { static let catalogValues = allCases }
extension ChallengeTransStatus: CatalogValue { static let catalogValues = allCases }
extension ChallengeCompletion: CatalogValue { static let catalogValues = allCases }
extension ACSUIType: CatalogValue { static let catalogValues = allCases }
extension ChallengeAction: CatalogValue { static let catalogValues = allCases }
extension ErrorComponent: CatalogValue { static let catalogValues = allCases }
extension InputMethod: CatalogValue { static let catalogValues = allCases }
extension EligibilityOutcome: CatalogValue { static let catalogValues = allCases }
extension IDVMethodType: CatalogValue { static let catalogValues = allCases }
extension ActivationRequiredState: CatalogValue { static let catalogValues = allCases }
extension OTPRejectionReason: CatalogValue { static let catalogValues = allCases }
extension ActivationFailureReason: CatalogValue { static let catalogValues = allCases }
