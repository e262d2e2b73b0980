import JournalCore

/// One number or label of the report. A number carries the dotted path of the JSON value it
/// shows (`rates.threeDS.authenticationRate`: query, then keys) and that value's JSON text, as
/// `data-metric` and `data-value` attributes, so a program can compare the page with
/// `journal query NAME --format json`.
package struct ReportCell {
    var text: String
    var metric: String?
    var value: JSONValue?
    /// Right-aligned like a number (a share, or a count the JSON leaves out because it is 0).
    var numeric = false

    init(_ text: String, numeric: Bool = false) {
        self.text = text
        self.numeric = numeric
    }

    init(_ text: String, metric: String, value: JSONValue) {
        self.text = text
        self.metric = metric
        self.value = value
    }

    /// The attributes `data-metric` and `data-value`, or nothing for a label.
    var dataAttributes: String {
        guard let metric, let value else { return "" }
        return HTML.attribute("data-metric", metric) + HTML.attribute("data-value", JSONWriter.string(value))
    }

    var isNumber: Bool { metric != nil || numeric }
}
