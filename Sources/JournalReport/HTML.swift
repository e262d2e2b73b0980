/// Escaping for the report's HTML: every string that reaches the page (keys and values from the
/// journal, the window, titles) goes through ``escape(_:)``, in text and in attribute values.
package enum HTML {
    /// `&`, `<`, `>`, `"` and `'` as character references; control characters other than tab
    /// and line feed dropped (they have no place in a page and would make it invalid).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// ` name="value"`, escaped.
    static func attribute(_ name: String, _ value: String) -> String { " \(name)=\"\(escape(value))\"" }

    /// A number for SVG coordinates: at most two decimals, no exponent.
    static func coordinate(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "0" }
        let n = Int64(hundredths)
        let magnitude = n.magnitude
        let fraction = magnitude % 100
        let whole = "\(n < 0 ? "-" : "")\(magnitude / 100)"
        if fraction == 0 { return whole }
        return whole + "."
            + (fraction < 10 ? "0\(fraction)" : (fraction % 10 == 0 ? "\(fraction / 10)" : "\(fraction)"))
    }
}
