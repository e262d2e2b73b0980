import JournalCore

/// A rate of `rates` (spec §7): numerator / denominator rounded to 4 decimal places, half to
/// even, from the exact quotient. Integer arithmetic only, so 1/160 is 0.0062 and 7/160 is
/// 0.0438 (a binary floating-point quotient would give 0.00625 → 0.0063 on some inputs and
/// print as `6.25e-03`); `null` when the denominator is 0.
public struct Rate: Sendable, Equatable {
    public var numerator: Int64
    public var denominator: Int64

    public init(_ numerator: Int64, over denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The rate in ten-thousandths, rounded half to even (nil when the denominator is 0).
    public var tenThousandths: Int64? { Self.rounded(numerator, denominator, scale: 10_000) }

    /// numerator × scale / denominator, rounded half to even from the exact quotient (nil when
    /// the denominator is 0). Counts are far below 2⁴⁰, so the product cannot overflow; the
    /// sign is kept apart so the rounding is symmetric.
    static func rounded(_ numerator: Int64, _ denominator: Int64, scale: UInt64) -> Int64? {
        guard denominator != 0 else { return nil }
        let negative = (numerator < 0) != (denominator < 0)
        let n = numerator.magnitude * scale
        let d = denominator.magnitude
        var q = n / d
        let twice = (n % d) * 2
        if twice > d || (twice == d && q % 2 == 1) { q += 1 }
        return negative ? -Int64(q) : Int64(q)
    }

    /// `0.0062`, `1.0000`, or nil when the denominator is 0.
    public var decimalText: String? {
        guard let value = tenThousandths else { return nil }
        let magnitude = value.magnitude
        let fraction = String(magnitude % 10_000)
        return (value < 0 ? "-" : "") + "\(magnitude / 10_000)."
            + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// The JSON number (written exactly as ``decimalText``) or `null`.
    public var json: JSONValue {
        decimalText.map { .number(JSONNumber(uncheckedText: $0)) } ?? .null
    }

    /// For people: `58.25 %` (the same 4 decimals, as a percentage), `-` when undefined.
    public var percentText: String {
        guard let value = tenThousandths else { return "-" }
        let magnitude = value.magnitude
        let fraction = magnitude % 100
        return (value < 0 ? "-" : "") + "\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) %"
    }
}
