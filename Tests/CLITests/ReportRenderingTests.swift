import Foundation
import JournalCore
import Projections
import Testing

@testable import JournalApp
@testable import JournalReport

/// The report's pieces in process: escaping, number text, bucket widths, and the SVG charts.
@Suite("Report rendering")
struct ReportRenderingTests {
    @Test("HTML.escape writes the five markup characters as references and drops control characters")
    func escaping() {
        #expect(
            HTML.escape(#"<a href="x">Tom & 'Jerry'</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(HTML.escape("a\u{0}b\u{1B}c\u{85}d\te\nf") == "abcd\te\nf")
        #expect(HTML.escape("Visa A000000003 é €") == "Visa A000000003 é €")
        #expect(HTML.attribute("data-metric", "x\"y") == #" data-metric="x&quot;y""#)
    }

    @Test("a rate reads as a percentage with the JSON's own digits, no floating point")
    func percentages() {
        #expect(MetricFormat.percent("0.0062") == "0.62 %")
        #expect(MetricFormat.percent("0.9057") == "90.57 %")
        #expect(MetricFormat.percent("1.0000") == "100.00 %")
        #expect(MetricFormat.percent("0.0000") == "0.00 %")
        #expect(MetricFormat.rate.text(.null) == "–")
        #expect(MetricFormat.rate.text(.number(JSONNumber(uncheckedText: "0.0438"))) == "4.38 %")
        #expect(MetricFormat.duration.text(.number(JSONNumber(109_000))) == "1 min 49 s")
        #expect(MetricFormat.mean.text(.number(JSONNumber(uncheckedText: "2.25"))) == "2.25")
    }

    @Test("the rates over time get between about 8 and 100 points, whatever the span")
    func bucketWidths() {
        let minute: Int64 = 60_000
        let hour = 60 * minute
        #expect(ReportData.width(forSpan: 10 * minute) == .minute)
        #expect(ReportData.width(forSpan: 40 * minute) == .minute)
        #expect(ReportData.width(forSpan: 40 * minute + 1) == .fiveMinutes)
        #expect(ReportData.width(forSpan: 3 * hour) == .fiveMinutes)
        #expect(ReportData.width(forSpan: 12 * hour) == .quarterHour)
        #expect(ReportData.width(forSpan: 24 * hour) == .hour)
        #expect(ReportData.width(forSpan: 96 * hour) == .hour)
        #expect(ReportData.width(forSpan: 30 * 24 * hour) == .day)
    }

    @Test("SVG coordinates have at most two decimals and no exponent")
    func coordinates() {
        #expect(HTML.coordinate(12.5) == "12.5")
        #expect(HTML.coordinate(12.05) == "12.05")
        #expect(HTML.coordinate(0.000001) == "0")
        #expect(HTML.coordinate(-3.456) == "-3.46")
        #expect(HTML.coordinate(1e300) == "0")
    }

    @Test("a bar chart is a labelled image with bars in proportion, and an empty one still draws its axis")
    func barChart() {
        let chart = BarChart(
            id: "c1", title: "T <1>", summary: "S & s", series: ["n"],
            groups: [
                BarChart.Group(label: "<b>", bars: [BarChart.Bar(value: 10, text: "10")]),
                BarChart.Group(label: "half", bars: [BarChart.Bar(value: 5, text: "5")])
            ])
        let svg = chart.svg
        #expect(svg.hasPrefix(#"<svg class="chart" id="c1" role="img" aria-labelledby="c1-title c1-desc""#))
        #expect(svg.contains(#"<title id="c1-title">T &lt;1&gt;</title><desc id="c1-desc">S &amp; s</desc>"#))
        #expect(svg.contains("&lt;b&gt;") && !svg.contains("<b>"))
        let full = BarChart.width - BarChart.labelWidth - BarChart.valueWidth
        #expect(svg.contains(#"width="\#(HTML.coordinate(full))""#))
        #expect(svg.contains(#"width="\#(HTML.coordinate(full / 2))""#))
        let empty = BarChart(id: "c2", title: "E", summary: "e", series: ["n"], groups: []).svg
        #expect(empty.contains("nothing in this window") && empty.contains(#"class="axis""#))
    }

    @Test("a line breaks where a rate is undefined, and a lone point is a dot")
    func lineChart() {
        let chart = LineChart(
            id: "l", title: "L", summary: "l", labels: ["a", "b", "c", "d", "e"],
            series: [LineChart.Series(name: "r", values: [0.5, 1, nil, nil, 0.25])],
            volumeName: "n", volume: [1, 2, 0, 0, 1])
        let svg = chart.svg
        let line = svg.components(separatedBy: #"<path class="line s0" d=""#)[1].prefix { $0 != "\"" }
        #expect(line.filter { $0 == "M" }.count == 2)
        #expect(line.filter { $0 == "L" }.count == 1)
        #expect(svg.components(separatedBy: "<circle").count - 1 == 1)
        #expect(svg.components(separatedBy: #"<rect class="volume""#).count - 1 == 1 + 3)
    }
}
