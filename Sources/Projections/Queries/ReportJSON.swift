import JournalCore

/// Small builders for the reports' JSON: keys in a fixed, documented order; maps sorted by key.
enum ReportJSON {
    static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { (key: $0.0, value: $0.1) }))
    }

    static func int(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }

    static func optionalInt(_ value: Int64?) -> JSONValue { value.map(int) ?? .null }

    /// A map of counts, sorted by key; zero counts are left out.
    static func counts(_ map: [String: Int64]) -> JSONValue {
        object(map.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map { ($0.key, int($0.value)) })
    }

    /// A map of sub-objects, sorted by key.
    static func map<T>(_ map: [String: T], _ render: (T) -> JSONValue) -> JSONValue {
        object(map.sorted { $0.key < $1.key }.map { ($0.key, render($0.value)) })
    }

    /// A ratio with two decimals (`null` when the denominator is 0).
    static func mean(_ total: Int64, _ count: Int64) -> JSONValue {
        guard count > 0 else { return .null }
        let hundredths = (total * 100 + count / 2) / count // rounded half up, integers only
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        return .number(JSONNumber(uncheckedText: "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"))
    }
}

extension Dictionary where Value == Int64 {
    /// Drops zero counts, so two reports compare equal whatever zeros they carry.
    var nonZero: [Key: Int64] { filter { $0.value != 0 } }
}
