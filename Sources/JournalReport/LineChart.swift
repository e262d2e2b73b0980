/// Rates over time as inline SVG: one line per series on a 0–100 % scale, over light bars of a
/// volume (the streams started per bucket, on their own scale). A bucket whose rate is
/// undefined (nothing to divide by) breaks its line instead of drawing a zero.
package struct LineChart {
    package struct Series {
        var name: String
        /// One per bucket, 0...1; nil where undefined.
        var values: [Double?]
    }

    var id: String
    var title: String
    var summary: String
    /// One label per bucket (shown for a few).
    var labels: [String]
    var series: [Series]
    var volumeName: String
    var volume: [Int64]

    static let width = 720.0, height = 280.0
    static let left = 48.0, right = 56.0, top = 34.0, bottom = 36.0

    var svg: String {
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let count = max(labels.count, 1)
        let step = plotWidth / Double(count)
        func x(_ index: Int) -> Double { Self.left + step * (Double(index) + 0.5) }
        func y(_ rate: Double) -> Double { Self.top + plotHeight * (1 - min(max(rate, 0), 1)) }
        var body = ""
        // Legend.
        var legendX = Self.left
        for (index, item) in series.enumerated() {
            body +=
                "<rect class=\"s\(index % 4)\" x=\"\(HTML.coordinate(legendX))\" y=\"8\" width=\"12\" height=\"4\"/>"
            body += "<text x=\"\(HTML.coordinate(legendX + 16))\" y=\"14\">\(HTML.escape(item.name))</text>"
            legendX += 28 + Double(item.name.count) * 7
        }
        body += "<rect class=\"volume\" x=\"\(HTML.coordinate(legendX))\" y=\"6\" width=\"12\" height=\"8\"/>"
        body += "<text x=\"\(HTML.coordinate(legendX + 16))\" y=\"14\">\(HTML.escape(volumeName))</text>"
        // Volume bars, scaled to the largest bucket.
        let most = volume.max() ?? 0
        for (index, n) in volume.enumerated() where n > 0 && most > 0 {
            let h = plotHeight * Double(n) / Double(most)
            body +=
                "<rect class=\"volume\" x=\"\(HTML.coordinate(x(index) - step * 0.4))\" "
                + "y=\"\(HTML.coordinate(Self.top + plotHeight - h))\" width=\"\(HTML.coordinate(step * 0.8))\" "
                + "height=\"\(HTML.coordinate(h))\"/>"
        }
        // Grid and the rate scale.
        for tick in 0...4 {
            let rate = Double(tick) / 4
            body +=
                "<path class=\"grid\" d=\"M\(HTML.coordinate(Self.left)) \(HTML.coordinate(y(rate)))"
                + "H\(HTML.coordinate(Self.width - Self.right))\"/>"
            body +=
                "<text class=\"label\" x=\"\(HTML.coordinate(Self.left - 6))\" y=\"\(HTML.coordinate(y(rate) + 4))\" "
                + "text-anchor=\"end\">\(tick * 25) %</text>"
        }
        body +=
            "<text class=\"label\" x=\"\(HTML.coordinate(Self.width - Self.right + 6))\" "
            + "y=\"\(HTML.coordinate(Self.top + 4))\">"
            + "\(most)</text>"
        // Bucket labels, at most eight.
        let every = max(1, (labels.count + 7) / 8)
        for (index, label) in labels.enumerated() where index % every == 0 {
            body +=
                "<text class=\"label\" x=\"\(HTML.coordinate(x(index)))\" y=\"\(HTML.coordinate(Self.height - 14))\" "
                + "text-anchor=\"middle\">\(HTML.escape(label))</text>"
        }
        // Lines, broken where a rate is undefined; a lone point is a dot.
        for (index, item) in series.enumerated() {
            var d = ""
            var open = false
            for (bucket, value) in item.values.enumerated() {
                guard let value else {
                    open = false
                    continue
                }
                let isolated = !open && (bucket + 1 >= item.values.count || item.values[bucket + 1] == nil)
                if isolated {
                    body +=
                        "<circle class=\"s\(index % 4)\" cx=\"\(HTML.coordinate(x(bucket)))\" "
                        + "cy=\"\(HTML.coordinate(y(value)))\" r=\"3\"/>"
                }
                d += (open ? "L" : "M") + "\(HTML.coordinate(x(bucket))) \(HTML.coordinate(y(value)))"
                open = true
            }
            if !d.isEmpty { body += "<path class=\"line s\(index % 4)\" d=\"\(d)\"/>" }
        }
        // The axes.
        body +=
            "<path class=\"axis-line\" d=\"M\(HTML.coordinate(Self.left)) \(HTML.coordinate(Self.top))"
            + "V\(HTML.coordinate(Self.top + plotHeight))H\(HTML.coordinate(Self.width - Self.right))\"/>"
        return ChartFrame.svg(
            id: id, title: title, summary: summary, width: Self.width, height: Self.height, body: body)
    }
}
