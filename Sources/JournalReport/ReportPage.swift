import Domain
import JournalCore
import Projections

/// The analytics report as one self-contained HTML page: inline CSS, inline SVG charts, a data
/// table beside every chart, no script and nothing fetched (`journal report`; `journal serve`
/// adds its stream browser and a small inline script). Every number is read from ``ReportData``
/// (the queries' JSON) and marked with `data-metric` and `data-value`; every string is escaped;
/// nothing depends on the clock, so the same journal and window give the same bytes.
package struct ReportPage {
    var data: ReportData
    /// HTML placed after the report's sections (the served page's stream browser).
    var appendix = ""
    /// An inline script (the served page's), without the `<script>` tags; none when empty.
    var script = ""
    /// HTML placed before the sections, under the heading (the served page's window form).
    var preface = ""
    /// Extra elements of `<head>` (the served page's empty icon, so the browser asks for none).
    var head = ""

    package init(data: ReportData) {
        self.data = data
    }

    /// The start of a page, the report's or the served one's, up to its heading: `<head>` with
    /// `title` (escaped already), the extra elements `head` and the style sheet.
    static func top(title: String, head: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        \(head)
        <style>
        \(ReportStyle.css)
        </style>
        </head>
        <body>
        <header>
        <h1>Journal analytics</h1>

        """
    }

    package var html: String {
        var out = Self.top(title: "journal analytics: \(HTML.escape(data.window.description))", head: head)
        out += """
            <dl class="scope" id="scope">
            <dt>window</dt><dd id="window"\
            \(HTML.attribute("data-since", data.window.since?.description ?? ""))\
            \(HTML.attribute("data-until", data.window.until?.description ?? ""))\
            >\(HTML.escape(data.window.description))</dd>
            <dt>events</dt><dd id="events"\(HTML.attribute("data-value", String(data.events)))>\(data.events)</dd>
            <dt>rates over time</dt><dd id="every"\(HTML.attribute("data-every", data.every.rawValue))>one point per \
            \(HTML.escape(Self.widthName(data.every))) (UTC)</dd>
            \(AsOfLines.lines(data.asOf))</dl>
            \(AsOfLines.banner(data.asOf))\(preface)
            <nav aria-label="sections"><ul>
            <li><a href="#headline">Headline rates</a></li>
            <li><a href="#funnel">3DS funnel</a></li>
            <li><a href="#over-time">Rates over time</a></li>
            <li><a href="#challenges">Challenges</a></li>
            <li><a href="#latency">Challenge durations</a></li>
            <li><a href="#errors">Errors</a></li>
            <li><a href="#digitization">Card digitization</a></li>
            </ul></nav>
            </header>
            <main id="report">

            """
        out += headline + funnel + overTime + challenges + latency + errors + digitization
        out += "</main>\n" + appendix
        if !script.isEmpty { out += "<script>\n\(script)\n</script>\n" }
        return out + "</body>\n</html>\n"
    }

    // MARK: - Building blocks

    private func cell(_ path: [String], _ format: MetricFormat = .count) -> ReportCell {
        guard let value = data.value(path) else { return ReportCell(format == .count ? "0" : "–", numeric: true) }
        return ReportCell(format.text(value), metric: path.joined(separator: "."), value: value)
    }

    private func bar(_ path: [String], _ format: MetricFormat = .count) -> BarChart.Bar {
        let value = data.value(path)
        return BarChart.Bar(
            value: format.magnitude(value), text: value == nil && format == .count ? "0" : format.text(value))
    }

    private func section(_ id: String, _ title: String, _ intro: String, _ content: String) -> String {
        "<section" + HTML.attribute("id", id) + HTML.attribute("aria-labelledby", "\(id)-heading") + ">\n"
            + "<h2" + HTML.attribute("id", "\(id)-heading") + ">\(HTML.escape(title))</h2>\n"
            + "<p class=\"intro\">\(HTML.escape(intro))</p>\n" + content + "</section>\n"
    }

    private func figure(_ title: String, _ chart: String, _ table: ReportTable) -> String {
        "<figure class=\"pair\"><figcaption>\(HTML.escape(title))</figcaption>"
            + "<div class=\"plot\">\(chart)</div><div class=\"data\">\(table.html)</div></figure>\n"
    }

    private func alone(_ table: ReportTable) -> String { "<div class=\"data alone\">\(table.html)</div>\n" }

    package static func widthName(_ width: BucketWidth) -> String {
        switch width {
        case .minute: return "minute"
        case .fiveMinutes: return "5 minutes"
        case .quarterHour: return "15 minutes"
        case .hour: return "hour"
        case .day: return "day"
        }
    }

    // MARK: - Sections

    private static let rates: [(key: String, name: String, numerator: String, denominator: String)] = [
        ("authenticationRate", "Authentication rate", "authenticated", "responses"),
        ("frictionlessRate", "Frictionless rate", "frictionless", "responses"),
        ("challengeRate", "Challenge rate", "challenged", "responses"),
        ("abandonmentRate", "Abandonment rate", "abandoned", "challenged")
    ]

    private var headline: String {
        var cards = "<ul class=\"cards\">\n"
        var rows: [[ReportCell]] = []
        var bars: [BarChart.Group] = []
        for rate in Self.rates {
            let path = ["rates", "threeDS", rate.key]
            cards += card(
                rate.name, cell(path, .rate), cell(["rates", "threeDS", rate.numerator]), rate.numerator,
                cell(["rates", "threeDS", rate.denominator]), rate.denominator)
            rows.append([
                ReportCell(rate.name), cell(path, .rate), cell(["rates", "threeDS", rate.numerator]),
                cell(["rates", "threeDS", rate.denominator])
            ])
            bars.append(BarChart.Group(label: rate.name, bars: [bar(path, .rate)]))
        }
        let activation = ["rates", "tokenization", "activationRate"]
        cards += card(
            "Activation rate", cell(activation, .rate), cell(["rates", "tokenization", "activated"]), "activated",
            cell(["rates", "tokenization", "yellow"]), "yellow")
        rows.append([
            ReportCell("Activation rate"), cell(activation, .rate), cell(["rates", "tokenization", "activated"]),
            cell(["rates", "tokenization", "yellow"])
        ])
        bars.append(BarChart.Group(label: "Activation rate", bars: [bar(activation, .rate)]))
        cards += "</ul>\n"
        let chart = BarChart(
            id: "chart-rates", title: "Headline rates",
            summary: "Bars of the four 3-D Secure rates and the digitization activation rate, "
                + "0 to 100 %; the table beside the chart has each rate with its numerator and denominator.",
            series: ["rate"], groups: bars)
        let table = ReportTable(
            caption: "Headline rates (journal query rates)",
            columns: ["rate", "value", "numerator", "denominator"], rows: rows)
        return section(
            "headline", "Headline rates",
            "Streams that started in the window (docs/spec.md, section 7): a 3DS transaction by its "
                + "TransactionCreated, a digitization by its EligibilityChecked, each described by its whole history.",
            cards + figure(chart.title, chart.svg, table))
    }

    private func card(
        _ name: String, _ rate: ReportCell, _ numerator: ReportCell, _ numeratorName: String,
        _ denominator: ReportCell, _ denominatorName: String
    ) -> String {
        "<li class=\"card\"><span class=\"name\">\(HTML.escape(name))</span>"
            + "<span class=\"big\"\(rate.dataAttributes)>\(HTML.escape(rate.text))</span>"
            + "<span class=\"of\"><span\(numerator.dataAttributes)>\(HTML.escape(numerator.text))</span> "
            + "\(HTML.escape(numeratorName)) of "
            + "<span\(denominator.dataAttributes)>\(HTML.escape(denominator.text))</span> "
            + "\(HTML.escape(denominatorName))</span></li>\n"
    }

    private var funnel: String {
        var steps: [(String, [String])] = [
            ("Transactions", ["funnel", "transactions"]),
            ("ARes received", ["funnel", "aresReceived"]),
            ("No challenge asked (not C, D)", ["funnel", "frictionless"]),
            ("Challenge asked (C or D)", ["funnel", "challengeRequired"]),
            ("Challenge started", ["funnel", "challenged"])
        ]
        for key in data.keys("funnel.outcomes") { steps.append(("Outcome: \(key)", ["funnel", "outcomes", key])) }
        let total = data.count("funnel.transactions")
        let rows = steps.map { step in
            [
                ReportCell(step.0), cell(step.1),
                ReportCell(Readable.share(data.count(step.1.joined(separator: ".")), of: total) ?? "–", numeric: true)
            ]
        }
        let chart = BarChart(
            id: "chart-funnel", title: "3-D Secure funnel",
            summary: "Bars from the transactions created in the window through the ARes, the challenge, "
                + "to each outcome; the table beside the chart has the counts and their share of the transactions.",
            series: ["transactions"], groups: steps.map { BarChart.Group(label: $0.0, bars: [bar($0.1)]) })
        let table = ReportTable(
            caption: "3-D Secure funnel (journal query funnel)", columns: ["step", "transactions", "share"],
            rows: rows)
        let statuses = ReportTable(
            caption: "ARes transStatus", columns: ["transStatus", "transactions"],
            rows: data.keys("funnel.byAresStatus").map { [ReportCell($0), cell(["funnel", "byAresStatus", $0])] })
        var outcomeKeys: [String] = []
        for ds in data.keys("funnel.byDirectoryServer") {
            for key in data.keys("funnel.byDirectoryServer.\(ds).outcomes") where !outcomeKeys.contains(key) {
                outcomeKeys.append(key)
            }
        }
        outcomeKeys.sort()
        let byDS = ReportTable(
            caption: "By directory server",
            columns: ["directory server", "transactions", "no challenge requested", "challenged"] + outcomeKeys,
            rows: data.keys("funnel.byDirectoryServer").map { ds in
                let base = ["funnel", "byDirectoryServer", ds]
                return [
                    ReportCell(Readable.directoryServer(ds)), cell(base + ["transactions"]),
                    cell(base + ["frictionless"]),
                    cell(base + ["challenged"])
                ] + outcomeKeys.map { cell(base + ["outcomes", $0]) }
            })
        return section(
            "funnel", "3-D Secure funnel",
            "Transactions created in the window: the ARes, whether a challenge was requested and started, "
                + "and how each ended (open: not ended yet).",
            figure(chart.title, chart.svg, table) + alone(statuses) + alone(byDS))
    }

    private var overTime: String {
        let count = data.length("ratesOverTime.buckets")
        var labels: [String] = []
        var rows: [[ReportCell]] = []
        var volume: [Int64] = []
        var lines = Self.rates.map { LineChart.Series(name: $0.name, values: []) }
        for index in 0..<count {
            let base = ["ratesOverTime", "buckets", String(index)]
            let start = data.value(base + ["start"])?.stringValue ?? ""
            labels.append(Self.bucketLabel(start, data.every))
            volume.append(data.count((base + ["threeDS", "transactions"]).joined(separator: ".")))
            for (line, rate) in Self.rates.enumerated() {
                lines[line].values.append(data.value(base + ["threeDS", rate.key])?.numberValue?.double)
            }
            rows.append(
                [ReportCell(start), cell(base + ["threeDS", "transactions"]), cell(base + ["threeDS", "responses"])]
                    + Self.rates.map { cell(base + ["threeDS", $0.key], .rate) }
                    + [
                        cell(base + ["tokenization", "journeys"]),
                        cell(base + ["tokenization", "activationRate"], .rate)
                    ])
        }
        let chart = LineChart(
            id: "chart-over-time", title: "3-D Secure rates over time",
            summary: "Lines of the authentication, frictionless, challenge and abandonment rates per "
                + "\(Self.widthName(data.every)) on a 0 to 100 % scale, over bars of the transactions "
                + "started; the table below has every bucket's numbers.",
            labels: labels, series: lines, volumeName: "transactions", volume: volume)
        let table = ReportTable(
            caption: "Rates per \(Self.widthName(data.every)) (journal query rates --every \(data.every.rawValue))",
            columns: ["bucket start (UTC)", "transactions", "responses"] + Self.rates.map(\.name)
                + ["journeys", "Activation rate"], rows: rows)
        return section(
            "over-time", "Rates over time",
            "The same rates per UTC-aligned bucket of one \(Self.widthName(data.every)), by the start of each "
                + "stream; a gap in a line is a bucket with nothing to divide by.",
            "<figure class=\"wide\"><div class=\"plot\">\(chart.svg)</div>"
                + "<div class=\"data scroll\"\(HTML.attribute("data-every", data.every.rawValue))>"
                + "\(table.html)</div></figure>\n"
        )
    }

    /// `08:00` (or `11-29` for day buckets) from `2026-11-29T08:00:00.000Z`.
    static func bucketLabel(_ start: String, _ width: BucketWidth) -> String {
        let characters = Array(start)
        guard characters.count >= 16 else { return start }
        switch width {
        case .day: return String(characters[5..<10])
        case .minute, .fiveMinutes, .quarterHour, .hour: return String(characters[11..<16])
        }
    }

    private var challenges: String {
        let types = data.keys("challenges.byUiType")
        let chart = BarChart(
            id: "chart-challenges", title: "Challenge screens and ended challenges by ACS UI type",
            summary: "Per ACS UI type, bars of the challenge screens shown and of the challenges whose last screen had "
                + "that type; the table beside the chart has them with the mean number of rounds.",
            series: ["screens", "challenges ended"],
            groups: types.map { type in
                BarChart.Group(
                    label: Self.uiTypeName(type),
                    bars: [
                        bar(["challenges", "byUiType", type, "screens"]),
                        bar(["challenges", "byUiType", type, "challengesEnded"])
                    ])
            })
        var rows = types.map { type in
            let base = ["challenges", "byUiType", type]
            return [
                ReportCell(Self.uiTypeName(type)), cell(base + ["screens"]), cell(base + ["challengesEnded"]),
                cell(base + ["meanRounds"], .mean)
            ]
        }
        rows.append([
            ReportCell("all"), cell(["challenges", "screens"]), cell(["challenges", "challengesEnded"]),
            cell(["challenges", "meanRounds"], .mean)
        ])
        let table = ReportTable(
            caption: "Challenges by UI type (journal query challenges)",
            columns: ["UI type", "screens", "challenges ended", "mean rounds"], rows: rows)
        var outcomeRows: [[ReportCell]] = []
        for type in types {
            for outcome in data.keys("challenges.byUiType.\(type).outcomes") {
                outcomeRows.append([
                    ReportCell(Self.uiTypeName(type)), ReportCell(outcome),
                    cell(["challenges", "byUiType", type, "outcomes", outcome])
                ])
            }
        }
        let outcomes = ReportTable(
            caption: "How challenges ended, by their last screen's UI type",
            columns: ["UI type", "outcome", "challenges"], rows: outcomeRows)
        return section(
            "challenges", "Challenge rounds and UI types",
            "Screens are the non-final challenge responses in the window; a challenge counts under the UI "
                + "type of its last screen when it ended in the window; rounds are its challenge requests.",
            figure(chart.title, chart.svg, table) + alone(outcomes))
    }

    /// `01 text`; a type spec §3.1 does not name stays as it is (`none`: no screen).
    static func uiTypeName(_ type: String) -> String {
        guard let known = ACSUIType(rawValue: type) else { return type }
        return "\(type) \(known.label)"
    }

    private var latency: String {
        var groups = [
            BarChart.Group(
                label: "all",
                bars: ["p50", "p95", "p99"].map {
                    bar(["latency", "threeDS", "challengeMs", $0], .duration)
                })
        ]
        var rows = [
            [ReportCell("all")]
                + ["count", "p50", "p95", "p99"].map {
                    cell(["latency", "threeDS", "challengeMs", $0], $0 == "count" ? .count : .duration)
                }
        ]
        for ds in data.keys("latency.threeDS.byDirectoryServer") {
            let base = ["latency", "threeDS", "byDirectoryServer", ds]
            groups.append(
                BarChart.Group(
                    label: Readable.directoryServer(ds), bars: ["p50", "p95", "p99"].map { bar(base + [$0], .duration) }
                ))
            rows.append(
                [ReportCell(Readable.directoryServer(ds))]
                    + ["count", "p50", "p95", "p99"].map { cell(base + [$0], $0 == "count" ? .count : .duration) })
        }
        let chart = BarChart(
            id: "chart-latency", title: "Challenge durations, percentiles",
            summary: "Per directory server, bars of the 50th, 95th and 99th percentile of the time from "
                + "ChallengeStarted to the challenge's end; the table beside the chart has the values.",
            series: ["p50", "p95", "p99"], groups: groups)
        let table = ReportTable(
            caption: "Challenge durations (journal query latency)",
            columns: ["directory server", "challenges", "p50", "p95", "p99"], rows: rows)
        return section(
            "latency", "ACS challenge durations",
            "From ChallengeStarted to the challenge's end, for the challenges that ended in the window; "
                + "nearest-rank percentiles (each one an observed duration).",
            figure(chart.title, chart.svg, table))
    }

    private var errors: String {
        var groups: [BarChart.Group] = []
        var rows: [[ReportCell]] = []
        for (kind, key) in [("protocol", "protocolErrors"), ("runtime", "runtimeErrors")] {
            for code in data.keys("errors.\(key).byCode") {
                groups.append(BarChart.Group(label: "\(kind) \(code)", bars: [bar(["errors", key, "byCode", code])]))
                rows.append([ReportCell("\(kind) \(code)"), cell(["errors", key, "byCode", code])])
            }
            rows.append([ReportCell("\(kind) errors, all codes"), cell(["errors", key, "count"])])
        }
        let chart = BarChart(
            id: "chart-errors", title: "Errors by code",
            summary: "Bars of the protocol errors (Erro messages) and runtime errors in the window, per "
                + "error code; the table beside the chart has the counts.",
            series: ["errors"], groups: groups)
        let table = ReportTable(
            caption: "Errors by code (journal query errors)", columns: ["error", "count"], rows: rows)
        let components = ReportTable(
            caption: "Protocol errors by the component that reported them", columns: ["component", "errors"],
            rows: data.keys("errors.protocolErrors.byComponent").map {
                [ReportCell($0), cell(["errors", "protocolErrors", "byComponent", $0])]
            })
        let servers = data.keys("funnel.byDirectoryServer")
        let dsChart = BarChart(
            id: "chart-errors-ds", title: "Transactions ended by an error, by directory server",
            summary:
                "Per directory server with at least one, bars of the transactions created in the window that ended "
                + "with a protocol error and with a runtime error; the table beside the chart lists every server.",
            series: ["protocol error", "runtime error"],
            groups: servers.compactMap { ds in
                let bars = [
                    bar(["funnel", "byDirectoryServer", ds, "outcomes", "protocolError"]),
                    bar(["funnel", "byDirectoryServer", ds, "outcomes", "runtimeError"])
                ]
                // Only the servers with an error are drawn; the table lists them all.
                return bars.contains { $0.value > 0 }
                    ? BarChart.Group(label: Readable.directoryServer(ds), bars: bars) : nil
            })
        let dsTable = ReportTable(
            caption: "Transactions ended by an error, by directory server (journal query funnel)",
            columns: ["directory server", "transactions", "protocol error", "runtime error"],
            rows: servers.map { ds in
                let base = ["funnel", "byDirectoryServer", ds]
                return [
                    ReportCell(Readable.directoryServer(ds)), cell(base + ["transactions"]),
                    cell(base + ["outcomes", "protocolError"]), cell(base + ["outcomes", "runtimeError"])
                ]
            })
        return section(
            "errors", "Errors by code and directory server",
            "Error events in the window by code; and the transactions created in the window that ended "
                + "with an error, by directory server (scheme and RID).",
            figure(chart.title, chart.svg, table) + alone(components) + figure(dsChart.title, dsChart.svg, dsTable))
    }

    private var digitization: String {
        let decisions: [(String, String)] = [
            ("journeys", "Journeys"), ("eligible", "Eligible"), ("green", "Green (approved)"),
            ("yellow", "Yellow (ID&V needed)"), ("red", "Red (declined)"),
            ("activated", "Activated after ID&V")
        ]
        let decisionChart = BarChart(
            id: "chart-decisions", title: "Card digitization decisions",
            summary:
                "Bars of the digitizations started in the window: eligible, green, yellow and red decisions, and the "
                + "yellow ones activated; the table beside the chart has the counts.",
            series: ["journeys"],
            groups: decisions.map { BarChart.Group(label: $0.1, bars: [bar(["rates", "tokenization", $0.0])]) })
        let decisionTable = ReportTable(
            caption: "Digitization decisions (journal query rates)", columns: ["journeys", "count"],
            rows: decisions.map { [ReportCell($0.1), cell(["rates", "tokenization", $0.0])] }
                + [[ReportCell("Activation rate"), cell(["rates", "tokenization", "activationRate"], .rate)]])
        let methods = data.keys("rates.tokenization.byMethod")
        let methodChart = BarChart(
            id: "chart-methods", title: "ID&V method conversion",
            summary: "Per ID&V method type, bars of the yellow journeys that selected it and of the activated journeys "
                + "whose last selection it was; the table beside the chart has the counts.",
            series: ["selected", "activated"],
            groups: methods.map { method in
                BarChart.Group(
                    label: method,
                    bars: [
                        bar(["rates", "tokenization", "byMethod", method, "selected"]),
                        bar(["rates", "tokenization", "byMethod", method, "activated"])
                    ])
            })
        let methodTable = ReportTable(
            caption: "ID&V method conversion (journal query rates)",
            columns: ["method", "selected", "activated", "conversion"],
            rows: methods.map { method in
                let base = ["rates", "tokenization", "byMethod", method]
                return [
                    ReportCell(method), cell(base + ["selected"]), cell(base + ["activated"]),
                    ReportCell(
                        Readable.share(
                            data.count((base + ["activated"]).joined(separator: ".")),
                            of: data.count((base + ["selected"]).joined(separator: "."))) ?? "–", numeric: true)
                ]
            })
        var otpGroups: [BarChart.Group] = []
        var otpRows: [[ReportCell]] = []
        for method in data.keys("otp.tokenization.byMethod") {
            otpGroups.append(
                BarChart.Group(label: "submitted, \(method)", bars: [bar(["otp", "tokenization", "byMethod", method])]))
            otpRows.append([ReportCell("submitted, \(method)"), cell(["otp", "tokenization", "byMethod", method])])
        }
        for reason in data.keys("otp.tokenization.rejected") {
            otpGroups.append(
                BarChart.Group(label: "rejected, \(reason)", bars: [bar(["otp", "tokenization", "rejected", reason])]))
            otpRows.append([ReportCell("rejected, \(reason)"), cell(["otp", "tokenization", "rejected", reason])])
        }
        otpRows += [
            [ReportCell("OTP submissions"), cell(["otp", "tokenization", "otpSubmissions"])],
            [ReportCell("journeys with a submission"), cell(["otp", "tokenization", "journeys"])],
            [ReportCell("of them activated"), cell(["otp", "tokenization", "activated"])]
        ]
        let otpChart = BarChart(
            id: "chart-otp", title: "OTP submissions and rejections",
            summary: "Bars of the one-time passwords submitted in the window by method, and of the "
                + "rejections by reason; the table beside the chart has the counts.",
            series: ["OTPs"], groups: otpGroups)
        let otpTable = ReportTable(
            caption: "OTP outcomes (journal query otp)", columns: ["OTP", "count"], rows: otpRows)
        var timeGroups = [
            BarChart.Group(
                label: "all",
                bars: [
                    bar(["idv", "timeToActivationMs", "median"], .duration),
                    bar(["idv", "timeToActivationMs", "p95"], .duration)
                ])
        ]
        var timeRows = [
            [
                ReportCell("all"), cell(["idv", "activated"]), cell(["idv", "timeToActivationMs", "median"], .duration),
                cell(["idv", "timeToActivationMs", "p95"], .duration)
            ]
        ]
        for method in data.keys("idv.byMethod") {
            let base = ["idv", "byMethod", method]
            if data.value(base + ["timeToActivationMs", "median"])?.numberValue != nil {
                timeGroups.append(
                    BarChart.Group(
                        label: method,
                        bars: [
                            bar(base + ["timeToActivationMs", "median"], .duration),
                            bar(base + ["timeToActivationMs", "p95"], .duration)
                        ]))
            }
            timeRows.append([
                ReportCell(method), cell(base + ["activated"]),
                cell(base + ["timeToActivationMs", "median"], .duration),
                cell(base + ["timeToActivationMs", "p95"], .duration)
            ])
        }
        let timeChart = BarChart(
            id: "chart-activation", title: "Time to activation",
            summary: "Per ID&V method, bars of the median and 95th percentile time from the yellow "
                + "decision to the activation; the table beside the chart has the values.",
            series: ["median", "p95"], groups: timeGroups)
        let timeTable = ReportTable(
            caption: "Time to activation (journal query idv)",
            columns: ["method", "activated", "median", "p95"], rows: timeRows)
        return section(
            "digitization", "Card digitization",
            "Digitizations started in the window (green, yellow, red; ID&V conversion), and the OTPs and "
                + "activations that happened in it.",
            figure(decisionChart.title, decisionChart.svg, decisionTable)
                + figure(methodChart.title, methodChart.svg, methodTable)
                + figure(otpChart.title, otpChart.svg, otpTable) + figure(timeChart.title, timeChart.svg, timeTable))
    }
}
