/// A horizontal bar chart as inline SVG: one group of bars per label, one bar per series (a
/// legend names the series when there are several). Sizes come from the values only, so the
/// same numbers always draw the same picture.
package struct BarChart {
    package struct Bar {
        var value: Double
        var text: String
    }

    package struct Group {
        var label: String
        var bars: [Bar]
    }

    /// Unique in the page: the SVG's title and description ids derive from it.
    var id: String
    var title: String
    /// One sentence for a screen reader: what is drawn, and where the numbers are.
    var summary: String
    var series: [String]
    var groups: [Group]

    static let width = 720.0
    static let labelWidth = 230.0
    static let valueWidth = 90.0
    static let barHeight = 16.0

    var svg: String {
        let barArea = Self.width - Self.labelWidth - Self.valueWidth
        let maximum = groups.flatMap(\.bars).map(\.value).max() ?? 0
        let legendHeight = series.count > 1 ? 24.0 : 0
        var y = legendHeight + 6
        var body = ""
        if series.count > 1 {
            var x = Self.labelWidth
            for (index, name) in series.enumerated() {
                body += "<rect class=\"s\(index % 4)\" x=\"\(HTML.coordinate(x))\" y=\"6\" width=\"12\" height=\"12\"/>"
                body += "<text x=\"\(HTML.coordinate(x + 16))\" y=\"16\">\(HTML.escape(name))</text>"
                x += 24 + Double(name.count) * 7.5
            }
        }
        for group in groups {
            let groupHeight = Double(group.bars.count) * (Self.barHeight + 3)
            body +=
                "<text class=\"label\" x=\"\(HTML.coordinate(Self.labelWidth - 8))\" "
                + "y=\"\(HTML.coordinate(y + groupHeight / 2 + 4))\" "
                + "text-anchor=\"end\">\(HTML.escape(group.label))</text>"
            for (index, bar) in group.bars.enumerated() {
                let length = maximum > 0 ? max(0, bar.value) / maximum * barArea : 0
                body +=
                    "<rect class=\"s\(index % 4)\" "
                    + "x=\"\(HTML.coordinate(Self.labelWidth))\" y=\"\(HTML.coordinate(y))\" "
                    + "width=\"\(HTML.coordinate(max(length, 1)))\" height=\"\(HTML.coordinate(Self.barHeight))\"/>"
                body +=
                    "<text class=\"value\" x=\"\(HTML.coordinate(Self.labelWidth + max(length, 1) + 6))\" "
                    + "y=\"\(HTML.coordinate(y + Self.barHeight - 4))\">\(HTML.escape(bar.text))</text>"
                y += Self.barHeight + 3
            }
            y += 9
        }
        if groups.isEmpty {
            body +=
                "<text class=\"label\" x=\"\(HTML.coordinate(Self.labelWidth))\" y=\"\(HTML.coordinate(y + 14))\">"
                + "nothing in this window</text>"
            y += 24
        }
        let height = y + 4
        // The axis: where every bar starts.
        body +=
            "<rect class=\"axis\" x=\"\(HTML.coordinate(Self.labelWidth - 1))\" y=\"\(HTML.coordinate(legendHeight))\" "
            + "width=\"1\" height=\"\(HTML.coordinate(height - legendHeight))\"/>"
        return ChartFrame.svg(id: id, title: title, summary: summary, width: Self.width, height: height, body: body)
    }
}
