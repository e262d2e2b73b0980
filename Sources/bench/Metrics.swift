import JournalCore

/// The measured values, in the order they were set, keyed by the metric names BENCHMARKS.md lists.
struct Metrics {
    private(set) var keys: [String] = []
    private var values: [String: Double] = [:]
    /// Keys whose value is a text (mode, notes), written as JSON strings.
    private var texts: [String: String] = [:]

    subscript(key: String) -> Double? {
        get { values[key] }
        set {
            if values[key] == nil && texts[key] == nil { keys.append(key) }
            values[key] = newValue
        }
    }

    mutating func setText(_ key: String, _ text: String) {
        if values[key] == nil && texts[key] == nil { keys.append(key) }
        texts[key] = text
    }

    func text(_ key: String) -> String? { texts[key] }

    /// One JSON object: events per second as integers, milliseconds and ratios with decimals.
    func json() -> String {
        var out = "{\n"
        for (index, key) in keys.enumerated() {
            let value: String
            if let text = texts[key] {
                var bytes: [UInt8] = []
                JSONText.string(text, into: &bytes)
                value = String(decoding: bytes, as: UTF8.self)
            } else {
                value = Metrics.format(key: key, values[key] ?? 0)
            }
            out += "  \"\(key)\": \(value)" + (index == keys.count - 1 ? "\n" : ",\n")
        }
        return out + "}\n"
    }

    static func format(key: String, _ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if key.hasSuffix("_eps") || key.hasSuffix("_events") || key.hasSuffix("_bytes") || key == "runs" {
            return String(Int64(value.rounded()))
        }
        return decimal(value, places: key.hasSuffix("_ms") ? 3 : 2)
    }

    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var fraction = String(scaled % Int64(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (value < 0 ? "-" : "") + "\(whole)." + fraction
    }
}

enum JSONText {
    static func string(_ text: String, into out: inout [UInt8]) { JSONWriter.writeString(text, into: &out) }
}
