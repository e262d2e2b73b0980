import Foundation
import Testing

/// `journal report` through the built executable: one self-contained, accessible HTML file
/// whose numbers are those `journal query … --format json` prints, escaped, private, and the
/// same bytes on every run.
@Suite("journal report end to end")
struct ReportEndToEndTests {
    /// A small simulated journal (seconds to build).
    private func simulated() throws -> JournalRunner {
        let runner = try JournalRunner()
        let result = try runner.run(["simulate", "--seed", "11", "--transactions", "60", "--digitizations", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        return runner
    }

    private func report(_ runner: JournalRunner, _ name: String = "report.html", _ extra: [String] = []) throws
        -> String
    {
        let result = try runner.run(["report", "--out", runner.path(name)] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(runner.path(name)): "))
        return try runner.read(name)
    }

    /// Every `data-metric` with its `data-value`, in page order.
    static func metrics(_ html: String) -> [(metric: String, value: String)] {
        let pattern = try! NSRegularExpression(pattern: #"data-metric="([^"]*)" data-value="([^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { match in
            (
                unescaped(String(html[Range(match.range(at: 1), in: html)!])),
                unescaped(String(html[Range(match.range(at: 2), in: html)!]))
            )
        }
    }

    /// An attribute value as the browser reads it (the five references the report writes).
    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// The value at a dotted path of a parsed JSON document.
    private static func lookup(_ document: Any, _ path: ArraySlice<Substring>) -> Any? {
        var current: Any? = document
        for key in path {
            if let object = current as? [String: Any] {
                current = object[String(key)]
            } else if let array = current as? [Any], let index = Int(key), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// Compares every number of the page with the query's JSON for the same window.
    private func expectNumbersEqualTheJSON(_ runner: JournalRunner, _ html: String, window: [String]) throws {
        let every = try #require(html.firstMatch(of: /data-every="([0-9a-z]+)"/)?.1)
        var documents: [String: Any] = [:]
        let found = Self.metrics(html)
        #expect(found.count > 40)
        for (metric, value) in found {
            let path = metric.split(separator: ".")
            let source = String(path[0])
            if documents[source] == nil {
                let arguments =
                    source == "ratesOverTime" ? ["query", "rates", "--every", String(every)] : ["query", source]
                let result = try runner.run(arguments + window + ["--format", "json"])
                #expect(result.status == 0, "\(result.stderr)")
                documents[source] = try Self.parse(result.stdout)
            }
            let expected = Self.lookup(documents[source]!, path.dropFirst())
            let actual = try Self.parse(value)
            #expect(expected != nil, "\(metric) is not in the JSON")
            if let expected {
                #expect((expected as? NSObject) == (actual as? NSObject), "\(metric): page \(value), JSON \(expected)")
            }
        }
        for metric in [
            "rates.threeDS.authenticationRate", "rates.threeDS.frictionlessRate", "rates.tokenization.activationRate",
            "funnel.transactions", "challenges.meanRounds", "latency.threeDS.challengeMs.p95",
            "errors.protocolErrors.count", "idv.timeToActivationMs.median", "otp.tokenization.otpSubmissions",
            "ratesOverTime.buckets.0.threeDS.transactions"
        ] {
            #expect(found.contains { $0.metric == metric }, "\(metric) is on the page")
        }
    }

    @Test("the report is one self-contained file: nothing is fetched, no script runs")
    func selfContained() throws {
        let html = try report(try simulated())
        #expect(html.hasPrefix("<!doctype html>"))
        for forbidden in ["http://", "https://", "src=", "<link", "<script", "@import", "url(", "<iframe", "<object"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
    }

    @Test("every chart is a labelled SVG image with a data table beside it")
    func everyChartHasATable() throws {
        let html = try report(try simulated())
        let figures = html.components(separatedBy: "<figure").dropFirst()
        let charts = html.components(separatedBy: "<svg").count - 1
        #expect(charts >= 9)
        #expect(figures.filter { $0.contains("<svg") }.count == charts)
        for figure in figures where figure.contains("<svg") {
            let body = figure.components(separatedBy: "</figure>")[0]
            #expect(body.contains("<table>"))
            #expect(body.contains(#"role="img""#))
            #expect(body.contains("aria-labelledby=\""))
            #expect(body.contains("<title id=\""))
            #expect(body.contains("<desc id=\""))
            #expect(body.contains("<rect") || body.contains("<path"))
        }
        #expect(html.contains("@media print"))
    }

    @Test("every number on the page equals the JSON that journal query prints")
    func numbersEqualTheJSON() throws {
        let runner = try simulated()
        let html = try report(runner)
        try expectNumbersEqualTheJSON(runner, html, window: [])
        #expect(html.contains(#"<dd id="events" data-value=""#))
    }

    @Test("a window's report holds that window's numbers, and says which window it is")
    func windowedNumbersEqualTheJSON() throws {
        let runner = try simulated()
        let window = ["--since", "2026-11-29T10:00:00.000Z", "--until", "2026-11-29T16:30:00.000Z"]
        let html = try report(runner, "window.html", window)
        #expect(html.contains("2026-11-29T10:00:00.000Z to 2026-11-29T16:30:00.000Z (excluded)"))
        #expect(
            html.contains(#"data-every="15m""#) || html.contains(#"data-every="5m""#)
                || html.contains(#"data-every="1h""#))
        try expectNumbersEqualTheJSON(runner, html, window: window)
        let events = try runner.run(["query", "rates"] + window)
        let count = try #require(events.stdoutLines.first { $0.hasPrefix("events  ") }).dropFirst(8)
        #expect(html.contains(#"<dd id="events" data-value="\#(count)">"#))
    }

    @Test("strings from the journal are escaped: a directory server ID cannot inject markup")
    func stringsAreEscaped() throws {
        let runner = try JournalRunner()
        var events = LegalEvents()
        let hostile = #"<b onmouseover=\"x\">&'ds'</b>"#
        let lines = events.frictionless(1).map {
            $0.replacingOccurrences(
                of: #""directoryServerID":"A000000004""#,
                with: #""directoryServerID":"\#(hostile)","customCertificate":true"#)
        }
        let imported = try runner.importLegal(lines)
        #expect(imported.status == 0, "\(imported.stderr)")
        let html = try report(runner)
        #expect(!html.contains("<b "))
        #expect(!html.contains("</b>"))
        #expect(html.contains("&lt;b onmouseover=&quot;x&quot;&gt;&amp;&#39;ds&#39;&lt;/b&gt;"))
        try expectNumbersEqualTheJSON(runner, html, window: [])
    }

    @Test("the report is created with mode 0600, also over a wider existing file")
    func modeIsPrivate() throws {
        let runner = try simulated()
        _ = try runner.write("wide.html", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: runner.path("wide.html"))
        for name in ["new.html", "wide.html"] {
            _ = try report(runner, name)
            let mode = try FileManager.default.attributesOfItem(atPath: runner.path(name))[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
    }

    @Test("the same journal and window give the same bytes")
    func deterministic() throws {
        let runner = try simulated()
        let first = try report(runner, "a.html")
        let second = try report(runner, "b.html")
        #expect(first == second)
    }

    @Test(
        "usage errors exit 2 and write nothing",
        arguments: [
            (["report"], "error: 'journal report' needs --out FILE"),
            (["report", "--out"], "error: option '--out FILE' needs a value"),
            (
                ["report", "--out", "r.html", "--since", "2026-12-02", "--until", "2026-12-01"],
                "error: --since 2026-12-02 is not before --until 2026-12-01: the window is inverted"
            ),
            (["report", "--out", "r.html", "--since", "soon"], "error: option '--since' takes a UTC timestamp"),
            (["report", "--out", "r.html", "extra"], "error: unexpected argument 'extra' for 'journal report'")
        ])
    func usageErrors(arguments: [String], firstLine: String) throws {
        let runner = try JournalRunner()
        let result = try runner.run(arguments, db: false)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.first?.hasPrefix(firstLine) == true, "\(result.stderr)")
        #expect(!runner.exists("r.html"))
        #expect(!runner.exists("journal.db"))
    }
}
