import JournalCore
import Projections

/// How a number of the report reads for people; the raw JSON value stays in `data-value`.
package enum MetricFormat {
    /// An integer count.
    case count
    /// A rate of `rates` (`0.9057`) as `90.57 %`; `–` when null.
    case rate
    /// Milliseconds as `1.2 s`, `14 min`; `–` when null.
    case duration
    /// A mean with two decimals (`2.50`); `–` when null.
    case mean

    func text(_ value: JSONValue?) -> String {
        guard let number = value?.numberValue else { return "–" }
        switch self {
        case .count, .mean: return number.text
        case .rate: return Self.percent(number.text)
        case .duration: return number.int64.map(Readable.duration) ?? number.text
        }
    }

    /// The value a chart draws: the number itself (a rate as 0...1, a duration in ms).
    func magnitude(_ value: JSONValue?) -> Double { value?.numberValue?.double ?? 0 }

    /// `0.9057` → `90.57 %`, `1.0000` → `100.00 %`: the same digits, the point moved by two
    /// (no floating point, so the page shows exactly the decimals the JSON has).
    static func percent(_ decimal: String) -> String {
        let negative = decimal.hasPrefix("-")
        let digits = negative ? String(decimal.dropFirst()) : decimal
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 4, let whole = Int(parts[0]) else { return decimal }
        let fraction = parts[1]
        let hundreds = whole * 100 + (Int(fraction.prefix(2)) ?? 0)
        return (negative ? "-" : "") + "\(hundreds).\(fraction.suffix(2)) %"
    }
}
